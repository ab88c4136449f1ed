package play

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"hash/crc32"
	"math"
	"os"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/iceagechess/iceage/game"
)

// refGames reads the UCI moves of the reference games.
func refGames(tb testing.TB) [][]string {
	tb.Helper()
	f, err := os.Open("../game/testdata/games.txt")
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	var games [][]string
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		if line := sc.Text(); line != "" && line[0] != '#' {
			games = append(games, strings.Fields(strings.Split(line, ";")[0]))
		}
	}
	return games
}

var recT0 = time.Date(2026, 3, 1, 12, 0, 0, 123456789, time.UTC)

// playedGame is a finished game of the reference set, its moves an hour
// and some milliseconds apart.
func playedGame(tb testing.TB, ucis []string) Game {
	tb.Helper()
	m, err := game.ReplayUCI(game.StartFEN, ucis)
	if err != nil {
		tb.Fatal(err)
	}
	g := Game{ID: 77, Revision: len(ucis) + 1, Guild: "guild", Channel: "channel",
		White: Seat{ID: "111", Name: "Ann"}, Black: Seat{ID: "222", Name: "Bob"},
		StartFEN: game.StartFEN, FEN: m.FEN(), Outcome: game.WinFor(game.White, game.Resignation), Last: Ended,
		Created: recT0, Updated: recT0.Add(time.Duration(len(ucis)) * time.Hour), Ended: recT0.Add(time.Duration(len(ucis)) * time.Hour),
		DaysPerMove: 3}
	// The SANs, which reading the record finds again as it replays the
	// moves.
	sans := m.SANs()
	// Their revisions: one a move, but for a draw offered and declined
	// before the 11th, and the 22nd, a conditional move that answered
	// the 21st in its act; the resignation last.
	rev := 1
	for i, u := range ucis {
		if i == 10 {
			rev += 2
		}
		if i != 21 {
			rev++
		}
		g.Moves = append(g.Moves, Move{UCI: u, At: recT0.Add(time.Duration(i)*time.Hour + time.Duration(i*37)*time.Millisecond).Truncate(time.Millisecond), SAN: sans[i], Rev: rev})
	}
	g.Revision = rev + 1
	return g
}

// everyField is a game with every field set, the moves not replaying.
func everyField() Game {
	return Game{V: 4, ID: 1 << 40, Revision: 3, Guild: "g", Channel: "c\x00h", White: Seat{"w", "Wé"}, Black: Seat{"b", ""},
		StartFEN: "not a position", FEN: "nor this", Moves: []Move{{UCI: "zz", At: time.UnixMilli(5).UTC()}, {UCI: "", At: latestTime.Truncate(time.Millisecond), Rev: 1<<31 - 1}},
		Outcome: game.Outcome{Result: 9, Reason: 200}, Last: 255,
		Created: time.Date(1970, 1, 1, 0, 0, 0, 1, time.UTC), Updated: latestTime,
		Ended: time.Unix(5, 0).UTC(), Rated: true, Private: true, Tournament: 1<<63 + 5,
		Ratings: []RatingChange{{Scope: "", Before: [2]float64{1500, -0.5}, Deviation: [2]float64{350, 1e-300}, After: [2]float64{1, 2}}},
		Engine:  [2]int{0, 8}, DaysPerMove: 14, Deadline: time.Unix(1e10, 7).UTC(), RemindAt: time.Unix(0, 0).UTC(),
		Reminded: []int{24, 0}, OpponentChooses: true, Flag: &Flag{By: "b", At: time.Unix(3, 0).UTC()},
		AwayUntil: [2]time.Time{time.Unix(9, 9).UTC(), time.Unix(10, 10).UTC()},
		Premoves:  &Premoves{By: "w", Lines: [][]string{{"e2e4", "e7e5"}, nil, {}}},
		DrawOffer: &Offer{By: "w", Ply: 3}, Takeback: &Offer{By: "b", Ply: 0}, LastOffer: [2]int{1, 2},
		Clock: &Clock{TimeControl: TimeControl{Limit: 180 * time.Minute, Increment: 180 * time.Second}, Left: [2]time.Duration{time.Millisecond, 0},
			Since: time.Unix(11, 1e6).UTC(), Lag: [2]Lag{{Quota: time.Second, Estimate: time.Millisecond}, {Quota: 0, Estimate: 2 * time.Second}}}}
}

func asJSON(tb testing.TB, g Game) string {
	tb.Helper()
	b, err := json.Marshal(g)
	if err != nil {
		tb.Fatal(err)
	}
	return string(b)
}

func roundTrip(tb testing.TB, g Game) Game {
	tb.Helper()
	b, err := EncodeRecord(&g)
	if err != nil {
		tb.Fatal(err)
	}
	var got Game
	if err := DecodeRecord(b, &got); err != nil {
		tb.Fatalf("decoding %x: %v", b, err)
	}
	return got
}

func TestGameRecordsReadBackEqual(t *testing.T) {
	refs := refGames(t)
	cases := map[string]Game{
		"every field set":         everyField(),
		"a new game":              {ID: 1, StartFEN: game.StartFEN, FEN: game.StartFEN, Created: recT0, Updated: recT0},
		"empty lists, not nil":    {ID: 2, Moves: []Move{}, Reminded: []int{}, Ratings: []RatingChange{}, Premoves: &Premoves{}},
		"the zero game":           {},
		"a game of the reference": playedGame(t, refs[0]),
		"a game from a position": func() Game {
			start := "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
			m, err := game.ReplayUCI(start, []string{"e2e4", "e7e5", "g1f3"})
			if err != nil {
				t.Fatal(err)
			}
			return Game{ID: 3, StartFEN: start, FEN: m.FEN(), Moves: []Move{{UCI: "e2e4", SAN: "e4"}, {UCI: "e7e5", SAN: "e5"}, {UCI: "g1f3", SAN: "Nf3"}}}
		}(),
		"a stored position the moves do not reach": func() Game {
			g := playedGame(t, refs[1])
			g.FEN = game.StartFEN
			return g
		}(),
	}
	for name, g := range cases {
		t.Run(name, func(t *testing.T) {
			g.V = RecordVersion
			if a, b := asJSON(t, roundTrip(t, g)), asJSON(t, g); a != b {
				t.Errorf("read back\n%s\nput\n%s", a, b)
			}
		})
	}
	t.Run("every reference game", func(t *testing.T) {
		for _, ucis := range refs {
			g := playedGame(t, ucis)
			g.V = RecordVersion
			if a, b := asJSON(t, roundTrip(t, g)), asJSON(t, g); a != b {
				t.Fatalf("read back\n%s\nput\n%s", a, b)
			}
		}
	})
}

// Every field of Game must have its place in the binary form: a field
// added to Game and not to appendGame and decodeGame would be lost by
// every storage.
func TestGameRecordKnowsEveryField(t *testing.T) {
	known := "V ID Revision Guild Channel Private Tournament White Black StartFEN Moves FEN Outcome Last Created Updated Ended Rated Ratings Engine " +
		"DaysPerMove Clock Deadline RemindAt Reminded OpponentChooses Flag AwayUntil Premoves DrawOffer Takeback LastOffer"
	var fields []string
	for f := range reflect.TypeFor[Game]().Fields() {
		fields = append(fields, f.Name)
	}
	if got := strings.Join(fields, " "); got != known {
		t.Fatalf("Game's fields are\n%s\nthe binary form knows\n%s\nadd the new field to appendGame, decodeGame, everyField and this list", got, known)
	}
	// everyField sets them all, so that its round trip tests them all.
	v := reflect.ValueOf(everyField())
	for i := range v.NumField() {
		if v.Field(i).IsZero() {
			t.Errorf("everyField leaves %s zero", v.Type().Field(i).Name)
		}
	}
}

func TestGameRecordIsSmall(t *testing.T) {
	refs := refGames(t)
	total, plies := 0, 0
	for _, ucis := range refs {
		g := playedGame(t, ucis)
		b, err := EncodeRecord(&g)
		if err != nil {
			t.Fatal(err)
		}
		total += len(b)
		plies += len(ucis)
	}
	t.Logf("%d reference games of %d plies on average: %d bytes a record on average", len(refs), plies/len(refs), total/len(refs))
	// The moves take about 5 bits and their times (an hour and a few
	// milliseconds apart) 4 bytes each; the rest is about 60 bytes.
	if perPly := float64(total-60*len(refs)) / float64(plies); perPly > 5 {
		t.Errorf("%.1f bytes a ply", perPly)
	}
}

func TestDamagedGameRecordsAreRefused(t *testing.T) {
	g := playedGame(t, refGames(t)[0])
	b, err := EncodeRecord(&g)
	if err != nil {
		t.Fatal(err)
	}
	for i := range b {
		for _, flip := range []byte{1, 0x80} {
			d := append([]byte(nil), b...)
			d[i] ^= flip
			var got Game
			err := DecodeRecord(d, &got)
			if i == 0 {
				continue // the version byte: another version, or JSON
			}
			if !errors.Is(err, ErrCorrupt) {
				t.Fatalf("byte %d changed: %v, want ErrCorrupt", i, err)
			}
		}
	}
	for n := range len(b) {
		var got Game
		if err := DecodeRecord(b[:n], &got); !errors.Is(err, ErrCorrupt) {
			t.Fatalf("cut to %d bytes: %v, want ErrCorrupt", n, err)
		}
	}
	// A newer program's record closes with its checksum too; a version
	// byte raised by damage breaks it.
	newer := append([]byte(nil), b[:len(b)-4]...)
	newer[0] = RecordVersion + 1
	newer = binary.LittleEndian.AppendUint32(newer, crc32.Checksum(newer, castagnoli))
	if err := DecodeRecord(newer, new(Game)); !errors.Is(err, ErrNewerRecord) {
		t.Errorf("a newer version: %v, want ErrNewerRecord", err)
	}
	raised := append([]byte(nil), b...)
	raised[0] = RecordVersion + 66
	if err := DecodeRecord(raised, new(Game)); errors.Is(err, ErrNewerRecord) || !errors.Is(err, ErrCorrupt) {
		t.Errorf("a version byte raised by damage: %v, want ErrCorrupt", err)
	}
}

// TestImpossibleGamesAreDamage: a record of a game with a time or a count
// no game can have is refused as damage, in the binary form and in the
// JSON form of version 3, and the limits themselves read back.
func TestImpossibleGamesAreDamage(t *testing.T) {
	ok := playedGame(t, refGames(t)[0])
	cases := map[string]func(g *Game){
		"created after the year 9999":    func(g *Game) { g.Created = latestTime.Add(time.Nanosecond) },
		"created in the year 20000":      func(g *Game) { g.Created = time.Date(20000, 1, 1, 0, 0, 0, 0, time.UTC) },
		"updated before 1970":            func(g *Game) { g.Updated = earliestTime.Add(-time.Nanosecond) },
		"ended in the year 1":            func(g *Game) { g.Ended = time.Date(1, 1, 1, 0, 0, 1, 0, time.UTC) },
		"a deadline after 9999":          func(g *Game) { g.Deadline = time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC) },
		"a reminder before 1970":         func(g *Game) { g.RemindAt = time.Unix(-1, 0).UTC() },
		"a flag after 9999":              func(g *Game) { g.Flag = &Flag{By: "111", At: time.Unix(1<<40, 0).UTC()} },
		"a vacation before 1970":         func(g *Game) { g.AwayUntil[game.Black] = time.Unix(-1e10, 0).UTC() },
		"a move before 1970":             func(g *Game) { g.Moves[3].At = time.UnixMilli(-5).UTC() },
		"a move after 9999":              func(g *Game) { g.Moves[len(g.Moves)-1].At = time.UnixMilli(1<<50 + 3).UTC() },
		"a negative revision":            func(g *Game) { g.Revision = -3 },
		"negative days a move":           func(g *Game) { g.DaysPerMove = -1 },
		"three rating changes":           func(g *Game) { g.Ratings = make([]RatingChange, 3) },
		"a rating that is not a number":  func(g *Game) { g.Ratings = []RatingChange{{After: [2]float64{1500, math.NaN()}}} },
		"an infinite deviation":          func(g *Game) { g.Ratings = []RatingChange{{Deviation: [2]float64{math.Inf(1), 350}}} },
		"a draw offer at a negative ply": func(g *Game) { g.DrawOffer = &Offer{By: "111", Ply: -1} },
		"a takeback at a negative ply":   func(g *Game) { g.Takeback = &Offer{By: "111", Ply: -2} },
		"a negative last offer":          func(g *Game) { g.LastOffer = [2]int{0, -1} },
		"a reminder past two weeks":      func(g *Game) { g.Reminded = []int{MaxReminderHours + 1} },
		"a negative reminder":            func(g *Game) { g.Reminded = []int{-1} },
		"too many lines of premoves":     func(g *Game) { g.Premoves = &Premoves{By: "111", Lines: make([][]string, MaxPremoveLines+1)} },
		"too long a line of premoves":    func(g *Game) { g.Premoves = &Premoves{By: "111", Lines: [][]string{make([]string, MaxPremovePlies+1)}} },
	}
	for name, spoil := range cases {
		t.Run(name, func(t *testing.T) {
			g := ok.Clone()
			spoil(&g)
			b, err := EncodeRecord(&g)
			if err != nil {
				t.Fatal(err)
			}
			if err := DecodeRecord(b, new(Game)); !errors.Is(err, ErrCorrupt) {
				t.Errorf("binary: %v, want ErrCorrupt", err)
			}
			g.V = 3
			js, err := json.Marshal(g)
			if err != nil {
				return // JSON cannot write it either
			}
			if err := DecodeRecord(js, new(Game)); !errors.Is(err, ErrCorrupt) {
				t.Errorf("JSON: %v, want ErrCorrupt", err)
			}
		})
	}
	t.Run("the limits themselves", func(t *testing.T) {
		g := ok.Clone()
		g.Created, g.Updated, g.Ended = earliestTime, latestTime, latestTime
		g.Moves[0].At, g.Moves[len(g.Moves)-1].At = earliestTime, latestTime.Truncate(time.Millisecond)
		g.Ratings = make([]RatingChange, 2)
		g.Reminded = []int{MaxReminderHours, 0}
		g.Premoves = &Premoves{By: "111", Lines: make([][]string, MaxPremoveLines)}
		g.Premoves.Lines[0] = make([]string, MaxPremovePlies)
		g.V = RecordVersion
		if got := roundTrip(t, g); !reflect.DeepEqual(got, g) {
			t.Errorf("read back\n%+v\nput\n%+v", got, g)
		}
	})
}

func TestOldGameRecordsStillRead(t *testing.T) {
	g := playedGame(t, refGames(t)[2])
	g.V = 3
	old, err := json.Marshal(g)
	if err != nil {
		t.Fatal(err)
	}
	var got Game
	if err := DecodeRecord(old, &got); err != nil {
		t.Fatal(err)
	}
	if a, b := asJSON(t, got), string(old); a != b {
		t.Errorf("read\n%s\nfrom\n%s", a, b)
	}
}

// FuzzDecodeGameRecord: no bytes make the decoder panic, and what decodes
// encodes to a record that decodes to the same game. Each input is tried
// as it is and as the body of a record, its checksum appended, so that
// the fuzzer reaches the fields behind the checksum.
func FuzzDecodeGameRecord(f *testing.F) {
	for _, g := range []Game{everyField(), playedGame(f, refGames(f)[0]), {}} {
		b, err := EncodeRecord(&g)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
		f.Add(b[:len(b)-4])
	}
	f.Add([]byte{4, 0, 0, 0, 0})
	f.Fuzz(func(t *testing.T, b []byte) {
		sealed := binary.LittleEndian.AppendUint32(bytes.Clone(b), crc32.Checksum(b, castagnoli))
		for _, rec := range [][]byte{b, sealed} {
			if !isBinaryGame(rec) {
				continue
			}
			var g Game
			if decodeGame(rec, &g) != nil {
				continue
			}
			// Compared field by field, not through JSON, whose encoder
			// refuses values (a year past 9999) that the decoder must
			// refuse itself. A record of an older version is written
			// back as one of this version.
			g.V = RecordVersion
			if again := roundTrip(t, g); !reflect.DeepEqual(again, g) {
				t.Fatalf("decoded\n%+v\nre-encoded and decoded\n%+v", g, again)
			}
		}
	})
}

// BenchmarkDecodeGameRecord decodes a stored game of 149 plies (the mean
// of the reference games; the first 149 of the first longer one) in its
// binary form and, for comparison, in the JSON form of version 3.
func BenchmarkDecodeGameRecord(b *testing.B) {
	var ref []string
	for _, r := range refGames(b) {
		if len(r) >= 149 {
			ref = r[:149]
			break
		}
	}
	g := playedGame(b, ref)
	bin, err := EncodeRecord(&g)
	if err != nil {
		b.Fatal(err)
	}
	g.V = 3
	js, err := json.Marshal(g)
	if err != nil {
		b.Fatal(err)
	}
	for _, c := range []struct {
		name string
		rec  []byte
	}{{"binary", bin}, {"json", js}} {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				var d Game
				if err := DecodeRecord(c.rec, &d); err != nil || len(d.Moves) != len(ref) {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(len(c.rec)), "bytes")
			b.ReportMetric(float64(len(ref)), "plies")
		})
	}
}

// BenchmarkEncodeGameRecord encodes a game of 149 plies, as every write of
// a game does (a move rewrites its game): the binary form replays the
// game; the JSON form of version 3, for comparison.
func BenchmarkEncodeGameRecord(b *testing.B) {
	var ref []string
	for _, r := range refGames(b) {
		if len(r) >= 149 {
			ref = r[:149]
			break
		}
	}
	g := playedGame(b, ref)
	b.Run("binary", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := EncodeRecord(&g); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("json", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := json.Marshal(&g); err != nil {
				b.Fatal(err)
			}
		}
	})
}

func TestGameRecordDerivesFEN(t *testing.T) {
	refs := refGames(t)
	played := playedGame(t, refs[0])
	elsewhere := playedGame(t, refs[1])
	elsewhere.FEN = game.StartFEN
	cases := []struct {
		name string
		g    Game
		want bool
	}{
		{"a played game", played, true},
		{"a stored position the moves do not reach", elsewhere, false},
		{"moves that do not replay", everyField(), false},
	}
	for _, c := range cases {
		b, err := EncodeRecord(&c.g)
		if err != nil {
			t.Fatal(err)
		}
		if got := GameRecordDerivesFEN(b); got != c.want {
			t.Errorf("%s: %v, want %v", c.name, got, c.want)
		}
	}
	js, _ := json.Marshal(played)
	for _, b := range [][]byte{js, nil, {4}, {4, 0x80}} {
		if GameRecordDerivesFEN(b) {
			t.Errorf("%q derives its position", b)
		}
	}
}
