package tournament

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/iceagechess/iceage/internal/pgtest"
	"github.com/iceagechess/iceage/pgstore"
	"github.com/iceagechess/iceage/play"
	"github.com/iceagechess/iceage/play/memstore"
	"github.com/iceagechess/iceage/store"
)

func TestMain(m *testing.M) { os.Exit(pgtest.Main(m)) }

// Every storage keeps what the lot drew and the bye's score with the
// tournament, and a record of version 1 written before the draw reads
// back with White for the top seed.
func TestEveryStorageKeepsTheDrawAndTheBye(t *testing.T) {
	storages := map[string]func(t *testing.T) play.Storage{
		"memstore": func(*testing.T) play.Storage { return memstore.New() },
		"store": func(t *testing.T) play.Storage {
			s, err := store.Open(filepath.Join(t.TempDir(), "iceage.db"), nil)
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { _ = s.Close() })
			return s
		},
		"pgstore": func(t *testing.T) play.Storage {
			s, err := pgstore.Open(context.Background(), pgtest.New(t), nil)
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(s.Close)
			return s
		},
	}
	for name, open := range storages {
		t.Run(name, func(t *testing.T) {
			ctx := context.Background()
			st := open(t)
			svc := play.New(st, play.Options{OnEnd: []func(play.Tx, *play.Game) error{OnEnd}})
			r := &Runner{Round: mustRound(t, svc), Lot: func() Color { return Black }, Channel: func(_ context.Context, tr *Tournament, board int) (string, error) {
				return fmt.Sprintf("t%d-b%d", tr.ID, board+1), nil
			}}
			now := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
			tr, err := r.Create(ctx, Tournament{Guild: "g1", Name: "Kept", Organiser: "org", System: Swiss, Rounds: 3, DaysPerMove: 3, ByeScore: ByeHalfPoint}, now)
			if err != nil {
				t.Fatal(err)
			}
			for i := 0; i < 3; i++ {
				m := Member{ID: fmt.Sprintf("u%d", i), Name: fmt.Sprintf("Player %d", i)}
				if _, err := r.Do(ctx, tr.ID, now, func(t *Tournament) error { return t.Join(m) }); err != nil {
					t.Fatal(err)
				}
			}
			if _, err := r.Start(ctx, tr.ID, "org", now); err != nil {
				t.Fatal(err)
			}
			got, err := r.Get(ctx, tr.ID)
			if err != nil || got.TopColor != Black || got.ByeScore != ByeHalfPoint {
				t.Fatalf("read back: top colour %v, bye %v, %v", got.TopColor, got.ByeScore, err)
			}
			// A record of version 1, as an older program wrote it.
			old := Tournament{ID: 999, Guild: "g1", Name: "Old", Organiser: "org", System: Swiss, Rounds: 3, Status: Running}
			body := fmt.Appendf(nil, `{"v":1,"ID":999,"Guild":"g1","Name":"Old","Organiser":"org","System":%d,"Rounds":3,"Status":%d}`, old.System, old.Status)
			if err := st.Update(ctx, func(tx play.Tx) error {
				return tx.PutTournament(play.TournamentRecord{ID: 999, Guild: "g1", Body: body})
			}); err != nil {
				t.Fatal(err)
			}
			if got, err := r.Get(ctx, 999); err != nil || got.TopColor != White || got.Field().InitialColor != White {
				t.Fatalf("a version 1 record: %+v, %v", got, err)
			}
		})
	}
}
