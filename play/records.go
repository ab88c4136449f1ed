package play

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"sync/atomic"
	"time"

	"github.com/iceagechess/iceage/game"
)

// Seat is one player of a game: an opaque user id and the display name
// the user had when the game began (names change; the record keeps
// history).
type Seat struct {
	ID   string `json:"id"`
	Name string `json:"name,omitempty"`
}

// Move is one move of a game: its UCI text, when it was played, its SAN
// and the revision of the act that played it. It is written in JSON as
// an array, ["e2d3", 1764468000123, "Bd3", 7] (Unix milliseconds),
// because a long correspondence game holds hundreds of them and the
// archive holds hundreds of thousands of games.
//
// SAN is what the act that played the move computed, and what reading
// the binary record, which replays the moves, computes again; it is not
// stored, and "" where it is not known (a record of version 3 and
// before, moves that do not replay, a move made by hand): Game.SANs
// replays the game then.
//
// Rev is the game's revision that the move's act committed: one a move,
// the same for a move and the conditional move that answered it, so
// that the record says which revisions were moves (a stream resuming
// from it, see play/stream). 0 where it is not known (a move of a
// record of version 5 and before, or made by hand).
type Move struct {
	UCI string
	At  time.Time
	SAN string
	Rev int
}

// MarshalJSON encodes the move as [uci, unix milliseconds, san, rev],
// without the revision when it is not known, and without the SAN too
// when neither is.
func (m Move) MarshalJSON() ([]byte, error) {
	if !plainUCI(m.UCI) || !plainSAN(m.SAN) {
		switch {
		case m.Rev != 0:
			return json.Marshal([4]any{m.UCI, m.At.UnixMilli(), m.SAN, m.Rev})
		case m.SAN == "":
			return json.Marshal([2]any{m.UCI, m.At.UnixMilli()})
		}
		return json.Marshal([3]any{m.UCI, m.At.UnixMilli(), m.SAN})
	}
	b := make([]byte, 0, 48)
	b = append(b, '[', '"')
	b = append(b, m.UCI...)
	b = append(b, '"', ',')
	b = strconv.AppendInt(b, m.At.UnixMilli(), 10)
	if m.SAN != "" || m.Rev != 0 {
		b = append(b, ',', '"')
		b = append(b, m.SAN...)
		b = append(b, '"')
	}
	if m.Rev != 0 {
		b = append(b, ',')
		b = strconv.AppendInt(b, int64(m.Rev), 10)
	}
	return append(b, ']'), nil
}

// UnmarshalJSON decodes [uci, unix milliseconds], [uci, unix
// milliseconds, san] or [uci, unix milliseconds, san, rev]. Listing
// games decodes thousands of moves, so the form MarshalJSON writes
// without a SAN is read by hand; any other valid JSON of those shapes
// takes the slow general path.
func (m *Move) UnmarshalJSON(b []byte) error {
	if len(b) > 4 && b[0] == '[' && b[1] == '"' && b[len(b)-1] == ']' {
		if q := bytes.IndexByte(b[2:], '"'); q >= 0 && 2+q+1 < len(b) && b[2+q+1] == ',' {
			uci := string(b[2 : 2+q])
			if ms, err := strconv.ParseInt(string(b[2+q+2:len(b)-1]), 10, 64); err == nil && plainUCI(uci) {
				m.UCI, m.At, m.SAN, m.Rev = uci, time.UnixMilli(ms).UTC(), "", 0
				return nil
			}
		}
	}
	var raw []json.RawMessage
	if err := json.Unmarshal(b, &raw); err != nil {
		return fmt.Errorf("move %.40s: %w", b, err)
	}
	if len(raw) < 2 || len(raw) > 4 {
		return fmt.Errorf("move %.40s: %d elements, not 2, 3 or 4", b, len(raw))
	}
	var ms int64
	if err := json.Unmarshal(raw[0], &m.UCI); err != nil {
		return fmt.Errorf("move %.40s: %w", b, err)
	}
	if err := json.Unmarshal(raw[1], &ms); err != nil {
		return fmt.Errorf("move %.40s: %w", b, err)
	}
	m.At, m.SAN, m.Rev = time.UnixMilli(ms).UTC(), "", 0
	if len(raw) >= 3 {
		if err := json.Unmarshal(raw[2], &m.SAN); err != nil {
			return fmt.Errorf("move %.40s: %w", b, err)
		}
	}
	if len(raw) == 4 {
		if err := json.Unmarshal(raw[3], &m.Rev); err != nil {
			return fmt.Errorf("move %.40s: %w", b, err)
		}
		if m.Rev < 0 {
			return fmt.Errorf("move %.40s: revision %d", b, m.Rev)
		}
	}
	return nil
}

// plainSAN reports whether s needs no escaping in JSON: a SAN's letters,
// digits and signs.
func plainSAN(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '+' || c == '#' || c == '=' || c == '-') {
			return false
		}
	}
	return true
}

// plainUCI reports whether s needs no escaping in JSON: letters and digits.
func plainUCI(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !('a' <= c && c <= 'z' || '0' <= c && c <= '9') {
			return false
		}
	}
	return true
}

// Offer is a pending draw offer or takeback request: who made it and at
// which ply.
type Offer struct {
	By  string `json:"by"`
	Ply int    `json:"ply"`
}

// Game is one game, active or finished. The storage keeps it whole; a
// finished game (Outcome.Over) is archived and no longer holds its
// channel. Values are copies: changing one changes nothing stored until
// it is put back in a transaction.
type Game struct {
	V        int    `json:"v"`   // record version, kept by the storage
	ID       uint64 `json:"id"`  // unique, increasing with creation
	Revision int    `json:"rev"` // bumped by every change, see Act
	Guild    string `json:"guild"`
	Channel  string `json:"channel"` // channel or thread where it is played; one active game each
	// Private: Channel is a DM or group DM of the players, where a
	// Discord app they installed is no member: the front end cannot post
	// there on its own, only answer the players' acts, and tells them the
	// rest privately. Its Guild is "".
	Private bool `json:"private,omitempty"`
	// Tournament is the tournament whose round this game is a board of
	// (0: none). Such a game cannot be aborted: a player who never moves
	// loses on time, as in any game, and the round gets its result.
	Tournament uint64 `json:"tournament,omitempty"`

	White Seat `json:"white"`
	Black Seat `json:"black"`

	StartFEN string `json:"start"`
	Moves    []Move `json:"moves"`
	FEN      string `json:"fen"` // the current position, so that no act needs a replay

	// Outcome is the result so far, zero while the game goes on; its
	// numbers are game's stable ones.
	Outcome game.Outcome `json:"status"`
	// Last is what last changed the game, for telling a stale asker.
	Last Event `json:"last,omitempty"`

	Created time.Time `json:"created"`
	Updated time.Time `json:"updated"`
	Ended   time.Time `json:"ended,omitzero"`

	Rated bool `json:"rated,omitempty"`
	// Ratings are what the game did to its players' ratings, globally and
	// in its guild: set in the transaction that ends a rated game (see
	// RatingChange), empty for any other game.
	Ratings []RatingChange `json:"ratings,omitempty"`
	// Engine is, per colour, the level (1 to 8) of the computer engine
	// that plays that seat, 0 for a person. The front end that started
	// the game moves for the engine, as the seat's user.
	Engine [2]int `json:"engine,omitzero"`

	// DaysPerMove is the correspondence time control (0: no limit). The
	// side to move loses on time at Deadline; RemindAt is when its next
	// reminder is due (zero when none is left or without a clock). Both
	// are indexed by the storage for the scheduler.
	DaysPerMove int `json:"days,omitempty"`
	// Clock is a live game's clocks (nil: correspondence, or no limit).
	// Its Deadline is then when the flag of the side to move falls
	// (Clock.Grace after Clock.FlagAt), or, before the first move, when
	// the game is aborted for want of one.
	Clock    *Clock    `json:"clock,omitempty"`
	Deadline time.Time `json:"deadline,omitzero"`
	RemindAt time.Time `json:"remind,omitzero"`
	// Reminded are the reminders (hours before the deadline) already
	// claimed for the move now due, so that none is sent twice; a move
	// clears them.
	Reminded []int `json:"reminded,omitempty"`
	// OpponentChooses is the rule the game began with
	// (Options.OpponentChooses): when the side to move runs out of time,
	// the opponent chooses between the win and a draw. Flag is that
	// choice while it waits; Deadline is then when it lapses.
	OpponentChooses bool  `json:"choose,omitempty"`
	Flag            *Flag `json:"flag,omitempty"`
	// AwayUntil is, per colour, the end of that player's vacation as it
	// was last set (see Service.Vacation): their clock stands still
	// until then. A time past means nothing.
	AwayUntil [2]time.Time `json:"away,omitzero"`
	// Premoves are the conditional moves queued by the player who moved
	// last. Private to their author: front ends show them to no one else.
	Premoves *Premoves `json:"premoves,omitempty"`

	// DrawOffer and Takeback are the pending offer and request, if any.
	DrawOffer *Offer `json:"drawOffer,omitempty"`
	Takeback  *Offer `json:"takeback,omitempty"`
	// LastOffer is, per colour, 1 + the ply of that side's last draw
	// offer (0: none), so that an offer is not repeated in one position.
	LastOffer [2]int `json:"lastOffer,omitzero"`
}

// Flag is a deadline that passed in a game whose opponent chooses: By,
// the opponent of the player out of time, may claim the win or call it a
// draw (Service.ClaimWin, Service.ClaimDraw).
type Flag struct {
	By string    `json:"by"`
	At time.Time `json:"at"` // the deadline that passed
}

// Premoves are conditional moves (Service.Premove): By's replies to the
// opponent's expected moves. Each line is UCI text starting with an
// opponent's move, then By's reply, then the opponent's next move, and so
// on. No two lines answer the same opponent move differently.
type Premoves struct {
	By    string     `json:"by"`
	Lines [][]string `json:"lines"`
}

func (q *Premoves) clone() *Premoves {
	c := &Premoves{By: q.By, Lines: make([][]string, len(q.Lines))}
	for i, l := range q.Lines {
		c.Lines[i] = slices.Clone(l)
	}
	return c
}

// Away reports whether the player of colour c is on vacation at now.
func (g *Game) Away(c game.Color, now time.Time) bool { return g.AwayUntil[c].After(now) }

// Ply returns the number of moves played.
func (g *Game) Ply() int { return len(g.Moves) }

// Over reports whether the game has ended.
func (g *Game) Over() bool { return g.Outcome.Over() }

// Seat returns the seat of colour c.
func (g *Game) Seat(c game.Color) Seat {
	if c == game.White {
		return g.White
	}
	return g.Black
}

// ColorOf returns the colour the user plays; ok is false if the user does
// not play in the game.
func (g *Game) ColorOf(user string) (c game.Color, ok bool) {
	switch user {
	case g.White.ID:
		return game.White, true
	case g.Black.ID:
		return game.Black, true
	}
	return game.White, false
}

// Position decodes the current position. A FEN that does not read is a
// damaged record: the error wraps ErrCorrupt.
func (g *Game) Position() (game.Position, error) {
	p, err := game.ParseFEN(g.FEN)
	if err != nil {
		return p, fmt.Errorf("%w: game %d has an unreadable position: %v", ErrCorrupt, g.ID, err)
	}
	return p, nil
}

// Turn returns the colour to move, read from the FEN without a full parse
// (White for an unreadable record).
func (g *Game) Turn() game.Color {
	if i := bytes.IndexByte([]byte(g.FEN), ' '); i >= 0 && i+1 < len(g.FEN) && g.FEN[i+1] == 'b' {
		return game.Black
	}
	return game.White
}

// EngineToMove returns the level of the engine whose move it is, 0 when
// a person is to move or the game is over.
func (g *Game) EngineToMove() int {
	if g.Over() {
		return 0
	}
	return g.Engine[g.Turn()]
}

// TimeControl returns the game's live time control; the zero one for
// correspondence.
func (g *Game) TimeControl() TimeControl {
	if g.Clock == nil {
		return TimeControl{}
	}
	return g.Clock.TimeControl
}

// Speed returns the game's speed class.
func (g *Game) Speed() Speed { return g.TimeControl().Speed() }

// AgainstEngine reports whether an engine plays one of the seats.
func (g *Game) AgainstEngine() bool { return g.Engine != [2]int{} }

// ToMove returns the seat whose turn it is.
func (g *Game) ToMove() Seat { return g.Seat(g.Turn()) }

// Players returns the ids of the game's players.
func (g *Game) Players() []string { return []string{g.White.ID, g.Black.ID} }

// Match replays the game into a game.Match: the record with SANs, Ice
// Ages and, for a finished game, its outcome. Errors wrap ErrCorrupt.
// Every call counts in Replays.
func (g *Game) Match() (*game.Match, error) {
	replays.Add(1)
	ucis := make([]string, len(g.Moves))
	for i, m := range g.Moves {
		ucis[i] = m.UCI
	}
	m, err := game.ReplayUCI(g.StartFEN, ucis)
	if err != nil {
		return nil, fmt.Errorf("%w: game %d does not replay: %v", ErrCorrupt, g.ID, err)
	}
	if g.Over() && !m.Outcome().Over() {
		if err := m.End(g.Outcome); err != nil {
			return nil, fmt.Errorf("%w: game %d: %v", ErrCorrupt, g.ID, err)
		}
	}
	return m, nil
}

// replays counts the games replayed (Match) by this process.
var replays atomic.Uint64

// Replays returns how many times this process replayed a game from its
// first move (Game.Match): what shows an act, or a game, should not
// need to, and tests count it.
func Replays() uint64 { return replays.Load() }

// SANs returns the SAN of every move, as the moves carry them, or, when
// some move does not (see Move), as a replay of the game finds them.
// Errors wrap ErrCorrupt.
func (g *Game) SANs() ([]string, error) {
	sans := make([]string, len(g.Moves))
	for i, m := range g.Moves {
		if m.SAN == "" {
			mt, err := g.Match()
			if err != nil {
				return nil, err
			}
			return mt.SANs(), nil
		}
		sans[i] = m.SAN
	}
	return sans, nil
}

// Clone returns a deep copy.
func (g Game) Clone() Game {
	g.Moves = slices.Clone(g.Moves)
	if g.DrawOffer != nil {
		o := *g.DrawOffer
		g.DrawOffer = &o
	}
	if g.Takeback != nil {
		o := *g.Takeback
		g.Takeback = &o
	}
	g.Reminded = slices.Clone(g.Reminded)
	if g.Flag != nil {
		f := *g.Flag
		g.Flag = &f
	}
	if g.Premoves != nil {
		g.Premoves = g.Premoves.clone()
	}
	g.Ratings = append([]RatingChange(nil), g.Ratings...)
	g.Clock = g.Clock.clone()
	return g
}

// Color is the colour a challenger asks for.
type Color string

const (
	Random    Color = "random"
	WhiteSide Color = "white"
	BlackSide Color = "black"
)

// Challenge is an invitation to a game, waiting for an answer until it
// expires.
type Challenge struct {
	V       int    `json:"v"`
	ID      uint64 `json:"id"`
	Guild   string `json:"guild"`
	Channel string `json:"channel"` // where it was posted
	From    Seat   `json:"from"`
	To      Seat   `json:"to"` // ID "" for an open challenge anyone may accept

	Color       Color  `json:"color"`
	StartFEN    string `json:"start,omitempty"`
	Rated       bool   `json:"rated,omitempty"`
	DaysPerMove int    `json:"days,omitempty"`
	// Time is the live time control (the zero one: DaysPerMove).
	Time    TimeControl `json:"time,omitzero"`
	Created time.Time   `json:"created"`
	Expires time.Time   `json:"expires"`
	// Message is the front end's message that shows the challenge, so it
	// can be edited when the challenge is answered or expires.
	Message string `json:"message,omitempty"`
	// Private: Channel is a DM or group DM of the players (Game.Private).
	Private bool `json:"private,omitempty"`
	// InChannel: the game is played in Channel itself, whoever accepts
	// and wherever: a challenge made in the Activity, which shows the
	// game of its own channel.
	InChannel bool `json:"inChannel,omitempty"`
}

// Open reports whether anyone may accept the challenge.
func (c *Challenge) Open() bool { return c.To.ID == "" }

// Rating is a player's Glicko-2 state; package rating computes it.
type Rating struct {
	Rating     float64   `json:"r"`
	Deviation  float64   `json:"rd"`
	Volatility float64   `json:"vol"`
	Updated    time.Time `json:"at,omitzero"` // when it last changed
}

// Glicko-2 values of a new player (Glickman's and lichess's).
const (
	DefaultRating     = 1500
	DefaultDeviation  = 350
	DefaultVolatility = 0.06
)

// Tally counts finished games.
type Tally struct {
	Won   int `json:"won"`
	Lost  int `json:"lost"`
	Drawn int `json:"drawn"`
}

// Games returns the number of games counted.
func (t Tally) Games() int { return t.Won + t.Lost + t.Drawn }

// Player is a user's record in one scope: a guild id, or "" for
// everywhere.
type Player struct {
	V      int    `json:"v"`
	Scope  string `json:"scope"`
	User   string `json:"user"`
	Name   string `json:"name,omitempty"` // display name at the last game
	Rating Rating `json:"rating"`
	// RatedGames counts the rated games that changed Rating, and
	// RatedTally their results (the leaderboard's games and win rate).
	RatedGames int   `json:"rated,omitempty"`
	RatedTally Tally `json:"ratedTally,omitzero"`

	AsWhite Tally `json:"white"`
	AsBlack Tally `json:"black"`

	// Streak is the current run: positive for wins in a row, negative for
	// losses in a row, zero after a draw. BestStreak is the longest
	// winning run.
	Streak     int       `json:"streak"`
	BestStreak int       `json:"best"`
	LastGame   time.Time `json:"last,omitzero"`
	// FrozenLosses counts the games lost to a frozen king.
	FrozenLosses int `json:"frozen,omitempty"`
}

// NewPlayer returns the record of a user who has played nothing yet.
func NewPlayer(scope, user string) Player {
	return Player{Scope: scope, User: user,
		Rating: Rating{Rating: DefaultRating, Deviation: DefaultDeviation, Volatility: DefaultVolatility}}
}

// Total returns the player's games as White and as Black together.
func (p *Player) Total() Tally {
	return Tally{p.AsWhite.Won + p.AsBlack.Won, p.AsWhite.Lost + p.AsBlack.Lost, p.AsWhite.Drawn + p.AsBlack.Drawn}
}

// Stats are the variant-wide counts of finished games, for one guild or
// for everywhere ("").
type Stats struct {
	V         int    `json:"v"`
	Scope     string `json:"scope"`
	WhiteWins int    `json:"white"`
	BlackWins int    `json:"black"`
	Draws     int    `json:"draws"`
	Aborted   int    `json:"aborted"`
	// ByReason counts games by how they ended, keyed by game.Reason.
	ByReason map[game.Reason]int `json:"byReason,omitempty"`
	// IceAges counts the Ice Ages of the finished (not aborted) games.
	IceAges int `json:"iceAges,omitempty"`
}

// Games returns the number of games decided or drawn (aborted ones aside).
func (st *Stats) Games() int { return st.WhiteWins + st.BlackWins + st.Draws }

// Prefs are a user's settings, the same in every server. The zero value
// means "the defaults".
type Prefs struct {
	V             int    `json:"v"`
	Language      string `json:"lang,omitempty"`   // "en", "fr", "ru", "nb", "es", "nl"; "" follows Discord
	Notifications string `json:"notify,omitempty"` // "mention", "dm" or "none"; "" is mention
	Theme         string `json:"theme,omitempty"`
	// Reminders are how many hours before a deadline to remind the user;
	// nil means the defaults (Options.Reminders), empty none.
	Reminders []int `json:"reminders,omitzero"`

	// AwayFrom and AwayUntil are the user's vacation (Service.Vacation);
	// an AwayUntil past means none. VacationUsed counts the days taken in
	// VacationYear.
	AwayFrom     time.Time `json:"awayFrom,omitzero"`
	AwayUntil    time.Time `json:"awayUntil,omitzero"`
	VacationYear int       `json:"vacYear,omitempty"`
	VacationUsed int       `json:"vacUsed,omitempty"`
	// DMRefused is when a direct message to the user was last refused
	// (closed DMs), so that a front end falls back to a mention and does
	// not retry every time; SetPrefs clears it.
	DMRefused time.Time `json:"dmRefused,omitzero"`
}

// Away reports whether the user is on vacation at now.
func (p *Prefs) Away(now time.Time) bool { return p.AwayUntil.After(now) }
