package bot

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/iceagechess/iceage/game"
	"github.com/iceagechess/iceage/i18n"
	"github.com/iceagechess/iceage/play"
)

// Correspondence play in Discord: /games, /vacation, /premove and
// /settings, the choice after a timeout, and what boards say of
// vacations and timeouts. The scheduler's news is told in notify.go.

// gamesShown is how many games /games lists; a select menu takes 25.
const (
	gamesShown   = 20
	gamesOptions = 25
)

// premoveMaxLength bounds /premove's text: a dozen lines of moves.
const premoveMaxLength = 300

// languageChoices are the values /settings language takes.
var languageChoices = []string{"auto", "en", "fr", "ru", "nb", "es", "nl"}

func init() {
	addCommand(appCommand{name: "games", reach: anywhere, run: (*Bot).gamesCommand, help: helpCorrespondence + 1, declare: plain("games")})
	addCommand(appCommand{name: "premove", reach: anywhere, run: (*Bot).premoveCommand, help: helpCorrespondence + 2,
		declare: func(*Config) *discordgo.ApplicationCommand {
			line := option("premove", "line", discordgo.ApplicationCommandOptionString, false)
			line.MaxLength = premoveMaxLength
			return command("premove", line, option("premove", "clear", discordgo.ApplicationCommandOptionBoolean, false))
		}})
	addCommand(appCommand{name: "vacation", run: (*Bot).vacationCommand, help: helpCorrespondence + 3, declare: declareVacation})
	addCommand(appCommand{name: "settings", reach: anywhere, run: (*Bot).settingsCommand, help: helpCorrespondence + 4,
		declare: func(*Config) *discordgo.ApplicationCommand {
			reminders := option("settings", "reminders", discordgo.ApplicationCommandOptionString, false)
			reminders.MaxLength = 40
			return command("settings",
				option("settings", "notifications", discordgo.ApplicationCommandOptionString, false, play.NotifyMention, play.NotifyDM, play.NotifyNone),
				reminders,
				option("settings", "language", discordgo.ApplicationCommandOptionString, false, languageChoices...))
		}})
	clicks.handle(idGamesOpen, func(b *Bot, in *interaction, _ idFields) error { return b.gamesSelect(in) })
	clicks.handle(idClaimWin, gameAct((*Bot).claimWinClick))
	clicks.handle(idClaimDraw, gameAct((*Bot).claimDrawClick))
}

var (
	// idGamesOpen is /games' menu; its value is the game's id.
	idGamesOpen = pattern("gs:open")
	// idClaimWin and idClaimDraw are the choice after the opponent's
	// time ran out.
	idClaimWin  = gamePattern("cwin")
	idClaimDraw = gamePattern("cdraw")
)

// declareVacation declares /vacation; the yearly allowance is the most
// it takes at once.
func declareVacation(cfg *Config) *discordgo.ApplicationCommand {
	days := option("vacation", "days", discordgo.ApplicationCommandOptionInteger, true)
	days.MinValue = ptr(0.0)
	// A MaxValue of 0 would go unsent (omitempty): with no allowance,
	// play refuses every vacation and says why.
	days.MaxValue = float64(max(cfg.VacationDays, 0))
	return command("vacation", days)
}

// prepare notes an interaction's languages for later news, and answers
// the user in the language they chose in /settings, if any.
func (b *Bot) prepare(in *interaction) {
	b.remember(in)
	if in.i.Type == discordgo.InteractionApplicationCommandAutocomplete || in.user == "" {
		return
	}
	// The settings only choose the language, and Discord's locale will
	// do: a database slow to give them must not eat the three seconds
	// the interaction's answer (or apology) has.
	ctx, cancel := context.WithTimeout(in.ctx, prefsWait)
	defer cancel()
	if p := b.prefs(ctx, in.user); p.Language != "" {
		in.lang = i18n.Lang(p.Language)
	}
	if s := b.serverSettings(in); s.Language != "" {
		in.public = i18n.Lang(s.Language)
	}
}

// prefsWait is how long an interaction waits for its user's settings.
const prefsWait = 500 * time.Millisecond

// myMove reports whether user is the one to act in g: to move, or to
// choose after the opponent's time ran out.
func myMove(g *play.Game, user string) bool {
	if g.Flag != nil {
		return g.Flag.By == user
	}
	return g.ToMove().ID == user
}

// gamesCommand is /games: the user's active games in this server, those
// where they are to act first, then by deadline.
func (b *Bot) gamesCommand(in *interaction, _ discordgo.ApplicationCommandInteractionData) error {
	all, err := b.play.ActiveGames(in.ctx, in.user)
	if err != nil {
		return err
	}
	var gs []play.Game
	for _, g := range all {
		if g.Guild == in.i.GuildID {
			gs = append(gs, g)
		}
	}
	sortGames(gs, in.user)
	m := gamesMessage(in.lang, in.user, gs, b.prefs(in.ctx, in.user), b.cfg.Now)
	if in.i.GuildID == "" {
		// In a DM: the games of DMs, each with its link.
		e := m.Embeds[0]
		e.Title = tr(in.lang, "install.games_title", nil)
		if len(gs) == 0 {
			e.Description = strings.Replace(e.Description, tr(in.lang, "games.none", nil), tr(in.lang, "install.games_none", nil), 1)
		}
	}
	m.Flags = discordgo.MessageFlagsEphemeral
	return in.respond(m)
}

// sortGames puts the games where user is to act first, then the others,
// each by deadline (none last), then by age.
func sortGames(gs []play.Game, user string) {
	slices.SortStableFunc(gs, func(a, b play.Game) int {
		ma, mb := myMove(&a, user), myMove(&b, user)
		if ma != mb {
			if ma {
				return -1
			}
			return 1
		}
		if a.Deadline.IsZero() != b.Deadline.IsZero() {
			if a.Deadline.IsZero() {
				return 1
			}
			return -1
		}
		return cmp.Or(a.Deadline.Compare(b.Deadline), cmp.Compare(a.ID, b.ID))
	})
}

// gamesMessage is /games' answer: an embed with a line per game and a
// menu to open one.
func gamesMessage(lang i18n.Lang, user string, gs []play.Game, p play.Prefs, now func() time.Time) *message {
	m := &message{}
	e := &discordgo.MessageEmbed{Title: tr(lang, "games.title", nil), Color: colorOngoing}
	m.Embeds = []*discordgo.MessageEmbed{e}
	var head []string
	if p.Away(now()) {
		head = append(head, "🏖️ "+tr(lang, "games.you_away", map[string]any{"When": timestamp(p.AwayUntil, "f")}))
	}
	if len(gs) == 0 {
		e.Description = strings.Join(append(head, tr(lang, "games.none", nil)), "\n")
		return m
	}
	mine := 0
	for i := range gs {
		if myMove(&gs[i], user) {
			mine++
		}
	}
	head = append(head, i18n.N(lang, "games.your_move_count", mine, nil))
	var lines []string
	for i := range gs[:min(len(gs), gamesShown)] {
		lines = append(lines, gameLine(lang, user, &gs[i], now()))
	}
	if n := len(gs) - gamesShown; n > 0 {
		lines = append(lines, i18n.N(lang, "games.more", n, nil))
	}
	e.Description = truncate(strings.Join(head, "\n")+"\n\n"+strings.Join(lines, "\n\n"), 4096)
	menu := discordgo.SelectMenu{CustomID: idGamesOpen.id(), Placeholder: tr(lang, "games.select", nil)}
	for i := range gs[:min(len(gs), gamesOptions)] {
		g := &gs[i]
		opp := opponentOf(g, user)
		name := opp.Name
		if name == "" {
			name = opp.ID
		}
		pos, _ := g.Position()
		desc := tr(lang, "games.option_their_move", map[string]any{"Number": pos.FullMoveNumber()})
		if myMove(g, user) {
			desc = tr(lang, "games.option_your_move", map[string]any{"Number": pos.FullMoveNumber()})
		}
		menu.Options = append(menu.Options, discordgo.SelectMenuOption{
			Label: truncate(tr(lang, "games.vs", map[string]any{"Opponent": name}), 100), Value: strconv.FormatUint(g.ID, 10),
			Description: truncate(desc+" · #"+strconv.FormatUint(g.ID, 10), 100)})
	}
	m.Components = []discordgo.MessageComponent{discordgo.ActionsRow{Components: []discordgo.MessageComponent{menu}}}
	return m
}

// gameLine is one game in /games.
func gameLine(lang i18n.Lang, user string, g *play.Game, now time.Time) string {
	opp := opponentOf(g, user)
	pos, _ := g.Position()
	var state string
	switch {
	case g.Flag != nil && g.Flag.By == user:
		state = "⚖️ **" + tr(lang, "games.you_choose", nil) + "**"
	case g.Flag != nil:
		state = "⚖️ " + tr(lang, "games.they_choose", nil)
	case g.ToMove().ID == user:
		state = "🟢 **" + tr(lang, "games.your_move", nil) + "**"
	default:
		state = "⚪ " + tr(lang, "games.their_move", nil)
	}
	first := []string{state, tr(lang, "games.vs", map[string]any{"Opponent": mention(opp.ID)}),
		tr(lang, "games.move", map[string]any{"Number": pos.FullMoveNumber()}), channelRef(g)}
	var second []string
	if !g.Deadline.IsZero() {
		second = append(second, "⏳ "+tr(lang, "games.due", map[string]any{"When": timestamp(g.Deadline, "R")}))
	} else {
		second = append(second, "⏳ "+tr(lang, "choice.no_limit", nil))
	}
	second = append(second, "❄️ "+i18n.IceAgeCountdown(lang, &pos))
	for _, c := range []game.Color{game.White, game.Black} {
		if g.Away(c, now) {
			second = append(second, "🏖️ "+tr(lang, "games.away", map[string]any{"Player": mention(g.Seat(c).ID), "When": timestamp(g.AwayUntil[c], "d")}))
		}
	}
	if q := g.Premoves; q != nil && q.By == user {
		second = append(second, "📋 "+i18n.N(lang, "games.premoves", len(q.Lines), nil))
	}
	return strings.Join(first, " · ") + "\n" + strings.Join(second, " · ")
}

// gamesSelect opens a game chosen in /games' menu: its board is posted
// in its thread, where the buttons work.
func (b *Bot) gamesSelect(in *interaction) error {
	id, err := menuNumber(in)
	if err != nil {
		return err
	}
	g, err := b.play.PlayersGame(in.ctx, id, in.user)
	if err != nil {
		return err
	}
	m, err := b.boardMessage(in.ctx, b.guildLang(in.ctx, g.Guild), view{g: &g, buttons: !g.Over() && g.Flag == nil})
	if err != nil {
		return err
	}
	if g.Flag != nil {
		m.Components = claimButtons(b.guildLang(in.ctx, g.Guild), &g)
	}
	if g.Private {
		// The bot may not post in the game's DM: the board is for the
		// asker alone, with the way to it; they act there.
		m.Components = []discordgo.MessageComponent{}
		m.Content = tr(in.lang, "install.board_there", map[string]any{"Game": gameLink(&g)})
		m.Flags = discordgo.MessageFlagsEphemeral
		return in.respond(m)
	}
	// Posting may wait on Discord: acknowledge first.
	if err := in.deferReply(true); err != nil {
		return err
	}
	if _, err := b.post(in.ctx, g.Channel, m); err != nil {
		return err
	}
	return in.tell(tr(in.lang, "games.posted", map[string]any{"Channel": channelRef(&g)}))
}

// correspondenceStatus adds to a board's status what correspondence
// brings: a timeout's choice, and the players on vacation.
func (b *Bot) correspondenceStatus(ctx context.Context, lang i18n.Lang, g *play.Game) []string {
	var lines []string
	if f := g.Flag; f != nil {
		lines = append(lines, "⌛ "+tr(lang, "board.flag", map[string]any{"Loser": mention(opponentOf(g, f.By).ID), "Player": mention(f.By),
			"Until": timestamp(g.Deadline, "f")}))
	}
	now := b.cfg.Now()
	for _, c := range []game.Color{game.White, game.Black} {
		if g.Away(c, now) {
			lines = append(lines, "🏖️ "+tr(lang, "board.away", map[string]any{"Player": mention(g.Seat(c).ID), "When": timestamp(g.AwayUntil[c], "f")}))
		}
	}
	return lines
}

// claimWinClick and claimDrawClick are the choice of a player whose
// opponent ran out of time.
func (b *Bot) claimWinClick(in *interaction, a play.Act) error {
	r, err := b.play.ClaimWin(in.ctx, a)
	if err != nil {
		return err
	}
	b.tellClaimPrivately(in, &r, "timeout.claimed_win")
	return b.respondEnd(in, &r, tr(in.public, "timeout.claimed_win", map[string]any{"Player": mention(in.user)}))
}

func (b *Bot) claimDrawClick(in *interaction, a play.Act) error {
	r, err := b.play.ClaimDraw(in.ctx, a)
	if err != nil {
		return err
	}
	b.tellClaimPrivately(in, &r, "timeout.claimed_draw")
	return b.respondEnd(in, &r, tr(in.public, "timeout.claimed_draw", map[string]any{"Player": mention(in.user)}))
}

// vacationCommand is /vacation days: away for days, or back with 0.
func (b *Bot) vacationCommand(in *interaction, data discordgo.ApplicationCommandInteractionData) error {
	days := 0
	if o := options(data)["days"]; o != nil {
		days = int(o.IntValue())
	}
	if days < 0 {
		days = 0
	}
	away, err := b.play.Vacation(in.ctx, in.user, days, b.cfg.Now())
	if err != nil {
		return err
	}
	var lines []string
	if away.Back {
		lines = append(lines, "👋 "+tr(in.lang, "vacation.back", nil))
	} else {
		lines = append(lines, "🏖️ "+tr(in.lang, "vacation.started", map[string]any{"Until": timestamp(away.Until, "f")}))
		if len(away.Games) > 0 {
			lines = append(lines, i18n.N(in.lang, "vacation.paused", len(away.Games), nil))
		}
	}
	lines = append(lines, i18n.N(in.lang, "vacation.left", away.Left, nil))
	if err := in.tell(strings.Join(lines, "\n")); err != nil {
		return err
	}
	b.announceAway(in.ctx, in.user, away)
	return nil
}

// announceAway tells the opponents, in each game's thread and without a
// ping, that a player's clock stands still, or runs again.
func (b *Bot) announceAway(ctx context.Context, user string, away play.Away) {
	gs, err := b.play.ActiveGames(ctx, user)
	if err != nil {
		b.log.Warn("listing games to announce a vacation", "user", user, "err", err)
		return
	}
	for _, g := range gs {
		note := func(lang i18n.Lang, where string) *message {
			text := "🏖️ " + tr(lang, "vacation.note", map[string]any{"Player": mention(user), "Until": timestamp(away.Until, "f")})
			if away.Back {
				text = "👋 " + tr(lang, "vacation.note_back", map[string]any{"Player": mention(user)})
			}
			m := &message{Content: strings.TrimSpace(text + "\n" + where)}
			m.mentionOnly()
			return m
		}
		if g.Private {
			// No post in a DM without the bot: the opponent hears it alone.
			if err := b.tellPrivately(ctx, opponentOf(&g, user).ID, &g, func(lang i18n.Lang) *message { return note(lang, gameLink(&g)) }); err != nil {
				b.log.Warn("announcing a vacation", "game", g.ID, "err", err)
			}
			continue
		}
		m := note(b.guildLang(ctx, g.Guild), "")
		if _, err := b.post(ctx, g.Channel, m); err != nil {
			b.log.Warn("announcing a vacation", "game", g.ID, "err", err)
		}
	}
}

// premoveCommand is /premove: queue conditional moves (line), drop them
// (clear), or show them. Everything it says is for the asker alone.
func (b *Bot) premoveCommand(in *interaction, data discordgo.ApplicationCommandInteractionData) error {
	g, err := b.gameHere(in)
	if err != nil {
		return err
	}
	opts := options(data)
	text := ""
	if o := opts["line"]; o != nil {
		text = o.StringValue()
	}
	clear := opts["clear"] != nil && opts["clear"].BoolValue()
	var lines [][]string
	switch {
	case clear:
	case strings.TrimSpace(text) != "":
		if q := g.Premoves; q != nil && q.By == in.user {
			lines = append(lines, q.Lines...)
		}
		lines = append(lines, parseLines(text)...)
	default:
		return in.tell(premoveText(in.lang, &g, in.user))
	}
	r, err := b.play.Premove(in.ctx, b.act(in, &g), lines)
	if err != nil {
		return err
	}
	if clear && text == "" {
		return in.tell(tr(in.lang, "premove.cleared", nil))
	}
	return in.tell(premoveText(in.lang, &r.Game, in.user))
}

// parseLines reads /premove's text: lines separated by ";" (or new
// lines), each moves separated by spaces or commas, move numbers ("12.",
// "12...") left out.
func parseLines(text string) [][]string {
	var out [][]string
	for _, l := range strings.FieldsFunc(text, func(r rune) bool { return r == ';' || r == '\n' || r == '|' }) {
		var moves []string
		for _, f := range strings.FieldsFunc(l, func(r rune) bool { return r == ' ' || r == ',' || r == '\t' }) {
			f = strings.TrimLeft(f, "0123456789")
			f = strings.TrimLeft(f, ".…")
			if f != "" {
				moves = append(moves, f)
			}
		}
		if len(moves) > 0 {
			out = append(out, moves)
		}
	}
	return out
}

// premoveText shows user's queue of conditional moves in g, in SAN.
func premoveText(lang i18n.Lang, g *play.Game, user string) string {
	q := g.Premoves
	if q == nil || q.By != user || len(q.Lines) == 0 {
		return tr(lang, "premove.none", nil)
	}
	start, err := g.Position()
	if err != nil {
		return tr(lang, "premove.none", nil)
	}
	var out []string
	for i, l := range q.Lines {
		pos := start
		var steps []string
		for k := 0; k+1 < len(l); k += 2 {
			var pair [2]string
			for j := range 2 {
				mv, err := game.ParseUCI(l[k+j])
				if err != nil {
					pair[j] = l[k+j]
					continue
				}
				pair[j] = pos.SAN(mv)
				pos = pos.Apply(mv)
			}
			steps = append(steps, pair[0]+" → **"+pair[1]+"**")
		}
		out = append(out, fmt.Sprintf("%d. %s", i+1, strings.Join(steps, " · ")))
	}
	return tr(lang, "premove.header", nil) + "\n" + strings.Join(out, "\n")
}

// settingsCommand is /settings: with options it changes them, without it
// shows them.
func (b *Bot) settingsCommand(in *interaction, data discordgo.ApplicationCommandInteractionData) error {
	p := b.prefs(in.ctx, in.user)
	opts := options(data)
	if len(opts) == 0 {
		return in.tell(settingsText(in.lang, &p, b.cfg.Now))
	}
	if o := opts["notifications"]; o != nil {
		p.Notifications = o.StringValue()
	}
	if o := opts["language"]; o != nil {
		p.Language = o.StringValue()
		if p.Language == "auto" {
			p.Language = ""
		}
	}
	if o := opts["reminders"]; o != nil {
		hours, ok := parseHours(o.StringValue())
		if !ok {
			return in.tell(tr(in.lang, "settings.bad_reminders", nil))
		}
		p.Reminders = hours
	}
	saved, err := b.play.SetPrefs(in.ctx, in.user, p, b.cfg.Now())
	if err != nil {
		return err
	}
	// The answer speaks the language just chosen, or the client's if
	// the choice is to follow it.
	var lang i18n.Lang
	if saved.Language != "" {
		lang = i18n.Lang(saved.Language)
	} else {
		lang = b.language(string(in.i.Locale))
	}
	return in.tell("✅ " + tr(lang, "settings.saved", nil) + "\n" + settingsText(lang, &saved, b.cfg.Now))
}

// parseHours reads reminder hours, "24 1" or "24h, 1h"; "0" means none.
func parseHours(text string) ([]int, bool) {
	fields := strings.FieldsFunc(strings.ToLower(text), func(r rune) bool { return r == ' ' || r == ',' || r == ';' })
	if len(fields) == 0 {
		return nil, false
	}
	hours := []int{}
	for _, f := range fields {
		n, err := strconv.Atoi(strings.TrimRight(f, "hчtu"))
		switch {
		case err != nil || n < 0 || n > play.MaxReminderHours:
			return nil, false
		case n > 0:
			hours = append(hours, n)
		}
	}
	if len(hours) > play.MaxReminders {
		return nil, false
	}
	return hours, true
}

// settingsText shows a user's settings.
func settingsText(lang i18n.Lang, p *play.Prefs, now func() time.Time) string {
	notify := p.Notifications
	if notify == "" {
		notify = play.NotifyMention
	}
	lines := []string{"**" + tr(lang, "settings.title", nil) + "**",
		"🔔 " + tr(lang, "settings.notifications", map[string]any{"Value": tr(lang, "choice."+notify, nil)})}
	switch {
	case p.Reminders == nil:
		lines = append(lines, "⏳ "+tr(lang, "settings.reminders_default", map[string]any{"Value": hoursText(lang, play.DefaultReminders)}))
	case len(p.Reminders) == 0:
		lines = append(lines, "⏳ "+tr(lang, "settings.reminders_none", nil))
	default:
		lines = append(lines, "⏳ "+tr(lang, "settings.reminders", map[string]any{"Value": hoursText(lang, p.Reminders)}))
	}
	language := "auto"
	if p.Language != "" {
		language = p.Language
	}
	lines = append(lines, "🌐 "+tr(lang, "settings.language", map[string]any{"Value": tr(lang, "choice."+language, nil)}))
	if p.Away(now()) {
		lines = append(lines, "🏖️ "+tr(lang, "games.you_away", map[string]any{"When": timestamp(p.AwayUntil, "f")}))
	}
	if !p.DMRefused.IsZero() {
		lines = append(lines, "✉️ "+tr(lang, "settings.dm_refused", nil))
	}
	return strings.Join(lines, "\n")
}

func hoursText(lang i18n.Lang, hours []int) string {
	parts := make([]string, len(hours))
	for i, h := range hours {
		parts[i] = i18n.N(lang, "count.hours", h, nil)
	}
	return strings.Join(parts, ", ")
}
