package play

import (
	"fmt"
	"slices"
)

// TournamentRecord is a tournament as storages keep it. Package
// tournament encodes its Body; a storage only indexes the record by
// guild and by the games its rounds started, so that the end of a game
// finds its tournament in the game's own transaction.
type TournamentRecord struct {
	ID       uint64
	Guild    string
	Finished bool
	Body     []byte
	// Games are the play games of its rounds; TournamentOf finds the
	// record from any of them.
	Games []uint64
}

// CheckIDs says whether a storage may keep the record.
func (r *TournamentRecord) CheckIDs() error {
	if r.ID == 0 {
		return fmt.Errorf("a tournament needs an id")
	}
	if err := CheckID("guild id", r.Guild); err != nil {
		return err
	}
	for _, g := range r.Games {
		if g == 0 {
			return fmt.Errorf("tournament %d lists game 0", r.ID)
		}
	}
	return nil
}

// Clone returns a copy that shares no memory with r.
func (r TournamentRecord) Clone() TournamentRecord {
	r.Body = append([]byte(nil), r.Body...)
	r.Games = append([]uint64(nil), r.Games...)
	return r
}

// KeepGames adds to r's Games those of listed that it no longer lists,
// after its own: a game once listed stays listed (Tx.PutTournament).
func (r *TournamentRecord) KeepGames(listed []uint64) {
	for _, g := range listed {
		if !slices.Contains(r.Games, g) {
			r.Games = append(r.Games, g)
		}
	}
}
