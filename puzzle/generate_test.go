package puzzle

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the generator's golden file")

// smallRun is a generator run small enough for a test: one short
// self-play game on small budgets.
var smallRun = struct {
	seed uint64
	opt  Options
}{seed: 9, opt: Options{Nodes: 4_000, DeepNodes: 12_000, MaxPlies: 48}}

func TestTheGeneratorOnAFixedSeedGivesTheSameSet(t *testing.T) {
	ctx := context.Background()
	src := SelfPlaySource(smallRun.seed)
	first := Collect(src.Scan(ctx, smallRun.opt))
	Calibrate(first)
	second := Collect(src.Scan(ctx, smallRun.opt))
	Calibrate(second)
	var a, b bytes.Buffer
	if err := Write(&a, first); err != nil {
		t.Fatal(err)
	}
	if err := Write(&b, second); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(a.Bytes(), b.Bytes()) {
		t.Fatalf("two runs differ:\n%s\n---\n%s", a.Bytes(), b.Bytes())
	}
	if len(first) == 0 {
		t.Fatal("the small run found no puzzle: choose another seed")
	}
	for i := range first {
		if err := first[i].Check(); err != nil {
			t.Error(err)
		}
		if first[i].Proven {
			if err := first[i].Prove(); err != nil {
				t.Error(err)
			}
		}
	}
	golden := filepath.Join("testdata", "small-run.jsonl")
	if *update {
		if err := os.WriteFile(golden, a.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(a.Bytes(), want) {
		t.Fatalf("the small run differs from %s (go test -update if the generator changed on purpose):\n%s", golden, a.Bytes())
	}
}

func TestScanAllGivesEachSourceItsOwnPuzzlesInAnyOrder(t *testing.T) {
	ctx := context.Background()
	opt := smallRun.opt
	srcs := []Source{SelfPlaySource(8), SelfPlaySource(9)}
	one := map[string]string{}
	for _, src := range srcs {
		var b bytes.Buffer
		Write(&b, src.Scan(ctx, opt))
		one[src.Name] = b.String()
	}
	err := ScanAll(ctx, srcs, opt, 2, func(src Source, found []Puzzle) error {
		var b bytes.Buffer
		Write(&b, found)
		if b.String() != one[src.Name] {
			t.Errorf("%s in parallel differs from %s alone", src.Name, src.Name)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

func TestCalibrateSpreadsTheGuessesInTheirOrder(t *testing.T) {
	set := []Puzzle{{ID: "c", Rating: 900}, {ID: "a", Rating: 700}, {ID: "b", Rating: 900}, {ID: "d", Rating: 1400}}
	Calibrate(set)
	got := map[string]int{}
	for _, pz := range set {
		got[pz.ID] = pz.Rating
	}
	if got["a"] != CalibratedMin || got["d"] != CalibratedMax || !(got["a"] < got["b"] && got["b"] < got["c"] && got["c"] < got["d"]) {
		t.Fatalf("calibrated: %v", got)
	}
}

func TestPickChoosesNearTheRatingAndNothingTried(t *testing.T) {
	set := []Puzzle{{ID: "a", Rating: 800}, {ID: "b", Rating: 1500}, {ID: "c", Rating: 1520}, {ID: "d", Rating: 2200},
		{ID: "e", Rating: 1480}, {ID: "f", Rating: 1600}, {ID: "g", Rating: 1400}, {ID: "h", Rating: 600}}
	for _, salt := range []string{"x", "y", "z", "w"} {
		pz, ok := Pick(set, 1500, []string{"b"}, nil, salt)
		if !ok || pz.ID == "b" || pz.Rating < 1400 || pz.Rating > 1600 {
			t.Fatalf("salt %s: picked %+v, %v", salt, pz, ok)
		}
	}
	if _, ok := Pick(set[:1], 1500, []string{"a"}, nil, "x"); ok {
		t.Fatal("picked a puzzle already tried")
	}
}

func TestPickGoesByTheRatingTriesGave(t *testing.T) {
	// First rated 1500, "near" was found hard: its tries took it to 2100.
	// "far", first rated 2100, was found easy: down to 1490. A 1500 player
	// gets "far" and the puzzles never tried near 1500, never "near".
	set := []Puzzle{{ID: "near", Rating: 1500}, {ID: "far", Rating: 2100},
		{ID: "a", Rating: 1450}, {ID: "b", Rating: 1550}, {ID: "c", Rating: 1560}, {ID: "d", Rating: 1420},
		{ID: "e", Rating: 1800}, {ID: "f", Rating: 1900}}
	rated := map[string]float64{"near": 2100, "far": 1490}
	picked := map[string]bool{}
	for i := range 200 {
		pz, ok := Pick(set, 1500, nil, rated, fmt.Sprint(i))
		if !ok {
			t.Fatal("nothing picked")
		}
		picked[pz.ID] = true
	}
	if want := map[string]bool{"far": true, "a": true, "b": true, "c": true, "d": true}; !maps.Equal(picked, want) {
		t.Fatalf("picked %v, want %v", picked, want)
	}
	// Tried puzzles stay out while untried ones remain, wherever they are.
	for i := range 50 {
		pz, ok := Pick(set, 1500, []string{"far", "a", "b", "c", "d", "e", "f"}, rated, fmt.Sprint(i))
		if !ok || pz.ID != "near" {
			t.Fatalf("picked %+v, %v; want the one left untried", pz, ok)
		}
	}
}

func FuzzRead(f *testing.F) {
	f.Add([]byte(`{"id":"abc123","fen":"6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1","moves":["a1a8"],"goal":"mate","themes":["oneMove"],"rating":700}`))
	f.Add([]byte("{\n}\n[]"))
	f.Fuzz(func(t *testing.T, data []byte) {
		set, _ := Read(bytes.NewReader(data))
		for i := range set {
			_ = set[i].Check() // any text: an error, never a panic
			pos, _ := set[i].Position()
			if line, err := set[i].Line(); err == nil && len(line) > 0 {
				_ = set[i].Right(&pos, 0, line[0])
			}
		}
	})
}
