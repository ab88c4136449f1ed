// Package pairingcmd is the pairing program's command line, shared by
// "iceage pairings" and the small stand-alone program cmd/pairings: it
// reads a tournament in TRF, pairs its next round by the FIDE Dutch
// system and writes the pairs as the pairing programs write them.
//
// The command line and the exit statuses are those of the endorsed
// pairing program bbpPairings, so that an arbiter's program can call
// either: "--dutch IN.trf -p [OUT]" pairs (to standard output without
// OUT); 0 is success, 1 no valid pairing, 3 an invalid request (its
// arguments or the TRF), 5 a file that cannot be read or written. Only pairing is offered: checking a tournament (-c),
// generating one (-g) and the Burstein system are refused by name.
package pairingcmd

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/iceagechess/iceage/tournament"
)

// Exit statuses, as bbpPairings returns them.
const (
	OK         = 0
	NoPairing  = 1
	Invalid    = 3
	FileAccess = 5
)

// Request is what the command line asks for.
type Request struct {
	In   string // the tournament, a TRF file
	Out  string // where the pairs go; "" or "-" for standard output
	Help bool
}

// Usage is the command line, for a program named name.
func Usage(name string) string {
	return "usage: " + name + " --dutch IN.trf -p [OUT]\n" +
		"  pairs the next round of the tournament IN.trf (TRF-2016 with XXR, as\n" +
		"  JaVaFo and bbpPairings read it) by the FIDE Dutch system and writes the\n" +
		"  number of pairs, then \"WHITE BLACK\" by starting rank for each, the bye\n" +
		"  as \"N 0\", to OUT (standard output without OUT, or with \"-\").\n" +
		"  Exit status: 0 paired, 1 no valid pairing, 3 an invalid request or\n" +
		"  TRF, 5 a file that cannot be read or written.\n"
}

// unsupported names the options of bbpPairings this program does not
// offer, with why.
var unsupported = map[string]string{
	"-burstein": "the Burstein system is not offered: only the Dutch system (--dutch)",
	"-c":        "checking a tournament (-c) is not offered: this program pairs (-p)",
	"-l":        "a checklist (-l) is not offered",
	"-g":        "generating a tournament (-g) is not offered",
	"-o":        "generating a tournament (-o) is not offered",
	"-s":        "generating a tournament (-s) is not offered",
	"-r":        "-r is not offered",
}

// Parse reads the arguments after the program's name. Options may be
// written with one dash or two ("-dutch", "--dutch"); -p takes the
// output file when the next argument is not an option.
func Parse(args []string) (Request, error) {
	var r Request
	dutch, pair := false, false
	for i := 0; i < len(args); i++ {
		a := args[i]
		name := "-" + strings.TrimLeft(a, "-")
		if !strings.HasPrefix(a, "-") || a == "-" || a == "--" {
			return Request{}, fmt.Errorf("unexpected argument %q", a)
		}
		switch name {
		case "-h", "-help":
			r.Help = true
			return r, nil
		case "-dutch":
			if dutch {
				return Request{}, errors.New("--dutch is given twice")
			}
			if i+1 >= len(args) || args[i+1] == "" || strings.HasPrefix(args[i+1], "-") && args[i+1] != "-" {
				return Request{}, errors.New("--dutch needs the tournament's TRF file")
			}
			dutch = true
			i++
			r.In = args[i]
		case "-p":
			if pair {
				return Request{}, errors.New("-p is given twice")
			}
			pair = true
			if i+1 < len(args) && (!strings.HasPrefix(args[i+1], "-") || args[i+1] == "-") {
				i++
				r.Out = args[i]
			}
		default:
			if why, ok := unsupported[name]; ok {
				return Request{}, errors.New(why)
			}
			return Request{}, fmt.Errorf("unknown option %q", a)
		}
	}
	if !dutch {
		return Request{}, errors.New("give the tournament with --dutch IN.trf")
	}
	return r, nil
}

// Run runs the command line args (after the program's name) of the
// program called name, and returns its exit status.
func Run(name string, args []string, stdout, stderr io.Writer) int {
	r, err := Parse(args)
	if err != nil {
		fmt.Fprintf(stderr, "%s: %v\n%s", name, err, Usage(name))
		return Invalid
	}
	if r.Help {
		fmt.Fprint(stdout, Usage(name))
		return OK
	}
	file, err := os.Open(r.In) // #nosec G304 -- the tournament the arbiter named
	if err != nil {
		fmt.Fprintf(stderr, "%s: %v\n", name, err)
		return FileAccess
	}
	t, err := tournament.ReadTRF(file)
	_ = file.Close() // read to the end: a failed close loses nothing
	if err != nil {
		fmt.Fprintf(stderr, "%s: %s: %v\n", name, r.In, err)
		return Invalid
	}
	if played := t.Field.Played(); played >= t.Field.Rounds {
		fmt.Fprintf(stderr, "%s: %s: all %d rounds (XXR) are played: there is no round to pair\n", name, r.In, played)
		return Invalid
	}
	p, err := tournament.PairDutch(&t.Field)
	switch {
	case errors.Is(err, tournament.ErrNoPairing):
		fmt.Fprintf(stderr, "%s: %s: round %d: %v; the arbiter must pair it by hand\n", name, r.In, t.Field.Played()+1, err)
		return NoPairing
	case err != nil:
		fmt.Fprintf(stderr, "%s: %s: %v\n", name, r.In, err)
		return Invalid
	}
	if r.Out == "" || r.Out == "-" {
		if err := Write(stdout, p); err != nil {
			fmt.Fprintf(stderr, "%s: writing the pairs: %v\n", name, err)
			return FileAccess
		}
		return OK
	}
	f, err := os.Create(r.Out) // #nosec G304 -- the file the arbiter named for the pairs
	if err != nil {
		fmt.Fprintf(stderr, "%s: %v\n", name, err)
		return FileAccess
	}
	err = Write(f, p)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		fmt.Fprintf(stderr, "%s: %s: %v\n", name, r.Out, err)
		return FileAccess
	}
	return OK
}

// Write writes p as the pairing programs do: the number of pairs (the
// bye counting as one), then "WHITE BLACK" by starting rank for each
// game, and the bye as "N 0".
func Write(w io.Writer, p tournament.Pairing) error {
	var b strings.Builder
	n := len(p.Pairs)
	if p.Bye >= 0 {
		n++
	}
	fmt.Fprintln(&b, n)
	for _, pr := range p.Pairs {
		fmt.Fprintf(&b, "%d %d\n", pr.White+1, pr.Black+1)
	}
	if p.Bye >= 0 {
		fmt.Fprintf(&b, "%d 0\n", p.Bye+1)
	}
	_, err := io.WriteString(w, b.String())
	return err
}
