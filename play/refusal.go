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
	// TimeUp: the deadline (Refusal.Deadline) has passed; the side to
	// move has lost on time (TimeOut records it) and no act may change
	// the game any more. Where the opponent chooses, a move stays refused
	// while Refusal.Who chooses between the win and a draw.
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
	// NotYetDue: the deadline has not passed (a timeout asked too early),
	// or no reminder is due.
	NotYetDue RefusalKind = 28
	// NoClaim: no timeout waits for the asker's choice (ClaimWin,
	// ClaimDraw).
	NoClaim RefusalKind = 29

	// YourTurn: conditional moves are queued by the player who has just
	// moved; the asker is to move.
	YourTurn RefusalKind = 30
	// PremoveConflict: line Refusal.Line answers an opponent's move with
	// another reply than an earlier line.
	PremoveConflict RefusalKind = 31
	// TooManyPremoves: more than MaxPremoveLines lines, or line
	// Refusal.Line is longer than MaxPremovePlies.
	TooManyPremoves RefusalKind = 32
	// NoReply: line Refusal.Line ends with an opponent's move and no
	// reply to it.
	NoReply RefusalKind = 33

	// NoVacationLeft: the yearly allowance has only Refusal.Left days
	// left, fewer than the Refusal.Days asked.
	NoVacationLeft RefusalKind = 34
	// NotOnVacation: the asker came back from a vacation they are not on.
	NotOnVacation RefusalKind = 35
	// BadSettings: a setting out of range (a language, a way to notify,
	// reminder hours).
	BadSettings RefusalKind = 36

	// TooManyChallenges: the challenger has Refusal.Most challenges
	// waiting in the server already; the first expires at Refusal.Until.
	TooManyChallenges RefusalKind = 37
	// TooManyEngineGames: the player has Refusal.Most games against the
	// engine going on in the server already.
	TooManyEngineGames RefusalKind = 38
	// TooManyPosts: the user made Refusal.Most public posts in the last
	// PostWindow; they may post again at Refusal.Until.
	TooManyPosts RefusalKind = 39
	// ChallengedLately: a challenge of the asker to Refusal.Who came to
	// nothing a short while ago; they may challenge again at
	// Refusal.Until.
	ChallengedLately RefusalKind = 40
	// TournamentGame: a tournament's game cannot be aborted; a player who
	// never moves loses on time.
	TournamentGame RefusalKind = 41
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
	TooLateToAbort: "too late to abort", NotYetDue: "not yet due", NoClaim: "no claim",
	YourTurn: "your turn", PremoveConflict: "premove conflict", TooManyPremoves: "too many premoves",
	NoReply: "no reply", NoVacationLeft: "no vacation left", NotOnVacation: "not on vacation",
	BadSettings: "bad settings", TooManyChallenges: "too many challenges", TooManyEngineGames: "too many engine games",
	TooManyPosts: "too many posts", ChallengedLately: "challenged lately", TournamentGame: "tournament game",
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
	Days     int          // the refused days per move (BadTimeControl) or of vacation (NoVacationLeft)
	Left     int          // the vacation days left this year (NoVacationLeft)
	Line     int          // the line of conditional moves concerned, from 1 (Premove)
	Most     int          // the cap reached (TooManyChallenges, TooManyEngineGames, TooManyPosts)
	Until    time.Time    // when the asker may try again (TooManyChallenges, TooManyPosts, ChallengedLately)

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
		if r.Err != nil && r.Line > 0 {
			return fmt.Sprintf("line %d: %v", r.Line, r.Err)
		}
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
		if r.Who.ID != "" {
			return fmt.Sprintf("the time to move ran out at %s: %s chooses between the win and a draw", r.Deadline.UTC().Format(time.RFC3339), name(r.Who))
		}
		return "the time to move ran out at " + r.Deadline.UTC().Format(time.RFC3339)
	case PremoveConflict:
		return fmt.Sprintf("line %d answers a move with another reply than an earlier line", r.Line)
	case TooManyPremoves:
		return fmt.Sprintf("too many conditional moves: at most %d lines of %d moves", MaxPremoveLines, MaxPremovePlies)
	case NoReply:
		return fmt.Sprintf("line %d ends with the opponent's move: add your reply", r.Line)
	case NoVacationLeft:
		return fmt.Sprintf("only %d vacation days are left this year, not %d", r.Left, r.Days)
	case NotYetDue:
		return "the deadline has not passed yet: " + r.Deadline.UTC().Format(time.RFC3339)
	case NotYourChallenge:
		return "this is not your challenge"
	case TooManyChallenges:
		return fmt.Sprintf("at most %d challenges may wait at once; the first expires at %s", r.Most, r.Until.UTC().Format(time.RFC3339))
	case TooManyEngineGames:
		return fmt.Sprintf("at most %d games against the engine at once", r.Most)
	case TooManyPosts:
		return fmt.Sprintf("at most %d public posts a minute; try again at %s", r.Most, r.Until.UTC().Format(time.RFC3339))
	case ChallengedLately:
		return fmt.Sprintf("you challenged %s a short while ago; try again at %s", name(r.Who), r.Until.UTC().Format(time.RFC3339))
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
