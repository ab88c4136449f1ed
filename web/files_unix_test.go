//go:build unix

package web

import (
	"syscall"
	"testing"
)

// needFiles skips a benchmark that needs n files open at once more than
// the system allows (Go raises its soft limit to the hard one).
func needFiles(b *testing.B, n int) {
	var lim syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &lim); err == nil && lim.Cur < uint64(n)+200 {
		b.Skipf("needs %d files open at once; the system allows %d", n+200, lim.Cur)
	}
}
