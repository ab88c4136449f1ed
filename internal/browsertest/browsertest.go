// Package browsertest starts a real browser, Debian's chromium, for the
// tests of the web pages, driven with chromedp. Without chromium a test
// is skipped, except under CI=true, where it fails: CI installs
// chromium (.ci/run), and a browser test that silently stops running
// proves nothing.
package browsertest

import (
	"context"
	"os"
	"os/exec"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// Paths are where chromium is looked for, then $PATH.
var Paths = []string{"/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome"}

// Find returns chromium's path, or "" if there is none.
func Find() string {
	if p := os.Getenv("ICEAGE_CHROMIUM"); p != "" {
		return p
	}
	for _, p := range Paths {
		if _, err := os.Stat(p); err == nil {
			return p
		}
	}
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	return ""
}

// New starts a headless chromium with a window of width×height (and
// more options, say chromedp.Flag("accept-lang", "ru")) and returns a
// tab's context, closed with the test. The test is skipped in
// short mode (the race run), and without chromium unless CI=true.
func New(t testing.TB, width, height int, more ...chromedp.ExecAllocatorOption) context.Context {
	t.Helper()
	if testing.Short() {
		t.Skip("a browser test: not in short mode")
	}
	path := Find()
	if path == "" {
		if os.Getenv("CI") == "true" {
			t.Fatal("chromium is not installed, and CI needs the browser tests: install Debian's chromium package (.ci/run does)")
		}
		t.Skip("chromium is not installed: the browser tests need Debian's chromium package")
	}
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(path),
		chromedp.WindowSize(width, height),
		chromedp.Flag("headless", "new"),
		chromedp.NoSandbox, // the tests may run as root, in a container
		chromedp.DisableGPU,
		chromedp.Flag("hide-scrollbars", true),
		chromedp.Flag("force-device-scale-factor", "1"),
	)
	opts = append(opts, more...)
	alloc, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancelTab := chromedp.NewContext(alloc)
	ctx, cancelTime := context.WithTimeout(ctx, 90*time.Second)
	t.Cleanup(func() {
		cancelTime()
		cancelTab()
		cancelAlloc()
	})
	if err := chromedp.Do(ctx); err != nil {
		t.Fatalf("starting chromium (%s): %v", path, err)
	}
	return ctx
}
