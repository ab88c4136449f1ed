package store

import (
	"context"
	"encoding/json"
	"slices"
	"testing"

	bolt "go.etcd.io/bbolt"

	"github.com/iceagechess/iceage/play"
)

// TestExportGivesATournamentTheGamesOfItsIndex: a file written before
// PutTournament kept the games a record dropped holds them only in the
// index; the export lists them with the tournament, so that a copy
// keeps the index whole.
func TestExportGivesATournamentTheGamesOfItsIndex(t *testing.T) {
	ctx := context.Background()
	s := openTest(t, nil)
	err := s.Update(ctx, func(tx play.Tx) error {
		return tx.PutTournament(play.TournamentRecord{ID: 9, Guild: "g1", Body: []byte("{}"), Games: []uint64{5, 6}})
	})
	if err != nil {
		t.Fatal(err)
	}
	// As an older program left it: the record lists game 6 only.
	err = s.db.Update(func(tx *bolt.Tx) error {
		v, err := json.Marshal(play.TournamentRecord{ID: 9, Guild: "g1", Body: []byte("{}"), Games: []uint64{6}})
		if err != nil {
			return err
		}
		return tx.Bucket(bucketTournaments).Put(u64(9), v)
	})
	if err != nil {
		t.Fatal(err)
	}
	var got []play.TournamentRecord
	if _, err := s.Export(ctx, func(r play.Record) error {
		if r.Tournament != nil {
			got = append(got, *r.Tournament)
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 || !slices.Equal(got[0].Games, []uint64{6, 5}) {
		t.Fatalf("the export gives %+v, want tournament 9 with games 6 and 5", got)
	}
}
