package play

import (
	"fmt"
	"time"

	"github.com/iceagechess/iceage/game"
)

// RefusalKind says why an act was refused. The numbers are stable: front
// ends store them in logs and translate each one.
type RefusalKind uint8

const (
	// NoGame: no game has the id (or no active game is in the channel).
	NoGame RefusalKind = 1
	// NotAPlayer: the asker does not play in the game.
	NotAPlayer RefusalKind = 2
	// NotYourTurn: it is the opponent's move; Refusal.Who may act.
	NotYourTurn RefusalKind = 3
	// Stale: the game changed since the asker saw it; Refusal.Revision is
	// the current revision and Refusal.Last what changed it.
	Stale RefusalKind = 4
	// GameOver: the game has ended; Refusal.Outcome says how.
	GameOver RefusalKind = 5
	// IllegalMove: the move is not legal here; the wrapped error is a
	// *game.MoveError and Refusal.Suggestions holds legal moves.
	IllegalMove RefusalKind = 6
	// NotAMove: the text is no move in any notation; the wrapped error is
	// a *game.SyntaxError.
	NotAMove RefusalKind = 7
	// TimeUp: the deadline has passed; the side to move has lost on time
	// (TimeOut records it) and no act may change the game any more.
	TimeUp RefusalKind = 8

	// SelfChallenge: a user challenged themself (or accepted their own
	// challenge, or was seated on both sides of a game).
	SelfChallenge RefusalKind = 10
	// NoChallenge: the challenge was answered, withdrawn or expired.
	NoChallenge RefusalKind = 11
	// NotYourChallenge: someone other than the challenged user answered,
	// or someone other than the challenger withdrew; Refusal.Who may.
	NotYourChallenge RefusalKind = 12
	// ChallengeExpired: the challenge's time ran out.
	ChallengeExpired RefusalKind = 13
	// BadTimeControl: days per move outside AllowedDays.
	BadTimeControl RefusalKind = 14
	// BadColor: a colour other than white, black or random.
	BadColor RefusalKind = 15
	// ChannelBusy: a game already goes on in the channel.
	ChannelBusy RefusalKind = 16
	// AlreadyChallenged: the same challenge is already waiting.
	AlreadyChallenged RefusalKind = 17
	// BadPosition: the start position is unusable: its FEN does not read
	// (Refusal.Err is the *game.FENError) or the game would be over
	// already (Refusal.Outcome says how).
	BadPosition RefusalKind = 18

	// NoOffer: there is no draw offer (or takeback request) to answer.
	NoOffer RefusalKind = 20
	// OwnOffer: a player tried to accept or decline their own offer.
	OwnOffer RefusalKind = 21
	// OfferPending: the asker's offer already waits for an answer.
	OfferPending RefusalKind = 22
	// OfferRepeated: the asker already offered a draw in this position.
	OfferRepeated RefusalKind = 23
	// NotYourOffer: only the player who made the offer can withdraw it.
	NotYourOffer RefusalKind = 24
	// NothingToTakeBack: the asker has no move to take back.
	NothingToTakeBack RefusalKind = 25
	// RatedTakeback: rated games allow no takebacks.
	RatedTakeback RefusalKind = 26
	// TooLateToAbort: both sides have moved; resign or offer a draw.
	TooLateToAbort RefusalKind = 27
	// NotYetDue: the deadline has not passed (a timeout asked too early).
	NotYetDue RefusalKind = 28
)

var refusalNames = map[RefusalKind]string{
	NoGame: "no such game", NotAPlayer: "not a player", NotYourTurn: "not your turn",
	Stale: "stale", GameOver: "game over", IllegalMove: "illegal move",
	NotAMove: "not a move", TimeUp: "time up", SelfChallenge: "self-challenge",
	NoChallenge: "no such challenge", NotYourChallenge: "not your challenge",
	ChallengeExpired: "challenge expired", BadTimeControl: "bad time control",
	BadColor: "bad colour", ChannelBusy: "channel busy", AlreadyChallenged: "already challenged",
	BadPosition: "bad position", NoOffer: "no offer", OwnOffer: "own offer",
	OfferPending: "offer pending", OfferRepeated: "offer repeated", NotYourOffer: "not your offer",
	NothingToTakeBack: "nothing to take back", RatedTakeback: "takeback in a rated game",
	TooLateToAbort: "too late to abort", NotYetDue: "not yet due",
}

// String returns a short stable name, e.g. "not your turn".
func (k RefusalKind) String() string {
	if s, ok := refusalNames[k]; ok {
		return s
	}
	return fmt.Sprintf("RefusalKind(%d)", uint8(k))
}

// Refusal is an act that was refused and changed nothing. Kind says why;
// the other fields carry what a message in any language needs. Error
// gives the English sentence, for logs and the default rendering.
type Refusal struct {
	Kind RefusalKind
	Game uint64 // the game or challenge concerned, 0 if none

	Who      Seat         // who may act instead (NotYourTurn, NotYourChallenge)
	Turn     game.Color   // the side to move (NotYourTurn)
	Revision int          // the current revision (Stale)
	Last     Event        // what last changed the game (Stale)
	Outcome  game.Outcome // how the game ended (GameOver, BadPosition)
	Deadline time.Time    // the deadline that passed (TimeUp) or is ahead (NotYetDue)
	Allowed  []int        // the allowed days per move (BadTimeControl)
	Days     int          // the refused days per move (BadTimeControl)

	// Suggestions are legal moves in SAN close to an illegal one.
	Suggestions []string
	// Err is the underlying *game.MoveError or *game.SyntaxError.
	Err error
}

func (r *Refusal) Unwrap() error { return r.Err }

func (r *Refusal) Error() string {
	switch r.Kind {
	case NoGame:
		return "there is no such game going on"
	case NotAPlayer:
		return "you do not play in this game"
	case NotYourTurn:
		return fmt.Sprintf("it is not your move: %s (%s) is to move", name(r.Who), r.Turn)
	case Stale:
		return fmt.Sprintf("the game changed since you looked (%s); look at the latest board", r.Last)
	case GameOver:
		return "the game is over: " + describe(r.Outcome)
	case IllegalMove, NotAMove:
		if r.Err != nil {
			return r.Err.Error()
		}
	case BadPosition:
		if r.Err != nil {
			return r.Err.Error()
		}
		if r.Outcome.Over() {
			return "the start position is the end of a game already: " + describe(r.Outcome)
		}
	case TimeUp:
		return "the time to move ran out at " + r.Deadline.UTC().Format(time.RFC3339)
	case NotYetDue:
		return "the deadline has not passed yet: " + r.Deadline.UTC().Format(time.RFC3339)
	case NotYourChallenge:
		return "this is not your challenge"
	case BadTimeControl:
		return fmt.Sprintf("%d days per move is not offered: choose one of %v, or no limit", r.Days, r.Allowed)
	}
	return r.Kind.String()
}

func name(s Seat) string {
	if s.Name != "" {
		return s.Name
	}
	return s.ID
}

// describe says how a game ended in English, e.g. "1-0, checkmate".
func describe(o game.Outcome) string {
	if o.Result == game.NoResult {
		return o.Reason.String()
	}
	return o.Result.String() + ", " + o.Reason.String()
}

func refuse(k RefusalKind, g *Game) *Refusal {
	r := &Refusal{Kind: k}
	if g != nil {
		r.Game = g.ID
	}
	return r
}
