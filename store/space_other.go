//go:build !linux

package store

// freeSpace cannot tell the free space here.
func freeSpace(string) (uint64, bool) { return 0, false }

// lowerPriority does nothing here.
func lowerPriority(int) {}
