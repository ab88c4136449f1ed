package store

import (
	"bytes"
	"encoding/binary"
	"fmt"

	bolt "go.etcd.io/bbolt"

	"github.com/iceagechess/iceage/game"
)

// archive moves a game that has just ended from the active games (where
// old is its stored form) to the archive, and counts it for its players
// and the variant statistics, globally and in its guild.
func archive(tx *bolt.Tx, old, g *Game) error {
	if err := deleteEntries(tx, gameEntries(old, false)); err != nil {
		return err
	}
	if err := tx.Bucket(bucketGames).Delete([]byte(old.Channel)); err != nil {
		return fmt.Errorf("store: removing game %d from the active games: %w", g.ID, err)
	}
	g.Deadline, g.RemindAt = g.Deadline.UTC(), g.RemindAt.UTC()
	g.DrawOffer, g.Takeback = "", ""
	g.V = recordVersion
	b, err := encode(g)
	if err != nil {
		return fmt.Errorf("store: encoding game %d: %w", g.ID, err)
	}
	if err := tx.Bucket(bucketArchive).Put(u64(g.ID), b); err != nil {
		return fmt.Errorf("store: archiving game %d: %w", g.ID, err)
	}
	if err := putEntries(tx, gameEntries(g, true)); err != nil {
		return err
	}
	return countGame(tx, g)
}

// ArchivedGame returns the finished game with that id, or ErrNotFound.
func (s *Store) ArchivedGame(id uint64) (Game, error) {
	var g *Game
	err := s.db.View(func(tx *bolt.Tx) (err error) {
		g, err = loadArchived(tx, id)
		return err
	})
	if err != nil {
		return Game{}, err
	}
	return *g, nil
}

// ArchiveOfPlayer returns up to limit finished games of the user, newest
// first, with ids below before (0: from the newest), for paging: pass the
// last id of a page as the next page's before. A limit of 0 or less means
// no limit.
func (s *Store) ArchiveOfPlayer(user string, before uint64, limit int) ([]Game, error) {
	return s.archiveBy(bucketUserArch, user, before, limit)
}

// ArchiveOfGuild returns up to limit finished games of a server, newest
// first, with ids below before (0: from the newest).
func (s *Store) ArchiveOfGuild(guild string, before uint64, limit int) ([]Game, error) {
	return s.archiveBy(bucketGuildArch, guild, before, limit)
}

func (s *Store) archiveBy(index []byte, owner string, before uint64, limit int) ([]Game, error) {
	var out []Game
	err := s.db.View(func(tx *bolt.Tx) error {
		pre := prefix(owner)
		// Seek to the first key at or after owner NUL before, or after
		// all of the owner's keys (owner 0x01 sorts after every owner NUL
		// id), then walk backwards.
		start := append([]byte(owner), 1)
		if before != 0 {
			start = append(pre[:len(pre):len(pre)], u64(before)...)
		}
		c := tx.Bucket(index).Cursor()
		k, _ := c.Seek(start)
		if k == nil {
			k, _ = c.Last()
		} else {
			k, _ = c.Prev()
		}
		for ; k != nil && bytes.HasPrefix(k, pre) && (limit <= 0 || len(out) < limit); k, _ = c.Prev() {
			g, err := loadArchived(tx, binary.BigEndian.Uint64(k[len(pre):]))
			if err != nil {
				return fmt.Errorf("store: index %s points at a missing game: %w", index, err)
			}
			out = append(out, *g)
		}
		return nil
	})
	return out, err
}

// EachArchived calls fn with every finished game of id above after, in id
// order, for exports (PGN) and rebuilding statistics. It reads in one
// transaction, so fn sees one consistent archive; a long export keeps
// bbolt from reusing freed pages meanwhile (the file may grow), so export
// to a fast writer. An error from fn stops the walk and is returned.
func (s *Store) EachArchived(after uint64, fn func(Game) error) error {
	if after == ^uint64(0) {
		return nil
	}
	return s.db.View(func(tx *bolt.Tx) error {
		c := tx.Bucket(bucketArchive).Cursor()
		for k, v := c.Seek(u64(after + 1)); k != nil; k, v = c.Next() {
			var g Game
			if err := decode(fmt.Sprintf("archived game %x", k), v, &g); err != nil {
				return err
			}
			if err := fn(g); err != nil {
				return err
			}
		}
		return nil
	})
}

// countGame adds a finished game to its players' records and the variant
// statistics, globally and in its guild.
func countGame(tx *bolt.Tx, g *Game) error {
	scopes := []string{""}
	if g.Guild != "" {
		scopes = append(scopes, g.Guild)
	}
	for _, scope := range scopes {
		if err := updateStats(tx, scope, func(st *Stats) { st.count(g.Status) }); err != nil {
			return err
		}
		if g.Status.Reason == game.Aborted {
			continue // an aborted game is no game for the players' records
		}
		for _, c := range []game.Color{game.White, game.Black} {
			seat := g.Seat(c)
			if c == game.Black && g.Black.ID == g.White.ID {
				continue // a game against oneself counts once
			}
			err := updatePlayer(tx, scope, seat.ID, func(p *Player) error {
				if seat.Name != "" {
					p.Name = seat.Name
				}
				p.count(c, g)
				return nil
			})
			if err != nil {
				return err
			}
		}
	}
	return nil
}
