package main

import (
	"bytes"
	"fmt"
	"image/gif"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestRenderCommand(t *testing.T) {
	dir := t.TempDir()
	cases := []struct {
		name    string
		args    []string
		code    int
		stderr  string // a part of the expected error text
		decodes func(f *os.File) error
	}{
		{"draws the start position", []string{"-o", filepath.Join(dir, "a.png")}, 0, "",
			func(f *os.File) error { _, err := png.Decode(f); return err }},
		{"draws a FEN flipped with the last move", []string{"-fen", "rnbqkb1r/pppppppp/*****n**/********/********/******P*/PPPPPPP1/RNBQKBNR w KQkq - 0 2", "-flip", "-last", "g8f6", "-o", filepath.Join(dir, "b.png")}, 0, "",
			func(f *os.File) error { _, err := png.Decode(f); return err }},
		{"draws a game as a GIF", []string{"-gif", "-o", filepath.Join(dir, "c.gif"), "h2g3", "g8f6", "g3h4"}, 0, "",
			func(f *os.File) error { _, err := gif.DecodeAll(f); return err }},
		{"says which move of a game is illegal", []string{"-gif", "-o", filepath.Join(dir, "d.gif"), "h2g3", "e7e5"}, 1, "move 2 (e7e5): the pawn on e7 cannot reach e5", nil},
		{"reads moves as players type them", []string{"-gif", "-o", filepath.Join(dir, "e.gif"), "hxg3", "Nxf6"}, 0, "",
			func(f *os.File) error { _, err := gif.DecodeAll(f); return err }},
		{"says which move is not a move at all", []string{"-gif", "-o", filepath.Join(dir, "h.gif"), "hxg3", "zz9"}, 1, "move 2 (zz9)", nil},
		{"rejects a bad FEN", []string{"-fen", "nonsense", "-o", filepath.Join(dir, "f.png")}, 1, "render:", nil},
		{"needs an output file", []string{}, 2, "-o FILE", nil},
		{"rejects moves without -gif", []string{"-o", filepath.Join(dir, "g.png"), "e2e4"}, 2, "only with -gif", nil},
		{"rejects a zero size", []string{"-size", "0", "-o", filepath.Join(dir, "s0.png")}, 2, "-size 0: the board side is a multiple of 8 from 128 to 1024", nil},
		{"rejects a negative size", []string{"-size", "-512", "-o", filepath.Join(dir, "s1.png")}, 2, "-size -512", nil},
		{"rejects a huge size", []string{"-size", "1000000", "-o", filepath.Join(dir, "s2.png")}, 2, "-size 1000000", nil},
		{"rejects a size that is not a multiple of 8", []string{"-size", "500", "-o", filepath.Join(dir, "s3.png")}, 2, "-size 500", nil},
		{"draws the smallest size", []string{"-size", "128", "-o", filepath.Join(dir, "s4.png")}, 0, "",
			func(f *os.File) error { _, err := png.Decode(f); return err }},
		{"rejects an unknown theme", []string{"-theme", "neon", "-o", filepath.Join(dir, "h.png")}, 2, "unknown theme", nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			code := runRender(c.args, &stdout, &stderr)
			if code != c.code {
				t.Fatalf("exit status %d, want %d; stderr: %s", code, c.code, stderr.String())
			}
			if !strings.Contains(stderr.String(), c.stderr) {
				t.Errorf("stderr %q lacks %q", stderr.String(), c.stderr)
			}
			if c.decodes != nil {
				f, err := os.Open(c.args[len(c.args)-1-countMoves(c.args)])
				if err != nil {
					t.Fatal(err)
				}
				defer f.Close()
				if err := c.decodes(f); err != nil {
					t.Errorf("the image does not decode: %v", err)
				}
			}
		})
	}
}

func TestRenderCommandWriteError(t *testing.T) {
	if _, err := os.Stat("/dev/full"); err != nil {
		t.Skip("no /dev/full here:", err)
	}
	for _, c := range []struct {
		name string
		args []string
		want string
	}{
		{"a PNG that cannot be written says so once", []string{"-o", "/dev/full"},
			"render: writing the PNG: write /dev/full: no space left on device\n"},
		{"a GIF that cannot be written says so once", []string{"-gif", "-o", "/dev/full", "hxg3"},
			"render: writing the GIF: write /dev/full: no space left on device\n"},
	} {
		t.Run(c.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			if code := runRender(c.args, &stdout, &stderr); code != 1 || stderr.String() != c.want {
				t.Fatalf("exit %d, stderr %q, want 1 and %q", code, stderr.String(), c.want)
			}
		})
	}
}

func TestRenderCommandSamplesALongGame(t *testing.T) {
	// A 60-ply game, the GIF capped at 20 frames.
	f, err := os.ReadFile(filepath.Join("render", "testdata", "game60.txt"))
	if err != nil {
		t.Fatal(err)
	}
	var moves []string
	for _, line := range strings.Split(string(f), "\n") {
		if !strings.HasPrefix(line, "#") {
			moves = append(moves, strings.Fields(line)...)
		}
	}
	out := filepath.Join(t.TempDir(), "long.gif")
	var stdout, stderr bytes.Buffer
	if code := runRender(append([]string{"-gif", "-frames", "20", "-size", "128", "-o", out}, moves...), &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	want := fmt.Sprintf("render: the game has %d plies, more than 20 frames hold: the GIF shows 18 of them in 20 frames, every Ice Age and the final position among them (-frames changes the cap)\n", len(moves))
	if stderr.String() != want {
		t.Fatalf("stderr %q, want %q", stderr.String(), want)
	}
	r, err := os.Open(out)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	g, err := gif.DecodeAll(r)
	if err != nil || len(g.Image) != 20 {
		t.Fatalf("the GIF has %d frames (%v), want 20", len(g.Image), err)
	}
	t.Run("a game that fits says nothing", func(t *testing.T) {
		var stdout, stderr bytes.Buffer
		if code := runRender(append([]string{"-gif", "-size", "128", "-o", out}, moves[:10]...), &stdout, &stderr); code != 0 || stderr.Len() != 0 {
			t.Fatalf("exit %d, stderr %q", code, stderr.String())
		}
	})
	t.Run("a cap below one frame is refused", func(t *testing.T) {
		var stdout, stderr bytes.Buffer
		if code := runRender([]string{"-gif", "-frames", "0", "-o", out}, &stdout, &stderr); code != 2 || !strings.Contains(stderr.String(), "-frames 0: want at least 1") {
			t.Fatalf("exit %d, stderr %q", code, stderr.String())
		}
	})
}

// countMoves counts the trailing UCI moves of a -gif command line, so
// that the test finds the -o file before them.
func countMoves(args []string) int {
	n := 0
	for i := len(args) - 1; i >= 0 && !strings.Contains(args[i], string(filepath.Separator)); i-- {
		n++
	}
	return n
}
