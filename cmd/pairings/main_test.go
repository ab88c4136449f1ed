package main

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// build builds the program into a temporary folder.
func build(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("builds and runs the program; skipped with -short")
	}
	bin := filepath.Join(t.TempDir(), "pairings")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("building the program: %v\n%s", err, out)
	}
	return bin
}

// TestPairsAsTheEndorsedProgram runs the built program, with
// bbpPairings' command line, on rounds 1 and 5 of the 200-player Swiss
// that the pairing's benchmarks use, and compares its output file with
// the endorsed program's pairs of the same file; then it runs it as a
// caller would find out what went wrong, by its exit status.
func TestPairsAsTheEndorsedProgram(t *testing.T) {
	bin := build(t)
	dir := t.TempDir()
	for _, name := range []string{"n200-round1", "n200-round5"} {
		in := filepath.Join("..", "..", "tournament", "testdata", "bench", name+".trf")
		out := filepath.Join(dir, name+".out")
		cmd := exec.Command(bin, "--dutch", in, "-p", out)
		if b, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("%s: %v\n%s", name, err, b)
		}
		got, err := os.ReadFile(out)
		if err != nil {
			t.Fatal(err)
		}
		want, err := os.ReadFile(strings.TrimSuffix(in, ".trf") + ".pairs")
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s: the pairs differ from the endorsed program's:\n%s\nwant:\n%s", name, got, want)
		}
	}

	err := exec.Command(bin, "--dutch", filepath.Join(dir, "missing.trf"), "-p").Run()
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != 5 {
		t.Errorf("a missing file: %v, want exit status 5", err)
	}
}

// TestLinksOnlyThePairing holds the program to the packages a pairing
// needs: the bot's (Discord, the database, the messages of six
// languages, pictures) would make every pairing pay for loading them.
func TestLinksOnlyThePairing(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go list; skipped with -short")
	}
	out, err := exec.Command("go", "list", "-deps", "-f", "{{if not .Standard}}{{.ImportPath}}{{end}}", ".").Output()
	if err != nil {
		t.Fatal(err)
	}
	allowed := map[string]bool{}
	for _, p := range []string{"cmd/pairings", "tournament/pairingcmd", "tournament", "play", "play/round", "game", "engine", "rating"} {
		allowed["github.com/iceagechess/iceage/"+p] = true
	}
	for _, p := range strings.Fields(string(out)) {
		if !allowed[p] {
			t.Errorf("the pairing program links %s, which pairing does not need", p)
		}
	}
}
