package bot

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/iceagechess/iceage/game"
	"github.com/iceagechess/iceage/play"
)

// The custom ids of buttons and menus have one grammar: fields separated
// by ":", literal words and values, the first word naming the family —
// "g:resign:12:7" is the Resign button of game 12 at revision 7. Each id
// is declared once as a pattern whose values are named in braces
// ("g:resign:{game}:{rev}"), and the same pattern both builds the id
// (idPattern.id) and routes the click (clicks.handle). Ids of boards
// posted long ago must keep working, so a pattern, once posted, is never
// changed: a new form is a new pattern beside the old one.

// maxCustomID is Discord's limit on a custom id's length; anything
// longer was not made by the bot.
const maxCustomID = 100

// idPattern is a parsed custom-id pattern.
type idPattern struct {
	text string
	segs []idSeg
	// name is the pattern's literal words, "g:resign", for the logs.
	name string
}

type idSeg struct {
	word  string // a literal word, or
	field string // the name of a value
}

// pattern parses a pattern; a malformed one is a programming error, found
// when the package loads.
func pattern(text string) idPattern {
	p := idPattern{text: text}
	var words []string
	for s := range strings.SplitSeq(text, ":") {
		if name, ok := strings.CutPrefix(s, "{"); ok {
			name, ok = strings.CutSuffix(name, "}")
			if !ok || name == "" {
				panic(fmt.Sprintf("bot: custom-id pattern %q: bad field %q", text, s))
			}
			p.segs = append(p.segs, idSeg{field: name})
			continue
		}
		if s == "" || strings.ContainsAny(s, "{}") {
			panic(fmt.Sprintf("bot: custom-id pattern %q: bad word %q", text, s))
		}
		p.segs = append(p.segs, idSeg{word: s})
		words = append(words, s)
	}
	p.name = strings.Join(words, ":")
	return p
}

// id builds a custom id from the pattern, its fields' values in order.
func (p idPattern) id(values ...any) string {
	var b strings.Builder
	k := 0
	for i, s := range p.segs {
		if i > 0 {
			b.WriteByte(':')
		}
		if s.field == "" {
			b.WriteString(s.word)
			continue
		}
		if k < len(values) {
			fmt.Fprint(&b, values[k])
		}
		k++
	}
	return b.String()
}

// idFields are the values a custom id carried, by field name.
type idFields struct {
	p      *idPattern
	values []string
}

// str returns a field's text, "" when the pattern has no such field.
func (f idFields) str(name string) string {
	k := 0
	for _, s := range f.p.segs {
		if s.field == "" {
			continue
		}
		if s.field == name {
			return f.values[k]
		}
		k++
	}
	return ""
}

// num returns a field as a number; an id whose field is not one was not
// made by the bot.
func (f idFields) num(name string) (uint64, error) {
	n, err := strconv.ParseUint(f.str(name), 10, 64)
	if err != nil {
		return 0, fmt.Errorf("%w: %s is not a number", errBadCustomID, name)
	}
	return n, nil
}

// errBadCustomID marks a click whose custom id the bot never made.
var errBadCustomID = errors.New("bot: a custom id the bot does not make")

// clickHandler answers a click on a button or a choice in a menu.
type clickHandler func(b *Bot, in *interaction, f idFields) error

// clickRouter routes custom ids to their handlers by pattern.
type clickRouter struct {
	routes []clickRoute
	// byHead indexes routes by their first word and number of fields,
	// so that a click is checked against a few patterns, not all.
	byHead map[headKey][]int
}

type headKey struct {
	word string
	segs int
}

type clickRoute struct {
	p   idPattern
	run clickHandler
}

// clicks is the one table of every button and menu; each file adds its
// own in an init.
var clicks clickRouter

// handle routes the ids of pattern p to run; two patterns that could
// match the same id are a programming error.
func (r *clickRouter) handle(p idPattern, run clickHandler) {
	for _, o := range r.routes {
		if overlap(o.p, p) {
			panic(fmt.Sprintf("bot: custom-id patterns %q and %q overlap", o.p.text, p.text))
		}
	}
	if p.segs[0].field != "" {
		panic(fmt.Sprintf("bot: custom-id pattern %q starts with a field, not its family's word", p.text))
	}
	if r.byHead == nil {
		r.byHead = map[headKey][]int{}
	}
	k := headKey{p.segs[0].word, len(p.segs)}
	r.byHead[k] = append(r.byHead[k], len(r.routes))
	r.routes = append(r.routes, clickRoute{p: p, run: run})
}

// overlap reports whether some id matches both patterns.
func overlap(a, b idPattern) bool {
	if len(a.segs) != len(b.segs) {
		return false
	}
	for i := range a.segs {
		if a.segs[i].field == "" && b.segs[i].field == "" && a.segs[i].word != b.segs[i].word {
			return false
		}
	}
	return true
}

// match finds the route of a custom id; ok is false for an id that no
// pattern makes.
func (r *clickRouter) match(id string) (run clickHandler, f idFields, ok bool) {
	if len(id) > maxCustomID {
		return nil, idFields{}, false
	}
	parts := strings.Split(id, ":")
	for _, i := range r.byHead[headKey{parts[0], len(parts)}] {
		rt := &r.routes[i]
		if values, ok := rt.p.fields(parts); ok {
			return rt.run, idFields{p: &rt.p, values: values}, true
		}
	}
	return nil, idFields{}, false
}

// fields returns the values of an id's parts if they match the pattern.
func (p *idPattern) fields(parts []string) ([]string, bool) {
	var values []string
	for k, s := range p.segs {
		if s.field != "" {
			values = append(values, parts[k])
		} else if s.word != parts[k] {
			return nil, false
		}
	}
	return values, true
}

// component routes a click by its custom id.
func (b *Bot) component(in *interaction) error {
	id := in.i.MessageComponentData().CustomID
	run, f, ok := clicks.match(id)
	if !ok {
		return fmt.Errorf("%w: %q", errBadCustomID, id)
	}
	in.name = f.p.name
	return run(b, in, f)
}

// gamePattern is the pattern of a button that acts on a game as a
// message showed it: "g:VERB:{game}:{rev}".
func gamePattern(verb string) idPattern { return pattern("g:" + verb + ":{game}:{rev}") }

// forGame builds a game button's id from a game pattern.
func (p idPattern) forGame(g *play.Game) string { return p.id(g.ID, g.Revision) }

// forAct builds a game button's id for the game and revision of an act.
func (p idPattern) forAct(a play.Act) string { return p.id(a.Game, a.Revision) }

// clickBy binds a click to a method of a feature's handlers (runBy,
// commands.go).
func clickBy[F any](of func(*Bot) F, h func(F, *interaction, idFields) error) clickHandler {
	return func(b *Bot, in *interaction, f idFields) error { return h(of(b), in, f) }
}

// gameAct adapts a handler of an act on a game to a game pattern's
// clicks: the act names the game and the revision the message showed, so
// play refuses a click on an older board as stale.
func gameAct[F any](of func(*Bot) F, h func(F, *interaction, play.Act) error) clickHandler {
	return func(b *Bot, in *interaction, f idFields) error {
		a, err := clickedAct(in, f, b.cfg.Now())
		if err != nil {
			return err
		}
		return h(of(b), in, a)
	}
}

// clickedAct is the act a game button's id names, by the clicker, at at.
func clickedAct(in *interaction, f idFields, at time.Time) (play.Act, error) {
	id, err := f.num("game")
	if err != nil {
		return play.Act{}, err
	}
	rev, err := f.num("rev")
	if err != nil || rev > 1<<31 {
		return play.Act{}, fmt.Errorf("%w: revision", errBadCustomID)
	}
	return play.Act{By: in.user, Game: id, Revision: int(rev), At: at}, nil
}

// menuValue returns the one value chosen in a select menu.
func menuValue(in *interaction) (string, error) {
	values := in.i.MessageComponentData().Values
	if len(values) != 1 {
		return "", fmt.Errorf("%w: a menu with %d values", errBadCustomID, len(values))
	}
	return values[0], nil
}

// menuSquare returns the one square chosen in a menu of men.
func menuSquare(in *interaction) (game.Square, error) {
	v, err := menuValue(in)
	if err != nil {
		return game.NoSquare, err
	}
	sq, err := game.ParseSquare(v)
	if err != nil {
		return game.NoSquare, fmt.Errorf("%w: square %q", errBadCustomID, v)
	}
	return sq, nil
}

// menuMove returns the one move chosen in a menu of moves, in UCI, and
// as the text the menu sent.
func menuMove(in *interaction) (game.Move, string, error) {
	v, err := menuValue(in)
	if err != nil {
		return game.NullMove, "", err
	}
	mv, err := game.ParseUCI(v)
	if err != nil {
		return game.NullMove, "", fmt.Errorf("%w: move %q", errBadCustomID, v)
	}
	return mv, v, nil
}

// menuNumber returns the one number chosen in a select menu.
func menuNumber(in *interaction) (uint64, error) {
	v, err := menuValue(in)
	if err != nil {
		return 0, err
	}
	n, err := strconv.ParseUint(v, 10, 64)
	if err != nil {
		return 0, fmt.Errorf("%w: menu value %q", errBadCustomID, v)
	}
	return n, nil
}
