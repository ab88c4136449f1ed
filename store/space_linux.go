package store

import "syscall"

// freeSpace returns the bytes that an unprivileged writer may still
// write on the file system of dir; ok is false when it cannot tell.
func freeSpace(dir string) (free uint64, ok bool) {
	var st syscall.Statfs_t
	if err := syscall.Statfs(dir, &st); err != nil {
		return 0, false
	}
	return uint64(st.Bavail) * uint64(st.Bsize), true // #nosec G115 -- block counts and sizes are not negative
}

// lowerPriority lowers the scheduling priority of process pid to nice
// 10, if it may, unless it is lower already.
func lowerPriority(pid int) {
	// The system call's value is 20 - nice.
	if prio, err := syscall.Getpriority(syscall.PRIO_PROCESS, pid); err == nil && 20-prio >= 10 {
		return
	}
	_ = syscall.Setpriority(syscall.PRIO_PROCESS, pid, 10) // at the usual priority if refused
}
