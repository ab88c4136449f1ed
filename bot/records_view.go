package bot

import (
	"bytes"
	"context"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/bwmarrin/discordgo"

	"github.com/iceagechess/iceage/game"
	"github.com/iceagechess/iceage/i18n"
	"github.com/iceagechess/iceage/play"
	"github.com/iceagechess/iceage/render"
)

const (
	// leaderboardPageSize players a page: ten lines read at a glance.
	leaderboardPageSize = 10
	// historyShown games a /history page; a select menu takes 25.
	historyShown = 10
	// gifSize is the board's side in a replay: smaller than a board
	// message's, as a GIF holds dozens of frames.
	gifSize = 384
	// nameLength bounds a player's name in a line of a table.
	nameLength = 32
	// pgnType is the media type PGN tools register for .pgn files.
	pgnType = "application/vnd.chess-pgn"
)

// leaderboardMessage is one page of a leaderboard, with buttons to the
// pages beside it.
func (rs *records) leaderboardMessage(ctx context.Context, lang i18n.Lang, guild, board string, page int) (*message, error) {
	scope, speed, _ := parseBoardScope(board)
	st, err := rs.play.Leaderboard(ctx, play.RatingScope(scopeOf(scope, guild), speed), page, leaderboardPageSize, rs.cfg.Now())
	if err != nil {
		return nil, err
	}
	e := &discordgo.MessageEmbed{Title: boardTitle(lang, scope, speed), Color: colorOngoing}
	if st.Ranked == 0 {
		e.Description = tr(lang, "leaderboard.empty", nil)
	} else {
		var lines []string
		for _, r := range st.Rows {
			lines = append(lines, i18n.N(lang, "leaderboard.line", r.Tally.Games(), map[string]any{
				"Rank": r.Rank, "Name": nameOf(play.Seat{ID: r.User, Name: r.Name}),
				"Rating": r.Rating.Display(), "WinRate": i18n.Percent(lang, r.WinRate(), 0),
			}))
		}
		e.Description = strings.Join(lines, "\n")
		e.Footer = &discordgo.MessageEmbedFooter{Text: i18n.N(lang, "leaderboard.footer", st.Ranked,
			map[string]any{"Page": st.Page, "Pages": st.Pages})}
	}
	m := &message{Embeds: []*discordgo.MessageEmbed{e}}
	m.mentionOnly()
	m.Components = boardPageButtons(lang, board, st.Page, st.Pages)
	// The page on the web is the server's correspondence leaderboard: a
	// speed's board does not link to it as if it were the same.
	if scope == scopeServer && speed == play.Correspondence {
		m.Components = rs.withLeaderboardLink(lang, guild, m.Components)
	}
	return m, nil
}

// boardPageButtons are a leaderboard's buttons to the pages beside page,
// none when it has one page: every board (board is its idLeaderboard
// scope) turns its pages with them.
func boardPageButtons(lang i18n.Lang, board string, page, pages int) []discordgo.MessageComponent {
	if pages <= 1 {
		return nil
	}
	id := func(p int) string { return idLeaderboard.id(board, p) }
	return []discordgo.MessageComponent{discordgo.ActionsRow{Components: []discordgo.MessageComponent{
		discordgo.Button{Label: tr(lang, "button.previous", nil), Style: discordgo.SecondaryButton, CustomID: id(page - 1),
			Disabled: page <= 1, Emoji: &discordgo.ComponentEmoji{Name: "◀️"}},
		discordgo.Button{Label: tr(lang, "button.next", nil), Style: discordgo.SecondaryButton, CustomID: id(page + 1),
			Disabled: page >= pages, Emoji: &discordgo.ComponentEmoji{Name: "▶️"}},
	}}}
}

// statsMessage shows a player's statistics on the server, their rating
// everywhere, their record against the viewer and their rating chart.
// speed picks the chart: the correspondence ratings', or a live speed's.
func (rs *records) statsMessage(ctx context.Context, lang i18n.Lang, guild string, target play.Seat, viewer string, speed play.Speed) (*message, error) {
	now := rs.cfg.Now()
	pr, err := rs.play.PlayerStats(ctx, guild, target.ID, viewer)
	if err != nil {
		return nil, err
	}
	global, err := rs.play.Player(ctx, "", target.ID)
	if err != nil {
		return nil, err
	}
	p := pr.Player
	if target.Name == "" {
		target.Name = p.Name
	}
	name := nameOf(target)
	e := &discordgo.MessageEmbed{Title: tr(lang, "stats.title", map[string]any{"Player": name}), Color: colorOngoing}
	m := &message{Embeds: []*discordgo.MessageEmbed{e}}
	m.mentionOnly()
	field := func(name, value string, inline bool) {
		e.Fields = append(e.Fields, &discordgo.MessageEmbedField{Name: name, Value: value, Inline: inline})
	}
	ratingText := func(p play.Player) string {
		if p.RatedGames == 0 {
			return tr(lang, "stats.unrated", nil)
		}
		r := p.Rating.At(now)
		return i18n.N(lang, "stats.rating_value", p.RatedGames, map[string]any{"Rating": r.Display(), "Deviation": int(math.Round(r.Deviation))})
	}
	if p.Total().Games() == 0 {
		e.Description = tr(lang, "stats.no_games", map[string]any{"Player": name})
		if global.RatedGames > 0 {
			field(tr(lang, "stats.global", nil), ratingText(global), true)
		}
		return m, nil
	}
	field(tr(lang, "stats.rating", nil), ratingText(p), true)
	field(tr(lang, "stats.global", nil), ratingText(global), true)
	if lines, err := rs.speedLines(ctx, lang, guild, target.ID, ratingText); err != nil {
		return nil, err
	} else if lines != "" {
		field(tr(lang, "clock.speed_ratings", nil), lines, false)
	}
	field(tr(lang, "stats.overall", nil), score(p.Total()), false)
	field(tr(lang, "stats.as_white", nil), score(p.AsWhite), true)
	field(tr(lang, "stats.as_black", nil), score(p.AsBlack), true)
	field(tr(lang, "stats.streak", nil), strconv.Itoa(p.BestStreak), false)
	field(tr(lang, "stats.frozen", nil), i18n.N(lang, "stats.frozen_value", p.FrozenLosses, nil), true)
	var openings []string
	for c, id := range [2]string{"stats.opening.white", "stats.opening.black"} {
		if f := pr.Openings[c]; f.Move != "" {
			openings = append(openings, i18n.N(lang, id, f.Games, map[string]any{"Move": f.Move}))
		}
	}
	if len(openings) > 0 {
		field(tr(lang, "stats.openings", nil), strings.Join(openings, "\n"), false)
	}
	if viewer != target.ID && pr.Versus.Games() > 0 {
		field(tr(lang, "stats.versus", map[string]any{"Player": name}), score(pr.Versus), false)
	}
	if hist := rs.tournaments.tournamentHistory(ctx, lang, guild, target.ID); hist != "" {
		field(tr(lang, "tournament.stats.title", nil), hist, false)
	}
	e.Footer = &discordgo.MessageEmbedFooter{Text: tr(lang, "stats.legend", nil)}
	history, title, current := pr.History, truncate(target.Name, nameLength), p.Rating
	if speed != play.Correspondence {
		history, title = pr.BySpeed[speed], title+" · "+speedName(lang, speed)
		sp, err := rs.play.Player(ctx, play.RatingScope(guild, speed), target.ID)
		if err != nil {
			return nil, err
		}
		current = sp.Rating
	}
	if len(history) > 0 {
		points := make([]render.RatingPoint, len(history))
		for i, h := range history {
			points[i] = render.RatingPoint{Time: h.At, Rating: h.Rating, Deviation: h.Deviation}
		}
		png, err := render.RatingChart(points, render.ChartOptions{Theme: rs.theme(ctx, viewer), Title: title, Dates: i18n.ChartDates{Lang: lang}})
		if err != nil {
			return nil, fmt.Errorf("bot: drawing the rating chart of %s: %w", target.ID, err)
		}
		m.attach(image{name: "rating.png", data: png, alt: chartAltText(lang, name, history, current.At(now))})
		e.Image = &discordgo.MessageEmbedImage{URL: "attachment://rating.png"}
	}
	return m, nil
}

// chartAltText describes a rating chart in lang.
func chartAltText(lang i18n.Lang, name string, h []play.RatingPoint, now play.Rating) string {
	hi, lo := h[0].Rating, h[0].Rating
	for _, p := range h {
		hi, lo = max(hi, p.Rating), min(lo, p.Rating)
	}
	date := func(p play.RatingPoint) string { return i18n.Date(lang, p.At) }
	return i18n.N(lang, "stats.chart_alt", len(h), map[string]any{"Player": name, "From": date(h[0]), "To": date(h[len(h)-1]),
		"Rating": now.Display(), "High": int(math.Round(hi)), "Low": int(math.Round(lo))})
}

// score writes a record as chess players do: "+5 =1 −2".
func score(t play.Tally) string { return fmt.Sprintf("+%d =%d −%d", t.Won, t.Drawn, t.Lost) }

// variantStatsMessage shows how games end, on the server and everywhere.
func (rs *records) variantStatsMessage(ctx context.Context, lang i18n.Lang, guild string) (*message, error) {
	e := &discordgo.MessageEmbed{Title: tr(lang, "variantstats.title", nil), Color: colorOngoing}
	for _, sc := range []struct{ scope, title string }{{guild, "variantstats.server"}, {"", "variantstats.global"}} {
		st, err := rs.play.VariantStats(ctx, sc.scope)
		if err != nil {
			return nil, err
		}
		value := tr(lang, "variantstats.none", nil)
		if n := st.Games(); n > 0 {
			w, bl, d := st.Shares()
			var endings []string
			for _, en := range st.Endings() {
				endings = append(endings, i18n.Reason(lang, en.Reason)+" "+i18n.Percent(lang, float64(en.Games)/float64(n), 1))
			}
			value = strings.Join([]string{
				i18n.N(lang, "variantstats.results", n, map[string]any{
					"White": i18n.Percent(lang, w, 1), "Black": i18n.Percent(lang, bl, 1), "Draws": i18n.Percent(lang, d, 1)}),
				tr(lang, "variantstats.endings", map[string]any{"Endings": strings.Join(endings, ", ")}),
				tr(lang, "variantstats.ice_ages", map[string]any{"Average": i18n.Decimal(lang, st.IceAgesPerGame(), 1)}),
			}, "\n")
		}
		e.Fields = append(e.Fields, &discordgo.MessageEmbedField{Name: tr(lang, sc.title, nil), Value: value})
	}
	m := &message{Embeds: []*discordgo.MessageEmbed{e}}
	m.mentionOnly()
	return m, nil
}

// pgnMessage attaches a game as a .pgn file.
func (rs *records) pgnMessage(ctx context.Context, lang i18n.Lang, g *play.Game) (*message, error) {
	text, err := g.PGN(rs.siteName(ctx, g.Guild))
	if err != nil {
		return nil, err
	}
	m := &message{Content: tr(lang, "pgn.caption", gameData(lang, g))}
	m.attach(image{name: fmt.Sprintf("iceage-%d.pgn", g.ID), data: []byte(text), mime: pgnType})
	m.mentionOnly()
	return m, nil
}

// gifsAtOnce is how many replays are drawn at once.
const gifsAtOnce = 2

// drawing holds a place for each replay being drawn: a replay takes a
// core and tens of megabytes while it is drawn, so a few are drawn at
// once and the others wait their turn.
type drawing struct {
	places chan struct{}
}

func newDrawing() *drawing { return &drawing{places: make(chan struct{}, gifsAtOnce)} }

// enter waits for a place, or for ctx to end; leave gives it back.
func (d *drawing) enter(ctx context.Context) error {
	select {
	case d.places <- struct{}{}:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

func (d *drawing) leave() { <-d.places }

// gifMessage attaches a game's animated replay.
func (rs *records) gifMessage(ctx context.Context, lang i18n.Lang, g *play.Game) (*message, error) {
	mt, err := g.Match()
	if err != nil {
		return nil, err
	}
	moves := mt.Moves()
	if err := rs.drawing.enter(ctx); err != nil {
		return nil, err
	}
	defer rs.drawing.leave()
	var buf bytes.Buffer
	// A long game is sampled to render.DefaultMaxFrames frames: its
	// memory and time are bounded whatever its length.
	// The replay ends on the result, also when the moves do not say it
	// (a resignation, a draw agreed, a flag).
	opt := render.Options{Theme: rs.cfg.Theme, Size: gifSize, Words: i18n.BoardWords{Lang: lang}}
	if g.Outcome.Over() {
		opt.Title = i18n.Outcome(lang, g.Outcome)
	}
	info, err := render.WriteGIF(&buf, mt.Start(), moves, opt)
	if err != nil {
		return nil, fmt.Errorf("bot: drawing the replay of game %d: %w", g.ID, err)
	}
	shown := info.Shown
	data := gameData(lang, g)
	content := tr(lang, "gif.caption", data)
	if shown < len(moves) {
		content += "\n" + i18n.N(lang, "gif.sampled", len(moves), map[string]any{"Shown": shown})
	}
	m := &message{Content: content}
	m.attach(image{name: fmt.Sprintf("iceage-%d.gif", g.ID), data: buf.Bytes(), mime: "image/gif",
		alt: i18n.N(lang, "gif.alt", (len(moves)+1)/2, data)})
	m.mentionOnly()
	return m, nil
}

// gameData fills the templates that name a game.
func gameData(lang i18n.Lang, g *play.Game) map[string]any {
	return map[string]any{"White": nameOf(g.White), "Black": nameOf(g.Black), "ID": g.ID, "Outcome": i18n.Outcome(lang, g.Outcome)}
}

// historyMessage lists a player's finished games on the server, newest
// first from before (0: the newest), with menus for their PGN and replay.
//
// see keeps out the games the asker may not see (nil: all are theirs);
// at most historyScanned games are looked at for one page.
func (rs *records) historyMessage(ctx context.Context, lang i18n.Lang, guild string, target play.Seat, before uint64, see func(*play.Game) (bool, error)) (*message, error) {
	gs, more, err := rs.visibleHistory(ctx, guild, target.ID, before, see)
	if err != nil {
		return nil, err
	}
	if target.Name == "" {
		p, err := rs.play.Player(ctx, guild, target.ID)
		if err != nil {
			return nil, err
		}
		target.Name = p.Name
	}
	name := nameOf(target)
	e := &discordgo.MessageEmbed{Title: tr(lang, "history.title", map[string]any{"Player": name}), Color: colorOngoing}
	m := &message{Embeds: []*discordgo.MessageEmbed{e}, Components: []discordgo.MessageComponent{}}
	m.mentionOnly()
	if len(gs) == 0 {
		id := "history.none"
		if before != 0 {
			id = "history.no_older"
		}
		e.Description = tr(lang, id, map[string]any{"Player": name})
		return m, nil
	}
	var lines []string
	var pgns, gifs []discordgo.SelectMenuOption
	for _, g := range gs {
		c, _ := g.ColorOf(target.ID)
		opp := g.Seat(c.Other())
		result := resultWord(lang, &g, c)
		line := "⚪ "
		if c == game.Black {
			line = "⚫ "
		}
		line += tr(lang, "history.line", map[string]any{"Result": "**" + result + "**", "Opponent": nameOf(opp)})
		if g.Outcome.Reason != game.Aborted {
			line += " · " + i18n.Reason(lang, g.Outcome.Reason)
		}
		if rc, ok := g.RatingsIn(guild); ok {
			after := int(math.Round(rc.After[c]))
			line += fmt.Sprintf(" · %d (%s)", after, signed(after-int(math.Round(rc.Before[c]))))
		}
		line += " · " + timestamp(g.Ended, "d") + fmt.Sprintf(" · `#%d`", g.ID)
		lines = append(lines, line)
		opt := discordgo.SelectMenuOption{
			Label:       truncate(tr(lang, "history.option", map[string]any{"ID": g.ID, "Opponent": seatName(opp)}), 100),
			Value:       strconv.FormatUint(g.ID, 10),
			Description: truncate(result+" · "+g.Ended.UTC().Format("2006-01-02"), 100),
		}
		pgns, gifs = append(pgns, opt), append(gifs, opt)
	}
	e.Description = strings.Join(lines, "\n")
	m.Components = []discordgo.MessageComponent{
		discordgo.ActionsRow{Components: []discordgo.MessageComponent{discordgo.SelectMenu{MenuType: discordgo.StringSelectMenu,
			CustomID: idHistoryPGN.id(), Placeholder: tr(lang, "history.pick_pgn", nil), Options: pgns}}},
		discordgo.ActionsRow{Components: []discordgo.MessageComponent{discordgo.SelectMenu{MenuType: discordgo.StringSelectMenu,
			CustomID: idHistoryGIF.id(), Placeholder: tr(lang, "history.pick_gif", nil), Options: gifs}}},
	}
	if more != 0 {
		m.Components = append(m.Components, discordgo.ActionsRow{Components: []discordgo.MessageComponent{
			discordgo.Button{Label: tr(lang, "button.older", nil), Style: discordgo.SecondaryButton,
				CustomID: idHistoryOlder.id(target.ID, more)},
		}})
	}
	return m, nil
}

// historyScanned bounds the games one page of /history looks at: the
// games of channels the asker cannot see are skipped, and each costs a
// look at its channel.
const historyScanned = 5 * historyShown

// visibleHistory returns up to historyShown finished games of user in
// guild before the game id before (0: the newest) that see lets through,
// and, when there may be older ones, the id to continue before (else 0).
func (rs *records) visibleHistory(ctx context.Context, guild, user string, before uint64, see func(*play.Game) (bool, error)) ([]play.Game, uint64, error) {
	var out []play.Game
	for scanned := 0; ; {
		gs, err := rs.play.History(ctx, user, guild, before, historyShown)
		if err != nil {
			return nil, 0, err
		}
		for i := range gs {
			scanned++
			ok := true
			if see != nil {
				if ok, err = see(&gs[i]); err != nil {
					return nil, 0, err
				}
			}
			if ok {
				out = append(out, gs[i])
			}
			before = gs[i].ID
			if len(out) == historyShown || scanned == historyScanned {
				// There may be more, unless this was the last.
				if i == len(gs)-1 && len(gs) < historyShown {
					return out, 0, nil
				}
				return out, before, nil
			}
		}
		if len(gs) < historyShown {
			return out, 0, nil
		}
	}
}

// resultWord says how game g ended for the player of colour c.
func resultWord(lang i18n.Lang, g *play.Game, c game.Color) string {
	w, decisive := g.Outcome.Winner()
	switch {
	case g.Outcome.Reason == game.Aborted:
		return tr(lang, "history.aborted", nil)
	case !decisive:
		return tr(lang, "history.drawn", nil)
	case w == c:
		return tr(lang, "history.won", nil)
	}
	return tr(lang, "history.lost", nil)
}

// signed writes a rating change with its sign: "+12", "−8", "±0".
func signed(d int) string {
	switch {
	case d > 0:
		return "+" + strconv.Itoa(d)
	case d < 0:
		return "−" + strconv.Itoa(-d)
	}
	return "±0"
}

// seatName is a player's name as plain text: the display name, or the id.
func seatName(s play.Seat) string {
	if s.Name != "" {
		return truncate(s.Name, nameLength)
	}
	return s.ID
}

// nameOf is a player's name for markdown: the display name with
// Discord's markdown escaped, or a mention when there is none.
func nameOf(s play.Seat) string {
	if s.Name == "" {
		return mention(s.ID)
	}
	return markdownEscaper.Replace(truncate(s.Name, nameLength))
}

var markdownEscaper = strings.NewReplacer(`\`, `\\`, "*", `\*`, "_", `\_`, "~", `\~`, "`", "\\`", "|", `\|`, ">", `\>`, "#", `\#`, "[", `\[`)
