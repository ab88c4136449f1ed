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
