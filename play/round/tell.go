package round

import (
	"time"

	"github.com/iceagechess/iceage/play"
)

// DMRetry is how long after a refused direct message (closed DMs,
// play.Prefs.DMRefused) a player who asked for direct messages is
// mentioned instead, before one is tried again: a week, so that someone
// who opens their DMs again is heard from soon, and someone who does not
// is not tried on every move.
const DMRetry = 7 * 24 * time.Hour

// Decide is how a player is told, for why, of an act on g at at, by their
// settings p: the one place where a front end's "mention or direct
// message?" is answered.
//
//   - Nothing for a player who asked for nothing.
//   - Privately what is private to them (their conditional moves
//     dropped), and anything of a private game, whose channel takes no
//     post: by direct message, or nothing while their DMs are refused.
//   - An opponent's vacation in a public game: a note where the game is
//     played, notifying nobody.
//   - Their move in a live public game (one with a clock), once it has
//     begun: nothing, neither a ping nor a DM on every move of a blitz,
//     since both players are watching it. Its start, its end, a flag
//     and an offer are told as in correspondence. A private game's board
//     comes by direct message, so it is told as ever.
//   - Their move, a reminder of it, their game in a tournament's new
//     round or their bye in it, by direct message when they asked for it
//     and DMs are not refused lately; everything else, and a refused DM,
//     by a mention where the game is played.
func Decide(p *play.Prefs, g *play.Game, why Why, at time.Time) How {
	if p.Notifications == play.NotifyNone {
		return Silently
	}
	if why == YourMove && g.Clock != nil && !g.Private && g.Ply() > 0 {
		return Silently
	}
	dmOK := p.DMRefused.IsZero() || at.Sub(p.DMRefused) >= DMRetry
	if g.Private || why == QueueDropped {
		if dmOK {
			return DirectMessage
		}
		return Silently
	}
	if why == OpponentAway {
		return Silently
	}
	if p.Notifications == play.NotifyDM && dmOK && (why == YourMove || why == Paired || why == Remind || why == Bye) {
		return DirectMessage
	}
	return Mention
}

// decideTells fills in How and Lang of the Tell events of es, reading
// each player's settings once, in the act's transaction.
func decideTells(tx play.ReadTx, g *play.Game, es Events, at time.Time) error {
	var prefs map[string]*play.Prefs
	for i, e := range es {
		t, ok := e.(Tell)
		if !ok {
			continue
		}
		p := prefs[t.User]
		if p == nil {
			got, err := tx.Prefs(t.User)
			if err != nil {
				return err
			}
			if prefs == nil {
				prefs = map[string]*play.Prefs{}
			}
			p = &got
			prefs[t.User] = p
		}
		t.How, t.Lang = Decide(p, g, t.Why, at), p.Language
		es[i] = t
	}
	return nil
}

// Told returns how user is told of the delivery's act for why, and in
// which language ("" for the front end's own choice); ok is false when
// the act tells them nothing for why.
func (d *Delivery) Told(user string, why Why) (t Tell, ok bool) {
	for _, e := range d.Events {
		if t, ok := e.(Tell); ok && t.User == user && t.Why == why {
			return t, true
		}
	}
	return Tell{}, false
}

// Mentions are the users the delivery's board notifies where the game
// is played: those the act tells by a mention.
func (d *Delivery) Mentions() []string {
	var ids []string
	for _, e := range d.Events {
		if t, ok := e.(Tell); ok && t.How == Mention && t.Why != QueueDropped {
			ids = append(ids, t.User)
		}
	}
	return ids
}

// waitingTheme is the board theme of the player g waits for: the player
// to move, or the person facing the engine; "" when the game is over or
// only engines play.
func waitingTheme(tx play.ReadTx, g *play.Game) (string, error) {
	c := g.Turn()
	if g.Engine[c] != 0 {
		c = c.Other()
	}
	if g.Engine[c] != 0 || g.Over() {
		return "", nil
	}
	p, err := tx.Prefs(g.Seat(c).ID)
	return p.Theme, err
}
