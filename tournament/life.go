package tournament

import (
	"errors"
	"fmt"
	"sort"
	"time"

	"github.com/iceagechess/iceage/play"
	"github.com/iceagechess/iceage/play/round"
)

// System is how a tournament is paired. The values are stored.
type System int8

const (
	Swiss System = iota + 1
	RoundRobin
)

// Status is where a tournament is in its life. The values are stored.
type Status int8

const (
	SigningUp Status = iota // the zero value: a new tournament takes sign-ups
	Running
	Finished
)

// Member is one player of a tournament: an opaque id (as play's players
// are), the name shown, the rating at sign-up, and whether they left.
type Member struct {
	ID        string
	Name      string
	Rating    int
	JoinedAt  int // the first round they are paired in (1-based)
	Withdrawn bool
}

// Board is one game of a round, by index into Tournament.Members.
type Board struct {
	White, Black int
	GameID       uint64 // the play game, once started
	Outcome      Outcome
}

// TRound is one round: its boards, the bye (-1 for none), when it
// started and when it closes (zero: when its games end).
type TRound struct {
	Boards  []Board
	Bye     int
	Started time.Time
	Closes  time.Time
	// ByeTold is how the player with the bye is told of it, as the
	// pairing's transaction decided from their settings (round.Decide);
	// nil in a round paired before it was kept: a mention.
	ByeTold *round.Tell `json:",omitempty"`
}

// Adjudication is what the organiser chose for games still going on when
// a round closes. The values are stored.
type Adjudication int8

const (
	// AdjudicateDraw scores an unfinished game as a draw.
	AdjudicateDraw Adjudication = iota
	// AdjudicateLossToMove scores it as lost by the player to move, who
	// held the round up.
	AdjudicateLossToMove
)

// Tournament is one event from sign-up to the end. It does no I/O and
// reads no clock: the caller passes the time and keeps the record.
type Tournament struct {
	ID          uint64
	Guild       string
	Channel     string // where it was created: its posts, its games' threads
	Post        string // the sign-up post, updated as players join
	Name        string
	Organiser   string
	System      System
	Rounds      int // Swiss: the rounds; round-robin: computed at start
	Cycles      int // round-robin: 1 or 2
	DaysPerMove int
	// Time is the games' live time control (the zero one: DaysPerMove).
	Time play.TimeControl `json:",omitzero"`
	// RoundDays closes a round that many days after it starts (0: a round
	// lasts until its games end); Adjudicate says how its unfinished
	// games are scored then.
	RoundDays  int
	Adjudicate Adjudication
	Rated      bool
	StartAt    time.Time // zero: the organiser starts it
	Status     Status
	Members    []Member
	Played     []TRound
	Revision   int
	// Ended is when the last round ended and the tournament finished.
	Ended time.Time `json:",omitzero"`
	// TopColor is the colour drawn by lot for the top seed in round 1
	// (C.04.3 5.1); NoColor until the start draws it.
	TopColor Color `json:",omitempty"`
	// ByeScore is what a Swiss's pairing-allocated bye scores, as the
	// organiser chose (the zero value: a win's point).
	ByeScore ByeScore `json:",omitempty"`
	// MaxPlayers is how many players may be signed up at once (those
	// withdrawn do not count); 0 means DefaultMaxPlayers. Pairing a
	// Swiss grows fast with its players.
	MaxPlayers int `json:",omitempty"`
}

// ByeScore is what the organiser gives a Swiss's pairing-allocated bye.
// The values are stored.
type ByeScore int8

const (
	ByeFullPoint ByeScore = iota // the default, as a win (C.04.1)
	ByeHalfPoint
	ByeNoPoint
)

// Outcome is the bye's outcome in the field.
func (b ByeScore) Outcome() Outcome {
	switch b {
	case ByeHalfPoint:
		return HalfPointBye
	case ByeNoPoint:
		return ZeroPointBye
	}
	return Bye
}

// DefaultMaxPlayers is a tournament's MaxPlayers when it sets none.
const DefaultMaxPlayers = 256

// MostPlayers is how many players the tournament takes at once.
func (t *Tournament) MostPlayers() int {
	if t.MaxPlayers <= 0 {
		return DefaultMaxPlayers
	}
	return t.MaxPlayers
}

// Full reports whether the tournament has as many players as it takes.
func (t *Tournament) Full() bool {
	most := t.MostPlayers()
	n := 0
	for _, m := range t.Members {
		if !m.Withdrawn {
			n++
		}
	}
	return n >= most
}

// Refusals of the tournament's life, for front ends to word.
var (
	ErrNotSigningUp   = errors.New("the tournament is no longer taking sign-ups")
	ErrAlreadyJoined  = errors.New("already signed up")
	ErrFull           = errors.New("the tournament has as many players as it takes")
	ErrNotMember      = errors.New("not a player of this tournament")
	ErrNotOrganiser   = errors.New("only the organiser may do this")
	ErrTooFewPlayers  = errors.New("a tournament needs at least 3 players")
	ErrRoundUnderway  = errors.New("the current round is not over")
	ErrNotRunning     = errors.New("the tournament is not running")
	ErrNoSuchBoard    = errors.New("no such game in this round")
	ErrAlreadyDecided = errors.New("that game already has its result")
	// ErrNotYet: a start or a round's close asked for before its time.
	ErrNotYet = errors.New("not yet: its time has not come")
)

// Join signs a player up; on a Swiss that runs already they join from
// the next round with a zero-point bye for each round missed.
func (t *Tournament) Join(m Member) error {
	switch {
	case t.Status == Finished || (t.Status == Running && t.System == RoundRobin):
		return ErrNotSigningUp
	case t.member(m.ID) >= 0:
		return ErrAlreadyJoined
	case t.Full():
		return ErrFull
	}
	m.JoinedAt = len(t.Played) + 1
	m.Withdrawn = false
	t.Members = append(t.Members, m)
	t.Revision++
	return nil
}

func (t *Tournament) member(id string) int {
	for i, m := range t.Members {
		if m.ID == id {
			return i
		}
	}
	return -1
}

// Withdraw takes a player out: before the start they leave the list;
// once running they are not paired again and keep their results (a
// round-robin counts their remaining games as lost by forfeit).
func (t *Tournament) Withdraw(id string) error {
	i := t.member(id)
	if i < 0 || t.Members[i].Withdrawn {
		return ErrNotMember
	}
	if t.Status == SigningUp {
		t.Members = append(t.Members[:i], t.Members[i+1:]...)
	} else {
		t.Members[i].Withdrawn = true
	}
	t.Revision++
	return nil
}

// Start closes the sign-up, orders the players by rating (their pairing
// numbers) and pairs round 1. by must be the organiser, or "" for a start
// at StartAt. The top seed's colour in round 1 is TopColor, which the
// caller draws by lot beforehand; a tournament started without a draw
// gives them White.
func (t *Tournament) Start(by string, now time.Time) (*TRound, error) {
	if t.Status != SigningUp {
		return nil, ErrNotSigningUp
	}
	if by != "" && by != t.Organiser {
		return nil, ErrNotOrganiser
	}
	if by == "" && (t.StartAt.IsZero() || now.Before(t.StartAt)) {
		return nil, fmt.Errorf("%w: the tournament starts at %v", ErrNotYet, t.StartAt)
	}
	if len(t.Members) < 3 {
		return nil, ErrTooFewPlayers
	}
	sort.SliceStable(t.Members, func(a, b int) bool { return t.Members[a].Rating > t.Members[b].Rating })
	if t.System == RoundRobin {
		if t.Cycles != 2 {
			t.Cycles = 1
		}
		t.Rounds = BergerRounds(len(t.Members), t.Cycles)
	}
	if t.Rounds < 1 {
		return nil, fmt.Errorf("a Swiss needs a number of rounds, not %d", t.Rounds)
	}
	if t.TopColor != Black {
		t.TopColor = White
	}
	t.Status = Running
	t.Revision++
	return t.pairNext(now)
}

// RoundOver tells whether every game of the current round has a result.
func (t *Tournament) RoundOver() bool {
	if len(t.Played) == 0 {
		return false
	}
	for _, b := range t.Played[len(t.Played)-1].Boards {
		if b.Outcome == Pending {
			return false
		}
	}
	return true
}

// Record sets the result of a board of the current round, from White's
// side. A result already set is refused, so that a game's end recorded
// twice counts once.
func (t *Tournament) Record(board int, white Outcome) error {
	if t.Status != Running || len(t.Played) == 0 {
		return ErrNotRunning
	}
	r := &t.Played[len(t.Played)-1]
	if board < 0 || board >= len(r.Boards) {
		return ErrNoSuchBoard
	}
	if r.Boards[board].Outcome != Pending {
		return ErrAlreadyDecided
	}
	switch white {
	case Win, Draw, Loss, ForfeitWin, ForfeitLoss:
	default:
		return fmt.Errorf("%v is not a game's result", white)
	}
	r.Boards[board].Outcome = white
	t.Revision++
	return nil
}

// Close scores the current round's unfinished games as the organiser
// chose, once its closing time has come; whiteToMove tells, for a board,
// whether White is to move in its game. It returns the boards it scored.
func (t *Tournament) Close(now time.Time, whiteToMove func(board int) bool) ([]int, error) {
	if t.Status != Running || len(t.Played) == 0 {
		return nil, ErrNotRunning
	}
	r := &t.Played[len(t.Played)-1]
	if r.Closes.IsZero() || now.Before(r.Closes) {
		return nil, fmt.Errorf("%w: the round closes at %v", ErrNotYet, r.Closes)
	}
	var scored []int
	for i := range r.Boards {
		if r.Boards[i].Outcome != Pending {
			continue
		}
		out := Draw
		if t.Adjudicate == AdjudicateLossToMove {
			out = Win
			if whiteToMove(i) {
				out = Loss
			}
		}
		r.Boards[i].Outcome = out
		scored = append(scored, i)
	}
	if len(scored) > 0 {
		t.Revision++
	}
	return scored, nil
}

// Next pairs the next round once the current one is over, or finishes
// the tournament after its last round (the result is then nil).
func (t *Tournament) Next(now time.Time) (*TRound, error) {
	if t.Status != Running {
		return nil, ErrNotRunning
	}
	if !t.RoundOver() {
		return nil, ErrRoundUnderway
	}
	if len(t.Played) >= t.Rounds {
		t.Status = Finished
		t.Ended = now
		t.Revision++
		return nil, nil
	}
	t.Revision++
	return t.pairNext(now)
}

func (t *Tournament) pairNext(now time.Time) (*TRound, error) {
	r := TRound{Bye: -1, Started: now}
	if t.RoundDays > 0 {
		r.Closes = now.Add(time.Duration(t.RoundDays) * 24 * time.Hour)
	}
	if t.System == RoundRobin {
		pairs, bye, err := BergerRound(len(t.Members), t.Cycles, len(t.Played)+1)
		if err != nil {
			return nil, err
		}
		for _, p := range pairs {
			b := Board{White: p.White, Black: p.Black}
			// A withdrawn player's games are lost by forfeit.
			switch {
			case t.Members[p.White].Withdrawn && t.Members[p.Black].Withdrawn:
				b.Outcome = DoubleForfeit
			case t.Members[p.White].Withdrawn:
				b.Outcome = ForfeitLoss
			case t.Members[p.Black].Withdrawn:
				b.Outcome = ForfeitWin
			}
			r.Boards = append(r.Boards, b)
		}
		r.Bye = bye
	} else {
		p, err := PairDutch(t.Field())
		if err != nil {
			return nil, err
		}
		for _, pr := range p.Pairs {
			r.Boards = append(r.Boards, Board{White: pr.White, Black: pr.Black})
		}
		r.Bye = p.Bye
	}
	t.Played = append(t.Played, r)
	return &t.Played[len(t.Played)-1], nil
}

// Field is the tournament as pairing, standings and TRF see it.
func (t *Tournament) Field() *Field {
	f := &Field{Rounds: t.Rounds, InitialColor: t.TopColor, ByeOutcome: t.ByeScore.Outcome()}
	if f.InitialColor != Black {
		f.InitialColor = White
	}
	for _, m := range t.Members {
		f.Players = append(f.Players, Entrant{Name: m.Name, Rating: m.Rating, Out: m.Withdrawn})
	}
	for _, r := range t.Played {
		for i := range f.Players {
			f.Players[i].Games = append(f.Players[i].Games, Game{Opponent: -1, Outcome: ZeroBye})
		}
		k := len(f.Players[0].Games) - 1
		for _, b := range r.Boards {
			wo := b.Outcome
			bo := map[Outcome]Outcome{Win: Loss, Loss: Win, Draw: Draw, ForfeitWin: ForfeitLoss, ForfeitLoss: ForfeitWin, Pending: Pending}[wo]
			if wo == DoubleForfeit {
				wo, bo = ForfeitLoss, ForfeitLoss
			}
			wc, bc := White, Black
			if !wo.Played() {
				wc, bc = NoColor, NoColor
			}
			f.Players[b.White].Games[k] = Game{Opponent: b.Black, Color: wc, Outcome: wo}
			f.Players[b.Black].Games[k] = Game{Opponent: b.White, Color: bc, Outcome: bo}
		}
		if r.Bye >= 0 {
			out := f.ByeOutcome
			if t.System == RoundRobin {
				out = ZeroBye // the round off of an odd round-robin scores nothing
			}
			f.Players[r.Bye].Games[k] = Game{Opponent: -1, Outcome: out}
		}
	}
	return f
}

// Completed is the field of the rounds over: a round still under way is
// left out, so that a pairing program given it pairs that round again.
func (t *Tournament) Completed() *Field {
	f := t.Field()
	done := len(t.Played)
	if done > 0 && !t.RoundOver() {
		done--
	}
	for i := range f.Players {
		f.Players[i].Games = f.Players[i].Games[:done]
	}
	return f
}

// Tiebreaks are the tie-breaks of the tournament's system, in order.
func (t *Tournament) Tiebreaks() []Tiebreak {
	if t.System == RoundRobin {
		return RoundRobinTiebreaks
	}
	return SwissTiebreaks
}

// Seeding is the players in the order of their pairing numbers: once
// started, the order of Members; before, the order the start will give
// them (by rating, the earlier sign-up first among equals).
func (t *Tournament) Seeding() []int {
	order := make([]int, len(t.Members))
	for i := range order {
		order[i] = i
	}
	if t.Status == SigningUp {
		sort.SliceStable(order, func(a, b int) bool { return t.Members[order[a]].Rating > t.Members[order[b]].Rating })
	}
	return order
}

// Standings ranks the players with the tie-breaks of the tournament's
// system. Before the first round there is no ranking: every player has
// Rank 0, in seeding order. During a round, the scores count the games
// over; the tie-breaks are those of the rounds over, so that a player
// who lost in the round under way is not ranked above one of the same
// score still playing for their tie-breaks' sake; those still playing
// are marked.
func (t *Tournament) Standings() []Standing {
	if len(t.Played) == 0 {
		var st []Standing
		for _, i := range t.Seeding() {
			st = append(st, Standing{Player: i})
		}
		return st
	}
	order := t.Tiebreaks()
	f := t.Field()
	if t.RoundOver() {
		return Standings(f, order)
	}
	st := Standings(t.Completed(), order)
	k := len(t.Played) - 1
	for i := range st {
		e := &f.Players[st[i].Player]
		st[i].Score = e.Score()
		st[i].Playing = e.Games[k].Outcome == Pending
	}
	rank(st, order)
	return st
}
