package memstore

import (
	"cmp"
	"fmt"
	"slices"

	"github.com/iceagechess/iceage/play"
)

func (t *memTx) tournament(id uint64) (play.TournamentRecord, bool) {
	if r, ok := t.tournaments[id]; ok {
		return r.Clone(), true
	}
	r, ok := t.m.tournaments[id]
	return r.Clone(), ok
}

// Tournament returns the tournament with that id.
func (t *memTx) Tournament(id uint64) (play.TournamentRecord, error) {
	if r, ok := t.tournament(id); ok {
		return r, nil
	}
	return play.TournamentRecord{}, notFound("no tournament has id %d", id)
}

// Tournaments returns a guild's tournaments, newest first.
func (t *memTx) Tournaments(guild string) ([]play.TournamentRecord, error) {
	var out []play.TournamentRecord
	for id, r := range t.m.tournaments {
		if _, changed := t.tournaments[id]; !changed && r.Guild == guild {
			out = append(out, r.Clone())
		}
	}
	for _, r := range t.tournaments {
		if r.Guild == guild {
			out = append(out, r.Clone())
		}
	}
	slices.SortFunc(out, func(a, b play.TournamentRecord) int { return cmp.Compare(b.ID, a.ID) })
	return out, nil
}

// TournamentOf returns the tournament whose round started the game.
func (t *memTx) TournamentOf(game uint64) (uint64, error) {
	for _, r := range t.tournaments {
		if slices.Contains(r.Games, game) {
			return r.ID, nil
		}
	}
	if id, ok := t.m.tournamentOf[game]; ok {
		return id, nil
	}
	return 0, notFound("no tournament started game %d", game)
}

// PutTournament creates or replaces a tournament.
func (t *memTx) PutTournament(r play.TournamentRecord) error {
	if err := t.writable(); err != nil {
		return err
	}
	if err := r.CheckIDs(); err != nil {
		return fmt.Errorf("memstore: %w", err)
	}
	for _, g := range r.Games {
		if other, err := t.TournamentOf(g); err == nil && other != r.ID {
			return fmt.Errorf("memstore: game %d belongs to tournament %d already", g, other)
		}
	}
	r = r.Clone()
	if old, ok := t.tournament(r.ID); ok {
		if old.Guild != r.Guild {
			return fmt.Errorf("memstore: tournament %d cannot move from guild %s to %s", r.ID, old.Guild, r.Guild)
		}
		r.KeepGames(old.Games)
	}
	t.tournaments[r.ID] = r
	t.feedTournament(r.ID)
	return nil
}

func (m *Memory) addTournaments(rs map[uint64]play.TournamentRecord) {
	for id, r := range rs {
		m.tournaments[id] = r
		for _, g := range r.Games {
			m.tournamentOf[g] = id
		}
	}
}
