//go:build !unix

package web

import "testing"

// needFiles: the benchmarks of many watchers run where the limit on open
// files can be read.
func needFiles(b *testing.B, _ int) { b.Skip("needs a Unix system to know how many files it may open") }
