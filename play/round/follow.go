package round

import (
	"strconv"

	"github.com/iceagechess/iceage/game"
	"github.com/iceagechess/iceage/play"
)

// events are what an act did, as play's result tells it, and who must be
// told.
func events(a Act, res *play.Result) Events {
	g := &res.Game
	var es Events
	tell := func(user string, why Why) {
		if c, ok := g.ColorOf(user); ok && g.Engine[c] == 0 {
			es = append(es, Tell{User: user, Why: why})
		}
	}
	opponent := func(user string) string {
		if c, ok := g.ColorOf(user); ok {
			return g.Seat(c.Other()).ID
		}
		return ""
	}
	switch res.Event {
	case play.Started:
		es = append(es, Started{White: g.White.ID, Black: g.Black.ID})
		if g.Tournament != 0 {
			// Nobody challenged anybody: both hear of the game.
			tell(g.Seat(g.Turn().Other()).ID, Paired)
		}
	case play.TimeRanOut:
		es = append(es, TimedOut{Due: g.Updated, Late: a.At.Sub(g.Updated), Chooser: g.Flag.By})
		tell(g.Flag.By, Choose)
	case play.Rehomed:
		es = append(es, Rehomed{From: a.Channel, To: g.Channel, Why: a.moving})
		for _, c := range []game.Color{game.White, game.Black} {
			tell(g.Seat(c).ID, MovedAway)
		}
	case play.Moved:
		ply := g.Ply()
		c := res.Conditional
		if c != nil && c.Reply != nil {
			ply--
		}
		es = appendMove(es, a.By, res.Move, ply, false)
		if o := res.DrawLapsed; o != nil {
			es = append(es, Lapsed{Offer: Draw, By: o.By})
		}
		if o := res.TakebackLapsed; o != nil {
			es = append(es, Lapsed{Offer: Takeback, By: o.By})
		}
		switch {
		case c != nil && c.Reply != nil:
			es = appendMove(es, c.By, c.Reply, ply+1, true)
		case c != nil:
			es = append(es, Dropped{By: c.By})
			tell(c.By, QueueDropped)
		}
	case play.DrawOffered:
		opp := opponent(a.By)
		es = append(es, Offered{Offer: Draw, By: a.By, To: opp})
		tell(opp, OfferMade)
	case play.DrawDeclined:
		es = append(es, Declined{Offer: Draw, By: a.By})
	case play.TakebackRequested:
		opp := opponent(a.By)
		es = append(es, Offered{Offer: Takeback, By: a.By, To: opp})
		tell(opp, OfferMade)
	case play.TakebackDeclined:
		es = append(es, Declined{Offer: Takeback, By: a.By})
	case play.TookBack:
		es = append(es, TookBack{By: a.By, Plies: res.TakenBack})
	}
	switch {
	case g.Over():
		by := ""
		if res.Event == play.Ended {
			by = a.By
		}
		if a.Kind == TimeOut {
			es = append(es, TimedOut{Due: g.Updated, Late: a.At.Sub(g.Updated)})
		}
		es = append(es, Ended{Outcome: g.Outcome, By: by})
		switch {
		case by != "":
			tell(opponent(by), GameOver)
		case a.Kind == TimeOut || a.Kind == Adjudicate:
			for _, c := range []game.Color{game.White, game.Black} {
				tell(g.Seat(c).ID, GameOver)
			}
		}
	case res.Event == play.Started || res.Event == play.Moved || res.Event == play.TookBack:
		tell(g.ToMove().ID, YourMove)
	}
	return es
}

func appendMove(es Events, by string, m *play.MovePlayed, ply int, reply bool) Events {
	if m == nil {
		return es
	}
	es = append(es, Moved{By: by, SAN: m.SAN, UCI: m.UCI, Ply: ply, Reply: reply, FEN: m.After.FEN()})
	if ice := m.IceAge; ice != nil {
		es = append(es, IceAge{Ply: ply, Frozen: len(ice.Frozen), Filled: ice.Filled.Count(),
			Before: ice.Before.FEN(), Men: ice.Frozen, Ice: ice.Filled})
	}
	return es
}

// Played returns the move at ply (1 for the first) of g as play
// describes a move just played: its SAN, the positions before and after
// and its Ice Age. A front end that delivers an act's board later, from
// the outbox, draws it from this. Errors wrap play.ErrCorrupt.
func Played(g *play.Game, ply int) (*play.MovePlayed, error) {
	if ply < 1 || ply > len(g.Moves) {
		return nil, &plyError{g.ID, ply, len(g.Moves)}
	}
	prefix := *g
	prefix.Moves = g.Moves[:ply-1]
	prefix.Outcome = game.Outcome{}
	m, err := prefix.Match()
	if err != nil {
		return nil, err
	}
	pos := m.Position()
	mv, err := game.ParseMove(&pos, g.Moves[ply-1].UCI)
	if err != nil {
		return nil, &plyError{g.ID, ply, len(g.Moves)}
	}
	next, ice := pos.ApplyWithEvent(mv)
	return &play.MovePlayed{Move: mv, SAN: pos.SAN(mv), UCI: mv.UCI(), By: pos.Turn(), Before: pos, After: next, IceAge: ice}, nil
}

// Said returns the move at ply (1 for the first) of g as its record
// carries it — who played it, its SAN and UCI — and whether it brought
// an Ice Age, replaying nothing: the side and the Ice Age follow from
// the start position and the ply (an Ice Age comes with every
// game.IceAgePeriod-th move of Black's). ok is false when the move
// carries no SAN (a record from before moves kept it) or the start
// position does not read: Played tells it then.
func Said(g *play.Game, ply int) (m Moved, iceAge bool, ok bool) {
	if ply < 1 || ply > len(g.Moves) || g.Moves[ply-1].SAN == "" {
		return Moved{}, false, false
	}
	start, err := game.ParseFEN(g.StartFEN)
	if err != nil {
		return Moved{}, false, false
	}
	by := start.Turn()
	if ply%2 == 0 {
		by = by.Other()
	}
	if by == game.Black {
		// The how-manieth of Black's moves it is, and which of them
		// brings the next Ice Age (counting the one that does).
		nth := ply / 2
		if start.Turn() == game.Black {
			nth = (ply + 1) / 2
		}
		next := start.BlackMovesToIceAge()
		iceAge = nth >= next && (nth-next)%game.IceAgePeriod == 0
	}
	mv := g.Moves[ply-1]
	return Moved{By: g.Seat(by).ID, SAN: mv.SAN, UCI: mv.UCI, Ply: ply}, iceAge, true
}

// plyError: a move asked of a game that does not have it, or does not
// replay to it.
type plyError struct {
	game     uint64
	ply, has int
}

func (e *plyError) Error() string {
	return "round: game " + itoa(e.game) + " has no playable move " + itoa(uint64(e.ply)) + " (it has " + itoa(uint64(e.has)) + ")"
}

func (e *plyError) Unwrap() error { return play.ErrCorrupt }

func itoa(n uint64) string { return strconv.FormatUint(n, 10) }
