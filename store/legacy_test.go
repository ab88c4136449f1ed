package store

import (
	"encoding/json"
	"fmt"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/iceagechess/iceage/game"
	"github.com/iceagechess/iceage/play"
)

// The records of schemas 1 and 2 as that code wrote them, field for field,
// so that the tests can write old files: the schema-1 fixture, and large
// schema-2 files for the migration's crash test.

type oldGame struct {
	V           int          `json:"v"`
	ID          uint64       `json:"id"`
	Guild       string       `json:"guild"`
	Channel     string       `json:"channel"`
	White       play.Seat    `json:"white"`
	Black       play.Seat    `json:"black"`
	StartFEN    string       `json:"start"`
	Moves       []play.Move  `json:"moves"`
	IceAges     []oldIceAge  `json:"iceAges,omitempty"`
	FEN         string       `json:"fen"`
	Status      game.Outcome `json:"status"`
	Created     time.Time    `json:"created"`
	Updated     time.Time    `json:"updated"`
	Ended       time.Time    `json:"ended,omitzero"`
	Rated       bool         `json:"rated,omitempty"`
	DaysPerMove int          `json:"days,omitempty"`
	Deadline    time.Time    `json:"deadline,omitzero"`
	RemindAt    time.Time    `json:"remind,omitzero"`
	DrawOffer   string       `json:"drawOffer,omitempty"`
	Takeback    string       `json:"takeback,omitempty"`
	Messages    []string     `json:"messages,omitempty"`
}

type oldIceAge struct {
	Ply    int      `json:"ply"`
	Frozen []string `json:"frozen,omitempty"`
	Filled []string `json:"filled,omitempty"`
}

type oldChallenge struct {
	V           int       `json:"v"`
	ID          uint64    `json:"id"`
	Guild       string    `json:"guild"`
	Channel     string    `json:"channel"`
	From        play.Seat `json:"from"`
	To          play.Seat `json:"to"`
	Color       string    `json:"color,omitempty"`
	StartFEN    string    `json:"start,omitempty"`
	Rated       bool      `json:"rated,omitempty"`
	DaysPerMove int       `json:"days,omitempty"`
	Created     time.Time `json:"created"`
	Expires     time.Time `json:"expires"`
	Message     string    `json:"message,omitempty"`
}

type oldPlayer struct {
	V          int         `json:"v"`
	Scope      string      `json:"scope"`
	User       string      `json:"user"`
	Name       string      `json:"name,omitempty"`
	Rating     play.Rating `json:"rating"`
	AsWhite    play.Tally  `json:"white"`
	AsBlack    play.Tally  `json:"black"`
	Streak     int         `json:"streak"`
	BestStreak int         `json:"best"`
	LastGame   time.Time   `json:"last,omitzero"`
}

type oldStats struct {
	V         int                 `json:"v"`
	WhiteWins int                 `json:"white"`
	BlackWins int                 `json:"black"`
	Draws     int                 `json:"draws"`
	Aborted   int                 `json:"aborted"`
	ByReason  map[game.Reason]int `json:"byReason,omitempty"`
}

type oldPrefs struct {
	V             int    `json:"v"`
	Language      string `json:"lang,omitempty"`
	Notifications string `json:"notify,omitempty"`
	Orientation   string `json:"orient,omitempty"`
	Theme         string `json:"theme,omitempty"`
	Vacation      bool   `json:"vacation,omitempty"`
}

// oldReplay plays moves from start as the old code did, recording its Ice
// Ages.
func oldReplay(start string, moves []play.Move) (game.Position, []oldIceAge, error) {
	p, err := game.ParseFEN(start)
	if err != nil {
		return p, nil, err
	}
	var ices []oldIceAge
	for i, mv := range moves {
		m, err := game.ParseUCI(mv.UCI)
		if err != nil || !p.IsLegal(m) {
			return p, nil, fmt.Errorf("move %d (%s) is not legal in %s", i+1, mv.UCI, p.FEN())
		}
		var ev *game.IceAge
		p, ev = p.ApplyWithEvent(m)
		if ev != nil {
			r := oldIceAge{Ply: i + 1}
			for _, f := range ev.Frozen {
				r.Frozen = append(r.Frozen, string(f.Piece.FENLetter())+f.Square.String())
			}
			for _, s := range ev.Filled.Squares() {
				r.Filled = append(r.Filled, s.String())
			}
			ices = append(ices, r)
		}
	}
	return p, ices, nil
}

// count adds a finished game to the statistics as the old code did:
// aborted games in ByReason too.
func (st *oldStats) count(o game.Outcome) {
	switch o.Result {
	case game.WhiteWins:
		st.WhiteWins++
	case game.BlackWins:
		st.BlackWins++
	case game.Draw:
		st.Draws++
	default:
		st.Aborted++
	}
	if st.ByReason == nil {
		st.ByReason = map[game.Reason]int{}
	}
	st.ByReason[o.Reason]++
}

func (p *oldPlayer) count(c game.Color, g *oldGame) {
	t := &p.AsWhite
	if c == game.Black {
		t = &p.AsBlack
	}
	w, decisive := g.Status.Winner()
	switch {
	case !decisive:
		t.Drawn++
		p.Streak = 0
	case w == c:
		t.Won++
		p.Streak = max(p.Streak, 0) + 1
		p.BestStreak = max(p.BestStreak, p.Streak)
	default:
		t.Lost++
		p.Streak = min(p.Streak, 0) - 1
	}
	p.LastGame = g.Ended
}

func oldNewPlayer(v int, scope, user string) *oldPlayer {
	return &oldPlayer{V: v, Scope: scope, User: user,
		Rating: play.Rating{Rating: play.DefaultRating, Deviation: play.DefaultDeviation, Volatility: play.DefaultVolatility}}
}

// oldMake builds an old game record from moves: its position, Ice Ages,
// times, clock and (if the moves end it) outcome.
func oldMake(v int, id uint64, guild, channel, white, black string, days int, moves []string, status game.Outcome) (*oldGame, error) {
	g := &oldGame{V: v, ID: id, Guild: guild, Channel: channel, White: play.Seat{ID: white, Name: "Name " + white}, Black: play.Seat{ID: black, Name: "Name " + black},
		StartFEN: game.StartFEN, Moves: []play.Move{}, Created: t0, Updated: t0, DaysPerMove: days, Status: status}
	for i, m := range moves {
		g.Moves = append(g.Moves, play.Move{UCI: m, At: t0.Add(time.Duration(i+1) * time.Minute)})
	}
	p, ices, err := oldReplay(g.StartFEN, g.Moves)
	if err != nil {
		return nil, err
	}
	g.FEN, g.IceAges = p.FEN(), ices
	if len(moves) > 0 {
		g.Updated = g.Moves[len(moves)-1].At
	}
	if o := p.Outcome(); o.Over() {
		g.Status = o
	}
	if g.Status.Over() {
		g.Ended = g.Updated
	} else if days > 0 {
		g.Deadline = g.Updated.Add(time.Duration(days) * 24 * time.Hour)
		g.RemindAt = g.Deadline.Add(-24 * time.Hour)
	}
	return g, nil
}

// oldPut writes a record of the old layout.
func oldPut(tx *bolt.Tx, bucket string, k []byte, v any) error {
	b, ok := v.([]byte)
	if !ok {
		var err error
		if b, err = json.Marshal(v); err != nil {
			return err
		}
	}
	if b == nil {
		b = []byte{}
	}
	return tx.Bucket([]byte(bucket)).Put(k, b)
}

// oldArchive counts a finished old game for its players and the
// statistics, as the old code did, in schema version v's records.
func oldCount(tx *bolt.Tx, v int, g *oldGame, scopes []string) error {
	for _, scope := range scopes {
		st := oldStats{V: v}
		if b := tx.Bucket([]byte("stats")).Get(prefix(scope)); b != nil {
			json.Unmarshal(b, &st)
		}
		st.count(g.Status)
		if err := oldPut(tx, "stats", prefix(scope), &st); err != nil {
			return err
		}
		if g.Status.Reason == game.Aborted {
			continue
		}
		for _, c := range []game.Color{game.White, game.Black} {
			seat := g.White
			if c == game.Black {
				seat = g.Black
			}
			p := oldNewPlayer(v, scope, seat.ID)
			if b := tx.Bucket([]byte("players")).Get(playerKey(scope, p.User)); b != nil {
				json.Unmarshal(b, p)
			}
			p.Name = seat.Name
			p.count(c, g)
			if err := oldPut(tx, "players", playerKey(scope, p.User), p); err != nil {
				return err
			}
		}
	}
	return nil
}
