package bot

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math"
	"net/http"
	"strconv"
	"strings"

	"github.com/bwmarrin/discordgo"

	"github.com/iceagechess/iceage/exercise"
	"github.com/iceagechess/iceage/game"
	"github.com/iceagechess/iceage/i18n"
	"github.com/iceagechess/iceage/play"
	"github.com/iceagechess/iceage/puzzle"
	"github.com/iceagechess/iceage/render"
)

// /puzzle: a puzzle of the shipped set (package puzzle) near the player's
// puzzle rating, solved privately with the two-click menus of a game: a
// man, then its move. A right move is answered at once by the line's
// reply; a wrong one ends the rated try (the player may try again, for
// practice), and so do the solution shown and a hint (a solve after a
// hint counts as a miss). play keeps the score: the first try at a
// puzzle moves both ratings, Glicko-2, player against puzzle, and the
// streak. The daily puzzle of a server is posted by the outbox (a
// channel and an hour set in /server-settings) with a button that opens
// it privately; its post counts the members who solved it.
//
// Every step's custom id carries the puzzle and the solver's moves made,
// and play refuses a step whose count is not the record's: a menu left
// open is stale. The desk keeps no state of its own: everything is in
// play's records.

func init() {
	addCommand(appCommand{name: "puzzle", reach: anywhere, run: runBy(puzzlesOf, (*puzzleDesk).command), help: helpOther + 5, declare: func(*Config) *discordgo.ApplicationCommand {
		return command("puzzle", option("puzzle", "id", discordgo.ApplicationCommandOptionString, false))
	}})
	clicks.handle(idPuzzleMen, puzzleClick((*puzzleDesk).menClick))
	clicks.handle(idPuzzleMan, puzzleClick((*puzzleDesk).manChosen))
	clicks.handle(idPuzzleTo, puzzleClick((*puzzleDesk).moveChosen))
	clicks.handle(idPuzzleHint, puzzleClick((*puzzleDesk).hint))
	clicks.handle(idPuzzleShow, puzzleClick((*puzzleDesk).show))
	clicks.handle(idPuzzleRetry, clickBy(puzzlesOf, func(d *puzzleDesk, in *interaction, f idFields) error {
		return d.open(in, f.str("id"), false)
	}))
	clicks.handle(idPuzzleDaily, clickBy(puzzlesOf, func(d *puzzleDesk, in *interaction, f idFields) error {
		return d.open(in, f.str("id"), true)
	}))
	clicks.handle(idPuzzleNext, clickBy(puzzlesOf, func(d *puzzleDesk, in *interaction, _ idFields) error { return d.next(in) }))
}

var (
	// idPuzzleMen shows the men's menu again ("Another man").
	idPuzzleMen = pattern("pz:men:{id}:{ply}")
	// idPuzzleMan is the men's menu, a square as its value; idPuzzleTo a
	// man's moves, a move in UCI as its value.
	idPuzzleMan = pattern("pz:man:{id}:{ply}")
	idPuzzleTo  = pattern("pz:to:{id}:{ply}")
	// idPuzzleHint and idPuzzleShow ask for a hint and the solution.
	idPuzzleHint = pattern("pz:hint:{id}:{ply}")
	idPuzzleShow = pattern("pz:show:{id}:{ply}")
	// idPuzzleRetry starts a puzzle again; idPuzzleNext opens the next
	// one; idPuzzleDaily, on the daily post, opens it privately.
	idPuzzleRetry = pattern("pz:retry:{id}")
	idPuzzleNext  = pattern("pz:next")
	idPuzzleDaily = pattern("pz:daily:{id}")
)

// puzzleBoardSize is the side of a puzzle's board: read on a phone.
const puzzleBoardSize = 400

// puzzleDesk answers /puzzle and its clicks. It holds what every feature
// shares, and the readers' languages for the daily post's count: a try's
// state is all in play's records.
type puzzleDesk struct {
	*shared
	locales *locales
	outbox  *deliveries // woken when a server's daily post is set
}

func puzzlesOf(b *Bot) *puzzleDesk { return b.puzzles }

// puzzleStep is a click on the current step of a puzzle: the puzzle, the
// solver's moves made, and the solver's record that holds that step.
type puzzleStep struct {
	pz     puzzle.Puzzle
	ply    int
	solver play.Puzzler
}

// puzzleClick reads a step's custom id and hands it on if the step is
// the solver's current one: a click on a menu left open on an older
// step, or on another puzzle, is answered as stale here, for every step.
func puzzleClick(fn func(d *puzzleDesk, in *interaction, st puzzleStep) error) clickHandler {
	return clickBy(puzzlesOf, func(d *puzzleDesk, in *interaction, f idFields) error {
		pz, ok := puzzle.ByID(f.str("id"))
		if !ok {
			return fmt.Errorf("%w: puzzle %q", errBadCustomID, f.str("id"))
		}
		ply, err := f.num("ply")
		if err != nil || int(ply) >= pz.SolverMoves() {
			return fmt.Errorf("%w: puzzle %s ply %q", errBadCustomID, pz.ID, f.str("ply"))
		}
		st := puzzleStep{pz: pz, ply: int(ply)}
		if st.solver, err = d.current(in, &st); err != nil {
			if errors.Is(err, errPuzzleStale) {
				return d.stale(in)
			}
			return err
		}
		return fn(d, in, st)
	})
}

// scope is where a player's puzzle rating lives: the server, or "" in
// direct messages, as for games.
func puzzleScope(in *interaction) string { return in.i.GuildID }

// command answers /puzzle [id].
func (d *puzzleDesk) command(in *interaction, data discordgo.ApplicationCommandInteractionData) error {
	if o := options(data)["id"]; o != nil {
		id := strings.TrimPrefix(strings.TrimSpace(o.StringValue()), "#")
		if _, ok := puzzle.ByID(id); !ok {
			return in.tell(tr(in.lang, "puzzle.unknown", map[string]any{"ID": i18n.Quote(in.lang, truncate(id, 20))}))
		}
		return d.open(in, id, false)
	}
	return d.next(in)
}

// next opens a puzzle near the player's rating, by the puzzles' ratings
// as their tries have moved them, that they have not tried.
func (d *puzzleDesk) next(in *interaction) error {
	p, err := d.play.PuzzlerOf(in.ctx, puzzleScope(in), in.user)
	if err != nil {
		return err
	}
	rated, err := d.play.PuzzleRatings(in.ctx)
	if err != nil {
		return err
	}
	pz, ok := puzzle.Pick(puzzle.Set(), p.Rating.Rating, p.Tried, rated, fmt.Sprintf("%s %d %s", in.user, p.Rated, p.Current))
	if !ok {
		return in.tell(tr(in.lang, "puzzle.all_done", nil))
	}
	return d.open(in, pz.ID, false)
}

// open starts a try at puzzle id and shows it, privately: in place of
// the message clicked when that is private, else as a new answer.
func (d *puzzleDesk) open(in *interaction, id string, daily bool) error {
	pz, ok := puzzle.ByID(id)
	if !ok {
		return fmt.Errorf("%w: puzzle %q", errBadCustomID, id)
	}
	res, err := d.play.Puzzle(in.ctx, play.PuzzleStep{Scope: puzzleScope(in), User: in.user, Name: in.seat.Name,
		Puzzle: pz.ID, First: pz.Rating, Event: play.PuzzleStarted, At: d.cfg.Now()})
	if err != nil {
		return err
	}
	note := ""
	if res.Puzzler.Spoiled {
		note = tr(in.lang, "puzzle.practice", nil)
	}
	if daily {
		note = strings.TrimSpace(tr(in.lang, "puzzle.daily_intro", nil) + "\n" + note)
	}
	m, err := d.view(in, &pz, 0, viewing{note: note, menu: true})
	if err != nil {
		return err
	}
	return d.answer(in, m)
}

// answer shows m privately: in place of a private message clicked, or as
// a new private answer.
func (d *puzzleDesk) answer(in *interaction, m *message) error {
	if onEphemeral(in) {
		return in.update(m)
	}
	m.Flags = discordgo.MessageFlagsEphemeral
	return in.respond(m)
}

// current checks that a click is on the player's current puzzle at the
// ply it shows; a menu left open is stale.
func (d *puzzleDesk) current(in *interaction, st *puzzleStep) (play.Puzzler, error) {
	p, err := d.play.PuzzlerOf(in.ctx, puzzleScope(in), in.user)
	if err != nil {
		return p, err
	}
	if p.Current != st.pz.ID || p.Ply != st.ply {
		return p, errPuzzleStale
	}
	return p, nil
}

// errPuzzleStale is a click on a puzzle's step that is no longer current.
var errPuzzleStale = errors.New("bot: a puzzle's menu that is no longer current")

// stale answers a click on an old step.
func (d *puzzleDesk) stale(in *interaction) error {
	return in.tell(tr(in.lang, "puzzle.stale", nil))
}

// menClick shows the men's menu again.
func (d *puzzleDesk) menClick(in *interaction, st puzzleStep) error {
	m, err := d.view(in, &st.pz, st.ply, viewing{menu: true})
	if err != nil {
		return err
	}
	return d.answer(in, m)
}

// manChosen shows the moves of the man chosen, on a board where their
// targets are marked.
func (d *puzzleDesk) manChosen(in *interaction, st puzzleStep) error {
	v, err := menuValue(in)
	if err != nil {
		return err
	}
	from, err := game.ParseSquare(v)
	if err != nil {
		return fmt.Errorf("%w: square %q", errBadCustomID, v)
	}
	m, err := d.view(in, &st.pz, st.ply, viewing{from: from, hasFrom: true})
	if err != nil {
		return err
	}
	return d.answer(in, m)
}

// moveChosen judges the move chosen: the next step, the solve, or a miss.
func (d *puzzleDesk) moveChosen(in *interaction, st puzzleStep) error {
	v, err := menuValue(in)
	if err != nil {
		return err
	}
	mv, err := game.ParseUCI(v)
	if err != nil {
		return fmt.Errorf("%w: move %q", errBadCustomID, v)
	}
	pz := &st.pz
	pos, _, err := pz.At(st.ply)
	if err != nil {
		return err
	}
	if !pos.IsLegal(mv) {
		return fmt.Errorf("%w: move %q is not legal in puzzle %s", errBadCustomID, v, pz.ID)
	}
	step := play.PuzzleStep{Scope: puzzleScope(in), User: in.user, Name: in.seat.Name, Puzzle: pz.ID, First: pz.Rating, Ply: st.ply, At: d.cfg.Now()}
	san := pos.SAN(mv)
	if !pz.Right(&pos, st.ply, mv) {
		step.Event = play.PuzzleFailed
		res, err := d.play.Puzzle(in.ctx, step)
		if err != nil {
			return err
		}
		note := tr(in.lang, "puzzle.wrong", map[string]any{"Move": san})
		m, err := d.view(in, pz, st.ply, viewing{note: note + d.ratingLine(in.lang, &res), wrong: mv, failed: true})
		if err != nil {
			return err
		}
		return d.answer(in, m)
	}
	// The exercise plays the move and the line's reply, and says whether
	// the goal is met.
	played := pz.Moves[:2*st.ply]
	att, err := exercise.Resume(pz.Exercise(), played, 0)
	if err != nil {
		return err
	}
	r := att.Try(mv)
	switch r.Verdict {
	case exercise.Solved:
		step.Event = play.PuzzleSolved
		res, err := d.play.Puzzle(in.ctx, step)
		if err != nil {
			return err
		}
		note := tr(in.lang, "puzzle.solved", map[string]any{"Move": san})
		if st.solver.Hinted && res.Rated {
			note = tr(in.lang, "puzzle.solved_hinted", map[string]any{"Move": san})
		}
		d.countDaily(in, pz.ID)
		m, err := d.view(in, pz, st.ply, viewing{note: note + d.ratingLine(in.lang, &res), solved: true, after: &r.After, last: mv})
		if err != nil {
			return err
		}
		return d.answer(in, m)
	case exercise.Going:
		step.Event = play.PuzzleAdvanced
		if _, err := d.play.Puzzle(in.ctx, step); err != nil {
			return err
		}
		note := tr(in.lang, "puzzle.right", map[string]any{"Move": san, "Reply": r.Reply.SAN})
		m, err := d.view(in, pz, st.ply+1, viewing{note: note, menu: true})
		if err != nil {
			return err
		}
		return d.answer(in, m)
	}
	// A right move the exercise did not take (it cannot happen with a
	// proven line): said as a miss, not rated.
	return in.tell(tr(in.lang, "puzzle.wrong", map[string]any{"Move": san}))
}

// hint marks the man that moves next; the try is no longer rated as a
// solve.
func (d *puzzleDesk) hint(in *interaction, st puzzleStep) error {
	if _, err := d.play.Puzzle(in.ctx, play.PuzzleStep{Scope: puzzleScope(in), User: in.user, Name: in.seat.Name,
		Puzzle: st.pz.ID, First: st.pz.Rating, Ply: st.ply, Event: play.PuzzleHinted, At: d.cfg.Now()}); err != nil {
		return err
	}
	pos, _, err := st.pz.At(st.ply)
	if err != nil {
		return err
	}
	mv, err := game.ParseUCI(st.pz.Moves[2*st.ply])
	if err != nil {
		return err
	}
	note := tr(in.lang, "puzzle.hint", map[string]any{"Label": i18n.ManOn(in.lang, pos.PieceAt(mv.From()), mv.From())})
	m, err := d.view(in, &st.pz, st.ply, viewing{note: note, menu: true, hint: mv.From(), hasHint: true})
	if err != nil {
		return err
	}
	return d.answer(in, m)
}

// show gives the solution: the whole line, and the board at its end. A
// first try shown the solution is rated as a miss.
func (d *puzzleDesk) show(in *interaction, st puzzleStep) error {
	res, err := d.play.Puzzle(in.ctx, play.PuzzleStep{Scope: puzzleScope(in), User: in.user, Name: in.seat.Name,
		Puzzle: st.pz.ID, First: st.pz.Rating, Ply: st.ply, Event: play.PuzzleShown, At: d.cfg.Now()})
	if err != nil {
		return err
	}
	start, err := st.pz.Position()
	if err != nil {
		return err
	}
	line, err := st.pz.Line()
	if err != nil {
		return err
	}
	end := start
	for _, mv := range line {
		end = end.Apply(mv)
	}
	note := tr(in.lang, "puzzle.solution", map[string]any{"Line": lineSAN(&start, line)})
	m, err := d.view(in, &st.pz, st.ply, viewing{note: note + d.ratingLine(in.lang, &res), solved: true, after: &end, last: line[len(line)-1]})
	if err != nil {
		return err
	}
	return d.answer(in, m)
}

// lineSAN writes a line in SAN with move numbers: "21. Qxe5+ Kf8 22. Qe7#".
func lineSAN(start *game.Position, line []game.Move) string {
	var b strings.Builder
	p := *start
	for i, mv := range line {
		if p.Turn() == game.White {
			fmt.Fprintf(&b, "%d. ", p.FullMoveNumber())
		} else if i == 0 {
			fmt.Fprintf(&b, "%d… ", p.FullMoveNumber())
		}
		b.WriteString(p.SAN(mv))
		b.WriteByte(' ')
		p = p.Apply(mv)
	}
	return strings.TrimSpace(b.String())
}

// ratingLine says how a rated step moved the player's rating, and the
// streak; "" when it was not rated.
func (d *puzzleDesk) ratingLine(lang i18n.Lang, res *play.PuzzleResult) string {
	if !res.Rated {
		return "\n" + tr(lang, "puzzle.not_rated", nil)
	}
	after := res.Puzzler.Rating
	diff := int(math.Round(after.Rating - res.Before.Rating))
	sign := "+"
	if diff < 0 {
		sign = "−"
		diff = -diff
	}
	line := "\n" + tr(lang, "puzzle.rating_change", map[string]any{"Rating": after.Display(), "Change": sign + strconv.Itoa(diff)})
	if res.Puzzler.Streak > 1 {
		line += " · " + i18n.N(lang, "puzzle.streak", res.Puzzler.Streak, nil)
	}
	return line
}

// viewing is what a puzzle's message shows.
type viewing struct {
	note string
	// menu offers the men; hasFrom, the moves of the man on from.
	menu    bool
	from    game.Square
	hasFrom bool
	// hint marks a man.
	hint    game.Square
	hasHint bool
	// wrong is a move that missed, failed that the try is over.
	wrong  game.Move
	failed bool
	// solved shows after, the position at the end, with last.
	solved bool
	after  *game.Position
	last   game.Move
}

// view draws a puzzle at the solver's move ply: the board from the
// solver's side, what it asks, and the menus and buttons of the step.
func (d *puzzleDesk) view(in *interaction, pz *puzzle.Puzzle, ply int, v viewing) (*message, error) {
	pos, last, err := pz.At(ply)
	if err != nil {
		return nil, err
	}
	solver := pos.Turn()
	if ply > 0 {
		// The solver is the side to move at the start.
		start, _ := pz.Position()
		solver = start.Turn()
	}
	shown := pos
	opt := render.Options{Theme: d.theme(in.ctx, in.user), Size: puzzleBoardSize, Words: i18n.BoardWords{Lang: in.lang}, FastPNG: true,
		Orientation: orientationOf(solver), LastMove: last}
	switch {
	case v.solved && v.after != nil:
		shown, opt.LastMove = *v.after, v.last
	case v.failed:
		opt.Arrows = []render.Arrow{{From: v.wrong.From(), To: v.wrong.To(), Mark: render.Danger}}
	case v.hasHint:
		opt.Highlights = []render.Highlight{{Square: v.hint, Mark: render.Hint}}
	case v.hasFrom:
		opt.Highlights = []render.Highlight{{Square: v.from, Mark: render.Info}}
		for _, ms := range movesFrom(&pos, v.from) {
			opt.Arrows = append(opt.Arrows, render.Arrow{From: v.from, To: ms.Move.To(), Mark: render.Hint})
		}
	}
	var png bytes.Buffer
	if err := render.PNG(&png, &shown, opt); err != nil {
		return nil, fmt.Errorf("bot: drawing puzzle %s: %w", pz.ID, err)
	}
	m := &message{Content: strings.TrimSpace(v.note)}
	m.attach(image{name: "puzzle.png", data: png.Bytes(), alt: i18n.BoardDescription(in.lang, &shown)})
	// The puzzle's rating as its tries have moved it.
	rated := pz.Rating
	if st, err := d.play.PuzzleStatsOf(in.ctx, pz.ID, pz.Rating); err == nil {
		rated = int(math.Round(st.Rating.Rating))
	}
	e := &discordgo.MessageEmbed{Color: colorOngoing, Title: puzzleTitle(in.lang, pz.ID, rated),
		Description: puzzleTask(in.lang, pz, solver), Image: &discordgo.MessageEmbedImage{URL: "attachment://puzzle.png"}}
	if v.solved {
		e.Color = colorOver
	}
	m.Embeds = []*discordgo.MessageEmbed{e}
	rowID := func(p idPattern) string { return p.id(pz.ID, ply) }
	buttons := discordgo.ActionsRow{}
	switch {
	case v.solved:
		buttons.Components = append(buttons.Components,
			discordgo.Button{Label: tr(in.lang, "puzzle.next", nil), Style: discordgo.PrimaryButton, CustomID: idPuzzleNext.id(), Emoji: &discordgo.ComponentEmoji{Name: "➡️"}})
	case v.failed:
		buttons.Components = append(buttons.Components,
			discordgo.Button{Label: tr(in.lang, "puzzle.retry", nil), Style: discordgo.PrimaryButton, CustomID: idPuzzleRetry.id(pz.ID), Emoji: &discordgo.ComponentEmoji{Name: "🔁"}},
			discordgo.Button{Label: tr(in.lang, "puzzle.show", nil), Style: discordgo.SecondaryButton, CustomID: rowID(idPuzzleShow), Emoji: &discordgo.ComponentEmoji{Name: "📖"}},
			discordgo.Button{Label: tr(in.lang, "puzzle.next", nil), Style: discordgo.SecondaryButton, CustomID: idPuzzleNext.id(), Emoji: &discordgo.ComponentEmoji{Name: "➡️"}})
	default:
		if v.hasFrom {
			menu := discordgo.SelectMenu{CustomID: rowID(idPuzzleTo), Placeholder: tr(in.lang, "clickmove.pick_move", nil)}
			for _, ms := range movesFrom(&pos, v.from) {
				if len(menu.Options) == maxChoices {
					break
				}
				menu.Options = append(menu.Options, discordgo.SelectMenuOption{Label: ms.SAN, Value: ms.Move.UCI(),
					Description: truncate(moveDescription(in.lang, &pos, ms), 100)})
			}
			if len(menu.Options) > 0 {
				m.Components = append(m.Components, discordgo.ActionsRow{Components: []discordgo.MessageComponent{menu}})
			}
			buttons.Components = append(buttons.Components, discordgo.Button{Label: tr(in.lang, "clickmove.other_man", nil),
				Style: discordgo.SecondaryButton, CustomID: rowID(idPuzzleMen), Emoji: &discordgo.ComponentEmoji{Name: "↩️"}})
		} else if menu, ok := puzzleMenMenu(in.lang, &pos, rowID(idPuzzleMan)); ok {
			m.Components = append(m.Components, discordgo.ActionsRow{Components: []discordgo.MessageComponent{menu}})
		}
		buttons.Components = append(buttons.Components,
			discordgo.Button{Label: tr(in.lang, "puzzle.hint_button", nil), Style: discordgo.SecondaryButton, CustomID: rowID(idPuzzleHint), Emoji: &discordgo.ComponentEmoji{Name: "💡"}},
			discordgo.Button{Label: tr(in.lang, "puzzle.show", nil), Style: discordgo.SecondaryButton, CustomID: rowID(idPuzzleShow), Emoji: &discordgo.ComponentEmoji{Name: "📖"}})
	}
	m.Components = append(m.Components, buttons)
	return m, nil
}

// puzzleMenMenu is the menu of the men that can move in pos, kings
// first, then by kind and square, as a game's.
func puzzleMenMenu(lang i18n.Lang, pos *game.Position, id string) (discordgo.SelectMenu, bool) {
	g := &play.Game{}
	menu, ok := menMenuOf(lang, g, pos)
	menu.CustomID = id
	return menu, ok
}

// puzzleTitle names a puzzle: its number and rating.
func puzzleTitle(lang i18n.Lang, id string, rating int) string {
	return tr(lang, "puzzle.title", map[string]any{"ID": id, "Rating": strconv.Itoa(rating)})
}

// puzzleTask says what a puzzle asks: who moves and the goal.
func puzzleTask(lang i18n.Lang, pz *puzzle.Puzzle, solver game.Color) string {
	n := pz.SolverMoves()
	var goal string
	switch {
	case pz.Goal == puzzle.Mate:
		goal = i18n.N(lang, "puzzle.goal.mate", n, nil)
	case pz.Goal == puzzle.Freeze:
		goal = i18n.N(lang, "puzzle.goal.freeze", n, nil)
	case pz.Has(puzzle.SaveKing):
		goal = tr(lang, "puzzle.goal.save", nil)
	default:
		goal = tr(lang, "puzzle.goal.advantage", nil)
	}
	task := tr(lang, "puzzle.task", map[string]any{"ToMove": i18n.ToMove(lang, solver), "Goal": goal})
	var themes []string
	for _, t := range pz.Themes {
		if containsTheme(puzzle.VariantThemes, t) {
			themes = append(themes, tr(lang, "puzzle.theme."+string(t), nil))
		}
	}
	if len(themes) > 0 {
		task += "\n-# " + strings.Join(themes, " · ")
	}
	return task
}

func containsTheme(ts []puzzle.Theme, t puzzle.Theme) bool {
	for _, x := range ts {
		if x == t {
			return true
		}
	}
	return false
}

// The daily puzzle.

// countDaily counts a solve of the server's puzzle of the day, and
// updates the post's count.
func (d *puzzleDesk) countDaily(in *interaction, id string) {
	guild := in.i.GuildID
	if guild == "" {
		return
	}
	dp, err := d.play.DailyPuzzleOf(in.ctx, guild)
	if err != nil {
		return
	}
	day := dp.Day
	if dp.Puzzle != id || day == "" {
		// The post may be out before it is recorded: today's puzzle is
		// counted then (DailySolved).
		day = play.DayOf(d.cfg.Now())
		if pz, ok := puzzle.Daily(puzzle.Set(), day); !ok || pz.ID != id {
			return
		}
	}
	dp, added, err := d.play.DailySolved(in.ctx, guild, day, in.user)
	if err != nil {
		d.log.Warn("counting a daily puzzle's solve", "guild", guild, "user", in.user, "err", err)
		return
	}
	if added && dp.Day == day && dp.Message != "" {
		ctx := context.WithoutCancel(in.ctx)
		lang := d.locales.guildLang(ctx, guild)
		pz, ok := puzzle.ByID(id)
		if !ok {
			return
		}
		payload := map[string]any{"content": dailyText(lang, &pz, &dp)}
		if _, err := d.request(ctx, http.MethodPatch, discordgo.EndpointChannelMessage(dp.Channel, dp.Message), payload, nil); err != nil {
			d.log.Warn("updating a daily puzzle's count", "guild", guild, "err", err)
		}
	}
}

// dailyText is the daily post's text: the day, what the puzzle asks, and
// how many solved it (never how).
func dailyText(lang i18n.Lang, pz *puzzle.Puzzle, dp *play.DailyPuzzle) string {
	start, _ := pz.Position()
	return "🧩 **" + tr(lang, "puzzle.daily_title", nil) + "** · " + puzzleTitle(lang, pz.ID, pz.Rating) + "\n" +
		puzzleTask(lang, pz, start.Turn()) + "\n" + i18n.N(lang, "puzzle.daily_solvers", len(dp.Solvers), nil)
}

// deliverDailyPuzzle posts a server's daily puzzle, once a day at its
// hour: the outbox item's nonce makes a retried post the same message,
// and play records the post and puts the next day's item in one
// transaction.
func (d *puzzleDesk) deliverDailyPuzzle(ctx context.Context, it play.OutboxItem) error {
	guild, day, hour, ok := play.ParseDailyKey(it.Key)
	if !ok {
		return fmt.Errorf("bot: a daily puzzle's outbox item %q", it.Key)
	}
	dp, err := d.play.DailyPuzzleOf(ctx, guild)
	if err != nil {
		return err
	}
	if !dp.On() || dp.Day == day || dp.Hour != hour {
		return nil // turned off, posted already, or an item of an older schedule
	}
	pz, ok := puzzle.Daily(puzzle.Set(), day)
	if !ok {
		return nil
	}
	lang := d.locales.guildLang(ctx, guild)
	pos, err := pz.Position()
	if err != nil {
		return err
	}
	var png bytes.Buffer
	if err := render.PNG(&png, &pos, render.Options{Theme: d.cfg.Theme, Size: puzzleBoardSize, Words: i18n.BoardWords{Lang: lang},
		Orientation: orientationOf(pos.Turn())}); err != nil {
		return fmt.Errorf("bot: drawing the daily puzzle %s: %w", pz.ID, err)
	}
	fresh := play.DailyPuzzle{Day: day}
	m := &message{Content: dailyText(lang, &pz, &fresh)}
	m.attach(image{name: "puzzle.png", data: png.Bytes(), alt: i18n.BoardDescription(lang, &pos)})
	m.Embeds = []*discordgo.MessageEmbed{{Color: colorOngoing, Image: &discordgo.MessageEmbedImage{URL: "attachment://puzzle.png"}}}
	m.Components = []discordgo.MessageComponent{discordgo.ActionsRow{Components: []discordgo.MessageComponent{
		discordgo.Button{Label: tr(lang, "puzzle.daily_solve", nil), Style: discordgo.PrimaryButton, CustomID: idPuzzleDaily.id(pz.ID), Emoji: &discordgo.ComponentEmoji{Name: "🧩"}}}}}
	m.setNonce(nonce(it.Key))
	msg, err := d.post(ctx, dp.Channel, m)
	if err != nil {
		return err
	}
	posted, err := d.play.DailyPosted(ctx, guild, day, pz.ID, msg, d.cfg.Now())
	if err != nil {
		var x *play.Refusal
		if errors.As(err, &x) && x.Kind == play.Stale {
			return nil // recorded by an earlier delivery of the same item
		}
		return err
	}
	d.outbox.wakeUp()
	if len(posted.Solvers) > 0 {
		// Solved from the post before it was recorded: the count it
		// was posted with is behind.
		payload := map[string]any{"content": dailyText(lang, &pz, &posted)}
		if _, err := d.request(ctx, http.MethodPatch, discordgo.EndpointChannelMessage(dp.Channel, msg), payload, nil); err != nil {
			d.log.Warn("updating a daily puzzle's count", "guild", guild, "err", err)
		}
	}
	return nil
}

// dailySettings applies /server-settings' daily puzzle options, if any
// were given, and returns the line that tells them; ok is false when
// none was given.
func (d *puzzleDesk) dailySettings(in *interaction, opts map[string]*discordgo.ApplicationCommandInteractionDataOption) (changed bool, err error) {
	ch, hour, off := opts["puzzle_channel"], opts["puzzle_hour"], opts["no_daily_puzzle"]
	if ch == nil && hour == nil && (off == nil || !off.BoolValue()) {
		return false, nil
	}
	dp, err := d.play.DailyPuzzleOf(in.ctx, in.i.GuildID)
	if err != nil {
		return false, err
	}
	channel, h := dp.Channel, dp.Hour
	if ch != nil {
		channel = ch.ChannelValue(nil).ID
	}
	if hour != nil {
		h = int(hour.IntValue())
	}
	if off != nil && off.BoolValue() {
		channel = ""
	}
	if _, err := d.play.SetDailyPuzzle(in.ctx, in.i.GuildID, channel, h, d.cfg.Now()); err != nil {
		return false, err
	}
	d.outbox.wakeUp()
	return true, nil
}

// dailySettingsText tells a server's daily puzzle setting.
func (d *puzzleDesk) dailySettingsText(ctx context.Context, lang i18n.Lang, guild string) string {
	dp, err := d.play.DailyPuzzleOf(ctx, guild)
	if err != nil || !dp.On() {
		return "🧩 " + tr(lang, "serversettings.daily_off", nil)
	}
	return "🧩 " + tr(lang, "serversettings.daily_on", map[string]any{"Channel": "<#" + dp.Channel + ">", "Hour": fmt.Sprintf("%02d:00", dp.Hour)})
}

// The puzzle leaderboard.

// puzzleBoardMessage is a page of the server's puzzle leaderboard
// (the last when page is past it): rating, puzzles rated and best
// streak, with the other leaderboards' page buttons.
func (d *puzzleDesk) puzzleBoardMessage(ctx context.Context, lang i18n.Lang, guild string, page int) (*message, error) {
	board, err := d.play.PuzzleBoard(ctx, guild, math.MaxInt)
	if err != nil {
		return nil, err
	}
	pages := max(1, (len(board)+leaderboardPageSize-1)/leaderboardPageSize)
	page = min(max(page, 1), pages)
	first := (page - 1) * leaderboardPageSize
	board = board[first:min(len(board), first+leaderboardPageSize)]
	e := &discordgo.MessageEmbed{Title: tr(lang, "puzzle.board_title", nil), Color: colorOngoing}
	if len(board) == 0 {
		e.Description = tr(lang, "puzzle.board_empty", nil)
	}
	var lines []string
	for i, p := range board {
		lines = append(lines, tr(lang, "puzzle.board_line", map[string]any{"Rank": first + i + 1, "Player": mention(p.User),
			"Rating": p.Rating.Display(), "Puzzles": i18n.N(lang, "puzzle.count", p.Rated, nil), "Best": p.BestStreak}))
	}
	if len(lines) > 0 {
		e.Description = strings.Join(lines, "\n")
	}
	return &message{Embeds: []*discordgo.MessageEmbed{e}, AllowedMentions: &discordgo.MessageAllowedMentions{},
		Components: boardPageButtons(lang, boardPuzzles, page, pages)}, nil
}
