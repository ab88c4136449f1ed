package main

import (
	"fmt"
	"io"
	"runtime"
	"runtime/debug"
)

func init() {
	register("version", "print the program's version and build", runVersion)
}

func runVersion(args []string, stdout, stderr io.Writer) int {
	if len(args) > 0 {
		fmt.Fprintln(stderr, "usage: iceage version")
		return 2
	}
	version, revision, dirty := "(devel)", "", ""
	if bi, ok := debug.ReadBuildInfo(); ok {
		if bi.Main.Version != "" {
			version = bi.Main.Version
		}
		for _, s := range bi.Settings {
			switch s.Key {
			case "vcs.revision":
				revision = s.Value
			case "vcs.modified":
				if s.Value == "true" {
					dirty = " (modified)"
				}
			}
		}
	}
	fmt.Fprintf(stdout, "iceage %s", version)
	if revision != "" {
		fmt.Fprintf(stdout, " %.12s%s", revision, dirty)
	}
	fmt.Fprintf(stdout, " %s %s/%s\n", runtime.Version(), runtime.GOOS, runtime.GOARCH)
	return 0
}
