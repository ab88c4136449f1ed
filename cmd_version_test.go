package main

import (
	"bytes"
	"regexp"
	"runtime"
	"strings"
	"testing"
)

// iceage version prints one whole line, ending in a newline, so that a
// shell prompt or a script reading it line by line gets it whole.
func TestVersionPrintsOneLine(t *testing.T) {
	var stdout, stderr bytes.Buffer
	if code := dispatch([]string{"version"}, &stdout, &stderr); code != 0 || stderr.Len() != 0 {
		t.Fatalf("status %d, stderr %q", code, stderr.String())
	}
	out := stdout.String()
	if !strings.HasSuffix(out, "\n") || strings.Count(out, "\n") != 1 {
		t.Fatalf("%q is not one line ending in a newline", out)
	}
	want := regexp.MustCompile(`^iceage \S+( [0-9a-f]{1,12}( \(modified\))?)? ` + regexp.QuoteMeta(runtime.Version()+" "+runtime.GOOS+"/"+runtime.GOARCH) + "\n$")
	if !want.MatchString(out) {
		t.Fatalf("%q does not read as \"iceage VERSION [REVISION] GO OS/ARCH\"", out)
	}
	// -version and --version say the same, as most programs do.
	for _, flag := range []string{"-version", "--version"} {
		var o, e bytes.Buffer
		if code := dispatch([]string{flag}, &o, &e); code != 0 || o.String() != out || e.Len() != 0 {
			t.Errorf("iceage %s: status %d, %q, stderr %q; want %q", flag, code, o.String(), e.String(), out)
		}
	}
	stdout.Reset()
	if code := dispatch([]string{"version", "extra"}, &stdout, &stderr); code != 2 || !strings.HasSuffix(stderr.String(), "usage: iceage version\n") || stdout.Len() != 0 {
		t.Fatalf("an argument: status %d, stdout %q, stderr %q", code, stdout.String(), stderr.String())
	}
}
