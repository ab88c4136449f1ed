package playtest

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/iceagechess/iceage/game"
	"github.com/iceagechess/iceage/play"
	"github.com/iceagechess/iceage/play/memstore"
)

// EveryKind writes, in tx, records of every kind of play.RecordKinds,
// each through its own Tx method and with every field set that the kind
// has, and returns them as written. Two games (one active, one finished)
// and two players (in a guild and everywhere) come out; one record of
// each other kind. It fails on a kind it does not know, so that a kind
// added to the registry is added here too.
func EveryKind(tx play.Tx) ([]play.Record, error) {
	var out []play.Record
	ids := make([]uint64, 3)
	for i := range ids {
		id, err := tx.NextID()
		if err != nil {
			return nil, err
		}
		ids[i] = id
	}
	active, finished, challenge := ids[0], ids[1], ids[2]
	at := T0
	for _, kind := range play.RecordKinds() {
		var recs []play.Record
		switch kind {
		case play.KindGame:
			g := play.Game{ID: active, Revision: 3, Guild: "g1", Channel: "c1",
				White: play.Seat{ID: "u1", Name: "Ulla"}, Black: play.Seat{ID: "u2", Name: "Ugo"},
				StartFEN: game.StartFEN, Moves: []play.Move{{UCI: "h2g3", At: at.Add(time.Minute), SAN: "hxg3"}},
				FEN:     "rnbqkbnr/pppppppp/********/********/********/******P*/PPPPPPP1/RNBQKBNR b KQkq - 0 1",
				Last:    play.Moved,
				Created: at, Updated: at.Add(time.Minute), Rated: true, Engine: [2]int{0, 3},
				DaysPerMove: 3, Deadline: at.Add(73 * time.Hour), RemindAt: at.Add(49 * time.Hour),
				Reminded: []int{24}, OpponentChooses: true, Flag: &play.Flag{By: "u1", At: at.Add(time.Hour)},
				AwayUntil: [2]time.Time{at.Add(48 * time.Hour)},
				Premoves:  &play.Premoves{By: "u1", Lines: [][]string{{"g8f6", "g1f3"}}},
				DrawOffer: &play.Offer{By: "u1", Ply: 1}, LastOffer: [2]int{2, 0}}
			over := play.Game{ID: finished, Revision: 2, Guild: "g1", Channel: "c2",
				White: play.Seat{ID: "u2"}, Black: play.Seat{ID: "u1"},
				StartFEN: game.StartFEN, FEN: game.StartFEN, Moves: []play.Move{},
				Outcome: game.Outcome{Result: game.BlackWins, Reason: game.Resignation},
				Last:    play.Ended,
				Created: at, Updated: at.Add(time.Hour), Ended: at.Add(time.Hour), Rated: true,
				Ratings: []play.RatingChange{{Before: [2]float64{1500, 1500}, Deviation: [2]float64{350, 350}, After: [2]float64{1337.5, 1662.5}},
					{Scope: "g1", Before: [2]float64{1500, 1500}, Deviation: [2]float64{350, 350}, After: [2]float64{1337.5, 1662.5}}},
				Takeback: nil}
			for _, g := range []play.Game{g, over} {
				if err := tx.PutGame(g); err != nil {
					return nil, err
				}
				recs = append(recs, play.Record{Game: &g})
			}
		case play.KindChallenge:
			c := play.Challenge{ID: challenge, Guild: "g1", Channel: "c3", From: play.Seat{ID: "u1", Name: "Ulla"}, To: play.Seat{ID: "u3"},
				Color: play.BlackSide, Rated: true, DaysPerMove: 2, Created: at, Expires: at.Add(24 * time.Hour), Message: "m1"}
			if err := tx.PutChallenge(c); err != nil {
				return nil, err
			}
			recs = append(recs, play.Record{Challenge: &c})
		case play.KindPlayer:
			for _, scope := range []string{"", "g1"} {
				p := play.NewPlayer(scope, "u1")
				p.Name, p.RatedGames, p.RatedTally = "Ulla", 1, play.Tally{Won: 1}
				p.Rating = play.Rating{Rating: 1662.5, Deviation: 290.25, Volatility: 0.06, Updated: at.Add(time.Hour)}
				p.AsBlack, p.Streak, p.BestStreak, p.LastGame, p.FrozenLosses = play.Tally{Won: 1}, 1, 1, at.Add(time.Hour), 0
				if err := tx.PutPlayer(p); err != nil {
					return nil, err
				}
				recs = append(recs, play.Record{Player: &p})
			}
		case play.KindLogEntry:
			e := play.LogEntry{Scope: "g1", User: "u1", Game: finished, Ended: at.Add(time.Hour), Color: game.Black, Opponent: "u2",
				Outcome: game.Outcome{Result: game.BlackWins, Reason: game.Resignation}, First: "h2g3", Rated: true, Rating: 1662.5, Deviation: 290.25}
			if err := tx.PutLogEntry(e); err != nil {
				return nil, err
			}
			recs = append(recs, play.Record{LogEntry: &e})
		case play.KindStats:
			s := play.Stats{Scope: "g1", BlackWins: 1, Draws: 2, Aborted: 3, ByReason: map[game.Reason]int{game.Resignation: 1}, IceAges: 4}
			if err := tx.PutStats(s); err != nil {
				return nil, err
			}
			recs = append(recs, play.Record{Stats: &s})
		case play.KindPrefs:
			p := play.Prefs{Language: "fr", Notifications: "dm", Theme: "ice", Reminders: []int{24, 2},
				AwayFrom: at, AwayUntil: at.Add(48 * time.Hour), VacationYear: 2026, VacationUsed: 2, DMRefused: at.Add(time.Minute)}
			if err := tx.PutPrefs("u1", p); err != nil {
				return nil, err
			}
			recs = append(recs, play.Record{Prefs: &p, User: "u1"})
		case play.KindServer:
			s := play.ServerSettings{Language: "nb", DefaultDays: 5, OpponentChooses: play.On, Threads: play.Off,
				GamesChannel: "c9", OrganiserRole: "r1", Updated: at, UpdatedBy: "u9"}
			if err := tx.PutServerSettings("g1", s); err != nil {
				return nil, err
			}
			recs = append(recs, play.Record{Server: &s, Guild: "g1"})
		case play.KindTournament:
			r := play.TournamentRecord{ID: challenge + 1, Guild: "g1", Body: []byte(`{"v":1}`), Games: []uint64{active, finished}}
			if err := tx.PutTournament(r); err != nil {
				return nil, err
			}
			recs = append(recs, play.Record{Tournament: &r})
		case play.KindOutbox:
			it := play.OutboxItem{Key: fmt.Sprintf("g%d.r3.engine", active), Game: active, Kind: "engine", Body: []byte("level 3"),
				Due: at.Add(time.Second), Created: at, Tries: 2}
			if err := tx.PutOutbox(it); err != nil {
				return nil, err
			}
			recs = append(recs, play.Record{Outbox: &it})
		case play.KindPuzzler:
			p := play.Puzzler{Scope: "g1", User: "u1", Name: "Ulla", Rating: play.Rating{Rating: 1612.5, Deviation: 80, Volatility: 0.06, Updated: at},
				Rated: 4, Solved: 3, Streak: 2, BestStreak: 2, Tried: []string{"abc123", "def456"}, Current: "ghi789", Ply: 1, Hinted: true}
			if err := tx.PutPuzzler(p); err != nil {
				return nil, err
			}
			recs = append(recs, play.Record{Puzzler: &p})
		case play.KindPuzzleStats:
			s := play.PuzzleStats{ID: "abc123", Rating: play.Rating{Rating: 1380, Deviation: 300, Volatility: 0.06, Updated: at}, Tries: 5, Solved: 2}
			if err := tx.PutPuzzleStats(s); err != nil {
				return nil, err
			}
			recs = append(recs, play.Record{PuzzleStats: &s})
		case play.KindDailyPuzzle:
			d := play.DailyPuzzle{Guild: "g1", Channel: "c9", Hour: 18, Day: "2026-01-01", Puzzle: "abc123", Message: "m77", Solvers: []string{"u1", "u2"}}
			if err := tx.PutDailyPuzzle(d); err != nil {
				return nil, err
			}
			recs = append(recs, play.Record{DailyPuzzle: &d})
		case play.KindLessons:
			p := play.LessonProgress{Stars: map[string][]int{"ice-blocks": {3, 2}, "countdown": {0, 1}}, Updated: at}
			if err := tx.PutLessonProgress("u1", p); err != nil {
				return nil, err
			}
			recs = append(recs, play.Record{Lessons: &p, User: "u1"})
		default:
			return nil, fmt.Errorf("playtest.EveryKind writes no %v: add them", kind)
		}
		out = append(out, recs...)
	}
	return out, nil
}

// Canonical returns a record as one line of text, its kind and its JSON,
// without what a storage may change and still keep the record: the
// records' versions, which a storage sets; an outbox item's claim, which
// a copy gives up; the order of a tournament's games, which its index
// keeps as a set; the difference between an empty slice and none.
func Canonical(r play.Record) string {
	k := r.Kind()
	if k == 0 {
		return "no single kind"
	}
	var v any
	switch {
	case r.Game != nil:
		g := r.Game.Clone()
		g.V = 0
		if g.Moves == nil {
			g.Moves = []play.Move{}
		}
		v = g
	case r.Challenge != nil:
		v = unversioned(r.Challenge)
	case r.Player != nil:
		v = unversioned(r.Player)
	case r.LogEntry != nil:
		v = unversioned(r.LogEntry)
	case r.Stats != nil:
		s := unversioned(r.Stats)
		if len(s.ByReason) == 0 {
			s.ByReason = nil
		}
		v = s
	case r.Prefs != nil:
		v = keyed{User: r.User, Value: unversioned(r.Prefs)}
	case r.Lessons != nil:
		v = keyed{User: r.User, Value: unversioned(r.Lessons)}
	case r.Server != nil:
		v = keyed{Guild: r.Guild, Value: unversioned(r.Server)}
	case r.Tournament != nil:
		t := r.Tournament.Clone()
		slices.Sort(t.Games)
		if len(t.Body) == 0 {
			t.Body = nil
		}
		if len(t.Games) == 0 {
			t.Games = nil
		}
		v = t
	case r.Puzzler != nil:
		v = unversioned(r.Puzzler)
	case r.PuzzleStats != nil:
		v = unversioned(r.PuzzleStats)
	case r.DailyPuzzle != nil:
		v = unversioned(r.DailyPuzzle)
	case r.Outbox != nil:
		it := *r.Outbox
		it.Owner = ""
		if len(it.Body) == 0 {
			it.Body = nil
		}
		v = it
	}
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprintf("%v: %v", k, err)
	}
	return k.String() + " " + string(b)
}

// unversioned returns a copy of a record without its version, field V,
// which a storage sets.
func unversioned[T any](rec *T) T {
	c := *rec
	reflect.ValueOf(&c).Elem().FieldByName("V").SetZero()
	return c
}

// keyed is a record kept under a key that is not one of its fields: a
// user's, or a server's.
type keyed struct {
	User  string `json:",omitempty"`
	Guild string `json:",omitempty"`
	Value any
}

// Dump exports st and returns its records as sorted Canonical lines.
func Dump(t testing.TB, st play.Exporter) []string {
	t.Helper()
	var out []string
	if _, err := st.Export(context.Background(), func(r play.Record) error {
		out = append(out, Canonical(r))
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	slices.Sort(out)
	return out
}

// Schedule returns the entries of every time index of st (deadlines,
// reminders, expiries), as lines in their order: what the scheduler
// reads, which a storage keeps from the games and challenges.
func Schedule(t testing.TB, st play.Storage) []string {
	t.Helper()
	var out []string
	err := st.View(context.Background(), func(tx play.ReadTx) error {
		for _, k := range []play.DueKind{play.DueDeadline, play.DueReminder, play.DueExpiry} {
			due, err := tx.Due(k, time.Date(9999, 1, 1, 0, 0, 0, 0, time.UTC), 1<<20)
			if err != nil {
				return err
			}
			for _, d := range due {
				out = append(out, fmt.Sprintf("%d %s %d", k, d.At.UTC().Format(time.RFC3339Nano), d.ID))
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// Lines returns records as sorted Canonical lines.
func Lines(recs []play.Record) []string {
	out := make([]string, len(recs))
	for i, r := range recs {
		out[i] = Canonical(r)
	}
	slices.Sort(out)
	return out
}

// Diff says how two sorted dumps differ, line by line, "" if they do
// not.
func Diff(got, want []string) string {
	var b strings.Builder
	for _, l := range want {
		if _, found := slices.BinarySearch(got, l); !found {
			fmt.Fprintf(&b, "\nmissing: %s", l)
		}
	}
	for _, l := range got {
		if _, found := slices.BinarySearch(want, l); !found {
			fmt.Fprintf(&b, "\nextra:   %s", l)
		}
	}
	if b.Len() == 0 && len(got) != len(want) {
		fmt.Fprintf(&b, "\n%d lines, want %d", len(got), len(want))
	}
	return b.String()
}

// recorder is a Storage that remembers the last committed write of every
// record, through every transaction, to compare with an export.
type recorder struct {
	play.Storage
	mu   sync.Mutex
	last map[string]play.Record // by the record's name
}

func (s *recorder) Update(ctx context.Context, fn func(play.Tx) error) error {
	var w *recordingTx
	err := s.Storage.Update(ctx, func(tx play.Tx) error {
		w = &recordingTx{Tx: tx} // fn may run more than once: the last run is committed
		return fn(w)
	})
	if err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, wr := range w.writes {
		name := wr.rec.String()
		switch {
		case wr.deleted:
			delete(s.last, name)
		case wr.rec.Tournament != nil:
			if prev, ok := s.last[name]; ok { // a game once listed stays listed
				r := wr.rec.Tournament.Clone()
				r.KeepGames(prev.Tournament.Games)
				wr.rec = play.Record{Tournament: &r}
			}
			s.last[name] = wr.rec
		case wr.rec.Outbox != nil:
			if _, pending := s.last[name]; !pending { // a key pending keeps its first item
				s.last[name] = wr.rec
			}
		default:
			s.last[name] = wr.rec
		}
	}
	return nil
}

type write struct {
	rec     play.Record
	deleted bool
}

// recordingTx notes every write that succeeds.
type recordingTx struct {
	play.Tx
	writes []write
}

func (t *recordingTx) note(err error, r play.Record) error {
	if err == nil {
		t.writes = append(t.writes, write{rec: r})
	}
	return err
}

func (t *recordingTx) PutGame(g play.Game) error {
	g = g.Clone()
	return t.note(t.Tx.PutGame(g), play.Record{Game: &g})
}

func (t *recordingTx) PutChallenge(c play.Challenge) error {
	return t.note(t.Tx.PutChallenge(c), play.Record{Challenge: &c})
}

func (t *recordingTx) DeleteChallenge(id uint64) error {
	err := t.Tx.DeleteChallenge(id)
	if err == nil {
		t.writes = append(t.writes, write{rec: play.Record{Challenge: &play.Challenge{ID: id}}, deleted: true})
	}
	return err
}

func (t *recordingTx) PutPlayer(p play.Player) error {
	return t.note(t.Tx.PutPlayer(p), play.Record{Player: &p})
}

func (t *recordingTx) PutLogEntry(e play.LogEntry) error {
	return t.note(t.Tx.PutLogEntry(e), play.Record{LogEntry: &e})
}

func (t *recordingTx) PutStats(s play.Stats) error {
	return t.note(t.Tx.PutStats(s), play.Record{Stats: &s})
}

func (t *recordingTx) PutPrefs(user string, p play.Prefs) error {
	return t.note(t.Tx.PutPrefs(user, p), play.Record{Prefs: &p, User: user})
}

func (t *recordingTx) PutPuzzler(p play.Puzzler) error {
	return t.note(t.Tx.PutPuzzler(p), play.Record{Puzzler: &p})
}

func (t *recordingTx) PutPuzzleStats(s play.PuzzleStats) error {
	return t.note(t.Tx.PutPuzzleStats(s), play.Record{PuzzleStats: &s})
}

func (t *recordingTx) PutDailyPuzzle(d play.DailyPuzzle) error {
	return t.note(t.Tx.PutDailyPuzzle(d), play.Record{DailyPuzzle: &d})
}

func (t *recordingTx) PutLessonProgress(user string, p play.LessonProgress) error {
	return t.note(t.Tx.PutLessonProgress(user, p), play.Record{Lessons: &p, User: user})
}

func (t *recordingTx) PutServerSettings(guild string, s play.ServerSettings) error {
	return t.note(t.Tx.PutServerSettings(guild, s), play.Record{Server: &s, Guild: guild})
}

func (t *recordingTx) PutOutbox(items ...play.OutboxItem) error {
	err := t.Tx.PutOutbox(items...)
	for _, it := range items {
		t.note(err, play.Record{Outbox: &it})
	}
	return err
}

func (t *recordingTx) PutTournament(r play.TournamentRecord) error {
	r = r.Clone()
	return t.note(t.Tx.PutTournament(r), play.Record{Tournament: &r})
}

// runExportSuite checks that Export gives every record written through
// a transaction, equal, and nothing else.
func runExportSuite(t *testing.T, open func(t *testing.T) play.Storage) {
	ctx := context.Background()
	exporter := func(t *testing.T, st play.Storage) play.Exporter {
		t.Helper()
		ex, ok := st.(play.Exporter)
		if !ok {
			t.Fatalf("%T is no play.Exporter: a storage must list its records, so that it can be copied and migrated", st)
		}
		return ex
	}

	t.Run("a record of every kind written through a transaction comes out of Export, equal", func(t *testing.T) {
		st := open(t)
		ex := exporter(t, st)
		var written []play.Record
		err := st.Update(ctx, func(tx play.Tx) error {
			var err error
			written, err = EveryKind(tx)
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
		got, want := Dump(t, ex), Lines(written)
		if d := Diff(got, want); d != "" {
			t.Fatalf("the export differs from what was written:%s", d)
		}
		kinds := map[play.RecordKind]bool{}
		for _, r := range written {
			kinds[r.Kind()] = true
		}
		for _, k := range play.RecordKinds() {
			if !kinds[k] {
				t.Errorf("EveryKind wrote no %v", k)
			}
		}
		last, err := ex.Export(ctx, func(play.Record) error { return nil })
		if err != nil || last != written[0].Game.ID+2 {
			t.Errorf("Export's last id is %d, %v; NextID gave %d", last, err, written[0].Game.ID+2)
		}
	})

	t.Run("a copy into another storage and back into this one keeps every record and the schedule", func(t *testing.T) {
		st := open(t)
		ex := exporter(t, st)
		if err := st.Update(ctx, func(tx play.Tx) error { _, err := EveryKind(tx); return err }); err != nil {
			t.Fatal(err)
		}
		mem := memstore.New()
		if _, err := play.Copy(ctx, ex, mem, 2); err != nil {
			t.Fatalf("copying into memory: %v", err)
		}
		back := open(t)
		target, ok := back.(play.CopyTarget)
		if !ok {
			t.Fatalf("%T is no play.CopyTarget", back)
		}
		if _, err := play.Copy(ctx, mem, target, 2); err != nil {
			t.Fatalf("copying back: %v", err)
		}
		if d := Diff(Dump(t, target), Dump(t, ex)); d != "" {
			t.Fatalf("the copy back differs:%s", d)
		}
		if got, want := Schedule(t, back), Schedule(t, st); !slices.Equal(got, want) {
			t.Errorf("the copy back's schedule is %q, the first's %q", got, want)
		}
	})

	t.Run("what play's acts write comes out of Export, and nothing else", func(t *testing.T) {
		st := open(t)
		ex := exporter(t, st)
		rec := &recorder{Storage: st, last: map[string]play.Record{}}
		var tournament uint64
		// What a round and a tournament write in the acts' own
		// transactions.
		svc := play.New(rec, play.Options{Rand: func(int) int { return 0 }}).Then(func(tx play.Tx, r *play.Result) error {
			if tournament == 0 {
				id, err := tx.NextID()
				if err != nil {
					return err
				}
				tournament = id
			}
			if err := tx.PutTournament(play.TournamentRecord{ID: tournament, Guild: "g1", Body: []byte(`{"v":1}`), Games: []uint64{r.Game.ID}}); err != nil {
				return err
			}
			return tx.PutOutbox(play.OutboxItem{Key: fmt.Sprintf("g%d.r%d", r.Game.ID, r.Game.Revision), Game: r.Game.ID, Kind: "deliver", Due: r.Game.Updated, Created: r.Game.Updated})
		})
		must := func(err error) {
			t.Helper()
			if err != nil {
				t.Fatal(err)
			}
		}
		_, err := svc.SetServerSettings(ctx, "g1", play.ServerSettings{Language: "fr", DefaultDays: 2}, "admin", T0)
		must(err)
		_, err = svc.SetPrefs(ctx, "b", play.Prefs{Language: "nl", Notifications: "dm", Reminders: []int{12}}, T0)
		must(err)
		c, err := svc.Challenge(ctx, play.NewChallenge{Guild: "g1", Channel: "c1", From: play.Seat{ID: "w", Name: "Wanda"}, To: play.Seat{ID: "b"}, Color: play.WhiteSide, Rated: true, DaysPerMove: 2, At: T0})
		must(err)
		_, err = svc.Challenge(ctx, play.NewChallenge{Guild: "g1", Channel: "c2", From: play.Seat{ID: "w"}, To: play.Seat{ID: "x"}, Color: play.Random, DaysPerMove: 2, At: T0})
		must(err)
		r, err := svc.Accept(ctx, c.ID, play.Seat{ID: "b", Name: "Bo"}, "t1", T0)
		must(err)
		g := r.Game
		for i, mv := range []string{"hxg3", "Nxf6"} {
			r, err = svc.Move(ctx, play.Act{By: g.ToMove().ID, Game: g.ID, Revision: g.Revision, At: T0.Add(time.Duration(i+1) * time.Minute)}, mv)
			must(err)
			g = r.Game
		}
		_, err = svc.Resign(ctx, play.Act{By: "b", Game: g.ID, Revision: g.Revision, At: T0.Add(time.Hour)})
		must(err)
		r, err = svc.Start(ctx, play.NewGame{Guild: "g1", Channel: "c3", White: play.Seat{ID: "b"}, Black: play.Seat{ID: "w"}, DaysPerMove: 3, At: T0.Add(2 * time.Hour)})
		must(err)
		_, err = svc.Vacation(ctx, "w", 3, T0.Add(3*time.Hour))
		must(err)
		_, err = svc.Puzzle(ctx, play.PuzzleStep{Scope: "g1", User: "w", Name: "Wanda", Puzzle: "abc123", First: 1200, Event: play.PuzzleStarted, At: T0.Add(4 * time.Hour)})
		must(err)
		_, err = svc.Puzzle(ctx, play.PuzzleStep{Scope: "g1", User: "w", Puzzle: "abc123", Event: play.PuzzleSolved, At: T0.Add(5 * time.Hour)})
		must(err)
		_, err = svc.SetDailyPuzzle(ctx, "g1", "c9", 18, T0.Add(6*time.Hour))
		must(err)
		_, _, err = svc.DailySolved(ctx, "g1", "2026-11-30", "w")
		must(err)
		_, err = svc.EarnLessonStars(ctx, "w", "ice-blocks", 1, 2, T0.Add(4*time.Hour))
		must(err)

		seen := map[play.RecordKind]bool{}
		var want []play.Record
		for _, r := range rec.last {
			seen[r.Kind()] = true
			want = append(want, r)
		}
		for _, k := range play.RecordKinds() {
			if !seen[k] {
				t.Errorf("the acts wrote no %v: write some here, so that their export is checked", k)
			}
		}
		got := Dump(t, ex)
		if d := Diff(got, Lines(want)); d != "" {
			t.Fatalf("the export differs from what the acts wrote:%s", d)
		}
	})
}
