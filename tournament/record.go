package tournament

import (
	"encoding/json"
	"fmt"

	"github.com/iceagechess/iceage/play"
)

// recordVersion is the version of the stored form of a Tournament; a
// record of a newer version is refused rather than misread. Version 2
// added the top seed's colour drawn by lot (TopColor: a record of
// version 1 that started gave White), the bye's score chosen by the
// organiser (ByeScore) and the double forfeit. Version 3 added live time
// controls (Time): a record of version 2 is played by correspondence.
const recordVersion = 3

type storedTournament struct {
	V int `json:"v"`
	Tournament
}

// Stored is the tournament as storages keep it.
func (t *Tournament) Stored() (play.TournamentRecord, error) {
	body, err := json.Marshal(storedTournament{V: recordVersion, Tournament: *t})
	if err != nil {
		return play.TournamentRecord{}, fmt.Errorf("tournament %d: encoding: %w", t.ID, err)
	}
	r := play.TournamentRecord{ID: t.ID, Guild: t.Guild, Finished: t.Status == Finished, Body: body}
	for _, round := range t.Played {
		for _, b := range round.Boards {
			if b.GameID != 0 {
				r.Games = append(r.Games, b.GameID)
			}
		}
	}
	return r, nil
}

// FromRecord reads a stored tournament. Errors wrap play.ErrCorrupt.
func FromRecord(r play.TournamentRecord) (*Tournament, error) {
	var s storedTournament
	if err := json.Unmarshal(r.Body, &s); err != nil {
		return nil, fmt.Errorf("%w: tournament %d does not decode: %v", play.ErrCorrupt, r.ID, err)
	}
	if s.V > recordVersion {
		return nil, fmt.Errorf("%w: tournament %d was written by a newer version (%d)", play.ErrCorrupt, r.ID, s.V)
	}
	t := s.Tournament
	if s.V < 2 && t.Status != SigningUp {
		t.TopColor = White // before the draw, the top seed always had White
	}
	if t.ID != r.ID {
		return nil, fmt.Errorf("%w: tournament record %d holds tournament %d", play.ErrCorrupt, r.ID, t.ID)
	}
	if err := t.check(); err != nil {
		return nil, fmt.Errorf("%w: tournament %d: %v", play.ErrCorrupt, r.ID, err)
	}
	return &t, nil
}

// check keeps a decoded record from sending pairing or standings out of
// range.
func (t *Tournament) check() error {
	n := len(t.Members)
	if t.TopColor < NoColor || t.TopColor > Black {
		return fmt.Errorf("the top seed's colour is %d", t.TopColor)
	}
	if t.ByeScore < ByeFullPoint || t.ByeScore > ByeNoPoint {
		return fmt.Errorf("the bye scores %d", t.ByeScore)
	}
	for k, r := range t.Played {
		if r.Bye < -1 || r.Bye >= n {
			return fmt.Errorf("round %d gives the bye to player %d of %d", k+1, r.Bye, n)
		}
		for _, b := range r.Boards {
			if b.White < 0 || b.White >= n || b.Black < 0 || b.Black >= n || b.White == b.Black {
				return fmt.Errorf("round %d has a board %d-%d among %d players", k+1, b.White, b.Black, n)
			}
		}
	}
	return nil
}
