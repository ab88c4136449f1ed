package play

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/iceagechess/iceage/game"
)

// TimeControl is a live game's clock: Limit for each side and Increment
// added after each of its moves, as "5+3" writes it (five minutes, three
// seconds). The zero TimeControl is correspondence: days per move
// (Game.DaysPerMove), no clock.
type TimeControl struct {
	Limit     time.Duration `json:"limit"`
	Increment time.Duration `json:"inc,omitempty"`
}

// The range of live time controls: 1+0 to 180+180, whole minutes and
// whole seconds.
const (
	MinLimit     = time.Minute
	MaxLimit     = 180 * time.Minute
	MaxIncrement = 180 * time.Second
)

// OfferedTimes are the usual live time controls, offered first wherever
// one is chosen: /challenge's autocomplete, the Activity's lobby.
var OfferedTimes = []string{"1+0", "3+2", "5+3", "10+5", "15+10"}

// FirstMoveTime is how long White has for the first move of a live game
// before it is aborted, unrated: the clocks run from that move on.
const FirstMoveTime = 60 * time.Second

// Live reports whether tc is a live time control (a clock), not
// correspondence.
func (tc TimeControl) Live() bool { return tc.Limit > 0 }

// String writes tc as "5+3"; "" for correspondence.
func (tc TimeControl) String() string {
	if !tc.Live() {
		return ""
	}
	return strconv.Itoa(int(tc.Limit/time.Minute)) + "+" + strconv.Itoa(int(tc.Increment/time.Second))
}

// Valid reports whether tc is correspondence or a live time control in
// range, in whole minutes and seconds.
func (tc TimeControl) Valid() bool {
	if tc == (TimeControl{}) {
		return true
	}
	return tc.Limit >= MinLimit && tc.Limit <= MaxLimit && tc.Limit%time.Minute == 0 &&
		tc.Increment >= 0 && tc.Increment <= MaxIncrement && tc.Increment%time.Second == 0
}

// Estimate is the time a game of 40 moves a side takes each player:
// Limit + 40 × Increment, by which speeds are told apart (Lichess's
// classes).
func (tc TimeControl) Estimate() time.Duration { return tc.Limit + 40*tc.Increment }

// Speed is a class of time controls; each has its own ratings. The
// numbers are stable: they are stored.
type Speed uint8

const (
	Correspondence Speed = 0
	Bullet         Speed = 1 // Estimate under 3 minutes
	Blitz          Speed = 2 // under 8
	Rapid          Speed = 3 // under 25
	Classical      Speed = 4
)

// Speeds lists the speeds, correspondence first.
var Speeds = []Speed{Correspondence, Bullet, Blitz, Rapid, Classical}

// Speed returns tc's class.
func (tc TimeControl) Speed() Speed {
	switch e := tc.Estimate(); {
	case !tc.Live():
		return Correspondence
	case e < 3*time.Minute:
		return Bullet
	case e < 8*time.Minute:
		return Blitz
	case e < 25*time.Minute:
		return Rapid
	}
	return Classical
}

var speedNames = [...]string{Correspondence: "correspondence", Bullet: "bullet", Blitz: "blitz", Rapid: "rapid", Classical: "classical"}

// String names the speed in English, in lower case: "blitz".
func (s Speed) String() string {
	if int(s) < len(speedNames) {
		return speedNames[s]
	}
	return "speed " + strconv.Itoa(int(s))
}

// ParseSpeed reads a speed's English name.
func ParseSpeed(s string) (Speed, bool) {
	for i, n := range speedNames {
		if strings.EqualFold(strings.TrimSpace(s), n) {
			return Speed(i), true
		}
	}
	return 0, false
}

// TimeControlError is why a time control does not read.
type TimeControlError struct {
	Text string
	Kind TimeControlProblem
}

// TimeControlProblem is what is wrong with a time control as typed.
type TimeControlProblem uint8

const (
	// TimeNotReadable: not minutes+seconds, as in "5+3".
	TimeNotReadable TimeControlProblem = iota + 1
	// TimeLimitRange: the minutes are not 1 to 180.
	TimeLimitRange
	// TimeIncrementRange: the seconds are not 0 to 180.
	TimeIncrementRange
)

func (e *TimeControlError) Error() string {
	switch e.Kind {
	case TimeLimitRange:
		return fmt.Sprintf("time control %q: the minutes must be 1 to 180", e.Text)
	case TimeIncrementRange:
		return fmt.Sprintf("time control %q: the seconds added must be 0 to 180", e.Text)
	}
	return fmt.Sprintf("time control %q: write minutes+seconds, as in 5+3", e.Text)
}

// ParseTimeControl reads a live time control as players write it:
// minutes, then the seconds added per move after a "+" (or "|"), as in
// "5+3", "10 + 5" or "3|2"; minutes alone ("10") add nothing. Errors are
// *TimeControlError.
func ParseTimeControl(s string) (TimeControl, error) {
	text := strings.TrimSpace(s)
	bad := func(k TimeControlProblem) (TimeControl, error) {
		return TimeControl{}, &TimeControlError{Text: text, Kind: k}
	}
	mins, secs, found := strings.Cut(text, "+")
	if !found {
		mins, secs, found = strings.Cut(text, "|")
	}
	mins, secs = strings.TrimSpace(mins), strings.TrimSpace(secs)
	if !found {
		secs = "0"
	}
	m, ok1 := smallNumber(mins)
	sec, ok2 := smallNumber(secs)
	switch {
	case !ok1 || !ok2:
		return bad(TimeNotReadable)
	case m < 1 || m > int(MaxLimit/time.Minute):
		return bad(TimeLimitRange)
	case sec > int(MaxIncrement/time.Second):
		return bad(TimeIncrementRange)
	}
	return TimeControl{Limit: time.Duration(m) * time.Minute, Increment: time.Duration(sec) * time.Second}, nil
}

// smallNumber reads up to four ASCII digits.
func smallNumber(s string) (int, bool) {
	if s == "" || len(s) > 4 {
		return 0, false
	}
	n := 0
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return 0, false
		}
		n = n*10 + int(s[i]-'0')
	}
	return n, true
}

// Clock is the state of a live game's clocks. Time is measured by the
// acts: a player's turn begins when the act that gave it to them is
// decided (Since), and a move is charged from then to when its act
// arrives, less the compensation for its lag.
type Clock struct {
	TimeControl
	// Left is each side's time as its turn begins: for the side to move,
	// at Since; for the other, after its last move and increment.
	Left [2]time.Duration `json:"left"`
	// Since is when the turn of the side to move began; zero before the
	// first move of a game that is not a tournament's, when no clock
	// runs yet (the first move has FirstMoveTime, or the game is
	// aborted).
	Since time.Time `json:"since,omitzero"`
	// Lag is each player's lag compensation (see Lag).
	Lag [2]Lag `json:"lag"`
}

// Lag is a player's lag compensation, as Lichess gives it: a move is
// credited the time its act spent on the way (Act.Sent to Act.At), up
// to MaxLagComp and up to a Quota that each move refills by a little
// (lagGain) and each compensation uses up, so that a player cannot slow
// their connection to win time. Estimate is a decaying mean of the
// player's lag, from which the flag's grace is set (Clock.Grace).
type Lag struct {
	Quota    time.Duration `json:"quota"`
	Estimate time.Duration `json:"est"`
}

// MaxLagComp is the most a move is compensated for lag.
const MaxLagComp = time.Second

// defaultLagEstimate is a player's lag until one is measured: a Discord
// interaction's usual way to the bot.
const defaultLagEstimate = 250 * time.Millisecond

// lagGain is how much lag compensation each move earns: a fifth of a
// second for the fastest games, rising to a second from three minutes
// of estimated time up.
func lagGain(tc TimeControl) time.Duration {
	return min(max(tc.Estimate()/180, 200*time.Millisecond), time.Second).Truncate(time.Millisecond)
}

// NewClock returns the clocks of a game of tc started at at; running
// tells whether White's clock runs from the start (a tournament's game,
// which cannot be aborted) or only from White's first move.
func NewClock(tc TimeControl, at time.Time, running bool) *Clock {
	g := lagGain(tc)
	lag := Lag{Quota: 2 * g, Estimate: defaultLagEstimate}
	k := &Clock{TimeControl: tc, Left: [2]time.Duration{tc.Limit, tc.Limit}, Lag: [2]Lag{lag, lag}}
	if running {
		k.Since = at
	}
	return k
}

func (k *Clock) clone() *Clock {
	if k == nil {
		return nil
	}
	c := *k
	return &c
}

// Running reports whether the side to move's clock runs.
func (k *Clock) Running() bool { return !k.Since.IsZero() }

// Grace is how long after side c's time is out a move of theirs may
// still arrive, its lag compensating the rest: twice their lag
// estimate, within their quota and MaxLagComp. The flag falls, for the
// scheduler and for every act, at FlagAt + Grace (Game.Deadline).
func (k *Clock) Grace(c game.Color) time.Duration {
	l := k.Lag[c]
	return max(min(2*l.Estimate, l.Quota, MaxLagComp), 0)
}

// FlagAt is when side c, to move, runs out of time by its clock.
func (k *Clock) FlagAt(c game.Color) time.Time { return k.Since.Add(k.Left[c]) }

// LeftAt is side c's time at now, turn being the side to move: its
// clock runs only on its turn. Never below zero.
func (k *Clock) LeftAt(c, turn game.Color, now time.Time) time.Duration {
	left := k.Left[c]
	if c == turn && k.Running() && now.After(k.Since) {
		left -= now.Sub(k.Since)
	}
	return max(left, 0)
}

// deadline is when side c, to move at at, loses its turn: the end of
// the first move's minute before the clocks run, else its flag and
// grace.
func (k *Clock) deadline(c game.Color, at time.Time) time.Time {
	if !k.Running() {
		return at.Add(FirstMoveTime)
	}
	return k.FlagAt(c).Add(k.Grace(c))
}

// moved charges side c for a move whose act arrived at at, sent at sent
// (zero: unknown), before the deadline, and starts the opponent's turn.
// The lag compensated is the act's way (at less sent) — at least the
// time past the flag, which the grace allows — within the quota and
// MaxLagComp; the increment is added after the move. Before the clocks
// run, the move costs nothing and earns nothing.
func (k *Clock) moved(c game.Color, at, sent time.Time) {
	if !k.Running() {
		k.Since = at
		return
	}
	lag := time.Duration(0)
	if !sent.IsZero() && sent.Before(at) {
		lag = at.Sub(sent)
	}
	l := &k.Lag[c]
	measured := min(lag, 2*MaxLagComp)
	if over := at.Sub(k.FlagAt(c)); over >= 0 {
		lag = max(lag, over+time.Millisecond)
	}
	comp := min(lag, l.Quota, MaxLagComp)
	spent := max(at.Sub(k.Since)-comp, 0)
	k.Left[c] = max(k.Left[c]-spent, 0) + k.Increment
	l.Quota = min(l.Quota+lagGain(k.TimeControl)-comp, 5*lagGain(k.TimeControl))
	if !sent.IsZero() {
		l.Estimate = (l.Estimate + (measured-l.Estimate)/4).Truncate(time.Millisecond)
	}
	k.Since = at
}
