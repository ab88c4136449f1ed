package bot

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/iceagechess/iceage/i18n"
	"github.com/iceagechess/iceage/play"
	"github.com/iceagechess/iceage/play/round"
	"github.com/iceagechess/iceage/render"
	"github.com/iceagechess/iceage/tournament"
	"github.com/iceagechess/iceage/tournament/standings"
)

// Tournaments in Discord: /tournament create opens a sign-up post with a
// Join button; the organiser starts it (or its time does); each round's
// pairings are posted with links to the games' threads; a game's end
// records its result through play's OnEnd (tournament.OnEnd), whose task
// in the outbox pairs the next round here (deliverTournament); the last
// round ends with the standings and the podium.

var (
	tournamentJoin  = pattern("tn:join:{t}")
	tournamentLeave = pattern("tn:leave:{t}")
)

// maxSwissRounds bounds /tournament create's rounds: more than a long
// Swiss needs, few enough that a sign-up post reads well.
const maxSwissRounds = 20

// tournaments answers /tournament and its sign-up's buttons, and
// renders the news of package tournament's runner. It holds what every
// feature shares, the readers' languages, the notices to players, and
// the outbox it wakes; a tournament's state is in play's records.
type tournaments struct {
	*shared
	locales *locales
	notices *notices
	outbox  *deliveries
}

func tournamentsOf(b *Bot) *tournaments { return b.tournaments }

func init() {
	addCommand(appCommand{name: "tournament", declare: declareTournament, run: runBy(tournamentsOf, (*tournaments).tournamentCommand), complete: completeAlone((*interaction).completeTimeOption), help: helpOther - 50})
	clicks.handle(tournamentJoin, tournamentClick((*tournaments).joinClick))
	clicks.handle(tournamentLeave, tournamentClick((*tournaments).leaveClick))
}

// tournamentClick reads the tournament a button's id names, and hands it on.
func tournamentClick(h func(*tournaments, *interaction, uint64) error) clickHandler {
	return clickBy(tournamentsOf, func(ts *tournaments, in *interaction, f idFields) error {
		id, err := f.num("t")
		if err != nil {
			return err
		}
		return h(ts, in, id)
	})
}

func sub(name string, opts ...*discordgo.ApplicationCommandOption) *discordgo.ApplicationCommandOption {
	o := option("tournament", name, discordgo.ApplicationCommandOptionSubCommand, false)
	o.Options = opts
	return o
}

func tournamentOption(name string, typ discordgo.ApplicationCommandOptionType, required bool, choices ...string) *discordgo.ApplicationCommandOption {
	return option("tournament", name, typ, required, choices...)
}

func declareTournament(cfg *Config) *discordgo.ApplicationCommand {
	days := tournamentOption("days", discordgo.ApplicationCommandOptionInteger, false)
	for _, d := range cfg.AllowedDays {
		c := &discordgo.ApplicationCommandOptionChoice{Value: d, Name: i18n.Days(i18n.English, d), NameLocalizations: map[discordgo.Locale]string{}}
		for _, l := range i18n.Languages()[1:] {
			for _, loc := range i18n.DiscordLocalesOf(l) {
				c.NameLocalizations[discordgo.Locale(loc)] = i18n.Days(l, d)
			}
		}
		days.Choices = append(days.Choices, c)
	}
	rounds := tournamentOption("rounds", discordgo.ApplicationCommandOptionInteger, false)
	rounds.MinValue, rounds.MaxValue = ptr(1.0), maxSwissRounds
	startIn := tournamentOption("start_in", discordgo.ApplicationCommandOptionInteger, false)
	startIn.MinValue, startIn.MaxValue = ptr(1.0), 24*14
	roundDays := tournamentOption("round_days", discordgo.ApplicationCommandOptionInteger, false)
	roundDays.MinValue, roundDays.MaxValue = ptr(1.0), 60
	name := tournamentOption("title", discordgo.ApplicationCommandOptionString, false)
	name.MaxLength = 60
	id := func() *discordgo.ApplicationCommandOption {
		o := tournamentOption("number", discordgo.ApplicationCommandOptionInteger, false)
		o.MinValue = ptr(1.0)
		return o
	}
	return command("tournament",
		sub("create",
			tournamentOption("system", discordgo.ApplicationCommandOptionString, true, "swiss", "roundrobin"),
			rounds, days,
			tournamentOption("rated", discordgo.ApplicationCommandOptionBoolean, false),
			startIn, name,
			roundDays,
			tournamentOption("adjudicate", discordgo.ApplicationCommandOptionString, false, "draw", "loss_to_move"),
			tournamentOption("double", discordgo.ApplicationCommandOptionBoolean, false),
			tournamentOption("bye", discordgo.ApplicationCommandOptionString, false, "bye_full", "bye_half", "bye_none"),
			timeOption(),
		),
		sub("join", id()), sub("withdraw", id()), sub("start", id()), sub("standings", id()))
}

func (ts *tournaments) runner() *tournament.Runner {
	return &tournament.Runner{Round: ts.round, Channel: ts.boardThread, MaxPlayers: ts.cfg.Limits.TournamentPlayers, Lot: ts.drawColour}
}

// drawColour draws the top seed's colour in round 1 by lot.
func (ts *tournaments) drawColour() tournament.Color {
	if ts.cfg.Lot() {
		return tournament.Black
	}
	return tournament.White
}

// boardThread opens the public thread a board's game is played in, in
// the tournament's channel.
func (ts *tournaments) boardThread(ctx context.Context, t *tournament.Tournament, board int) (string, error) {
	lang := ts.locales.guildLang(ctx, t.Guild)
	r := t.Played[len(t.Played)-1]
	bd := r.Boards[board]
	name := truncate(tr(lang, "tournament.thread", map[string]any{"Name": t.Name, "Round": len(t.Played),
		"White": t.Members[bd.White].Name, "Black": t.Members[bd.Black].Name}), 100)
	ch, err := ts.s.ThreadStartComplex(t.Channel, &discordgo.ThreadStart{Name: name, Type: discordgo.ChannelTypeGuildPublicThread,
		AutoArchiveDuration: threadArchiveMinutes}, discordgo.WithContext(ctx))
	if err != nil {
		return "", err
	}
	return ch.ID, nil
}

func (ts *tournaments) tournamentCommand(in *interaction, data discordgo.ApplicationCommandInteractionData) error {
	if len(data.Options) != 1 || data.Options[0].Type != discordgo.ApplicationCommandOptionSubCommand {
		return in.tell(tr(in.lang, "error.unknown_command", nil))
	}
	sc := data.Options[0]
	opts := map[string]*discordgo.ApplicationCommandInteractionDataOption{}
	for _, o := range sc.Options {
		opts[o.Name] = o
	}
	if sc.Name == "create" {
		return ts.createTournament(in, opts)
	}
	t, err := ts.pickTournament(in, opts)
	if err != nil {
		return err
	}
	switch sc.Name {
	case "join":
		return ts.joinTournament(in, t.ID, false)
	case "withdraw":
		return ts.leaveTournament(in, t.ID, false)
	case "start":
		return ts.startTournament(in, t)
	case "standings":
		// Drawing a large table can take longer than Discord waits for
		// an answer.
		if err := in.deferReply(false); err != nil {
			return err
		}
		m, err := ts.standingsMessage(in.public, t)
		if err != nil {
			return err
		}
		return in.respond(m)
	}
	return in.tell(tr(in.lang, "error.unknown_command", nil))
}

// pickTournament finds the tournament a command names (id), or the
// newest one of this channel; a tournament of another server is as good
// as none.
func (ts *tournaments) pickTournament(in *interaction, opts map[string]*discordgo.ApplicationCommandInteractionDataOption) (*tournament.Tournament, error) {
	none := func() (*tournament.Tournament, error) {
		_ = in.tell(tr(in.lang, "tournament.refused.none", nil))
		return nil, errNotHere
	}
	if o := opts["number"]; o != nil {
		v := o.IntValue()
		if v <= 0 {
			return none()
		}
		t, err := ts.runner().Get(in.ctx, uint64(v))
		if errors.Is(err, play.ErrNotFound) || err == nil && t.Guild != in.i.GuildID {
			return none()
		}
		return t, err
	}
	list, err := ts.runner().List(in.ctx, in.i.GuildID)
	if err != nil {
		return nil, err
	}
	for _, t := range list {
		if t.Channel == in.i.ChannelID {
			return t, nil
		}
	}
	return none()
}

// mayOrganise: the tournament's organiser, or anyone who may open one.
func (ts *tournaments) mayOrganise(in *interaction, t *tournament.Tournament) bool {
	return in.i.Member != nil && (in.user == t.Organiser || ts.mayOpenTournaments(in))
}

// mayOpenTournaments: a member with Manage Server, or one of the role the
// server's admins chose for organisers (/server-settings). The role is a
// server's choice rather than each tournament's, so that whoever holds it
// may open tournaments at all, and a role is never given power by the
// member who names it.
func (ts *tournaments) mayOpenTournaments(in *interaction) bool {
	m := in.i.Member
	if m == nil || in.i.GuildID == "" {
		return false
	}
	if m.Permissions&discordgo.PermissionManageGuild != 0 {
		return true
	}
	set := ts.serverSettings(in)
	return set.OrganiserRole != "" && slices.Contains(m.Roles, set.OrganiserRole)
}

func (ts *tournaments) createTournament(in *interaction, opts map[string]*discordgo.ApplicationCommandInteractionDataOption) error {
	if !ts.mayOpenTournaments(in) {
		return in.tell(tr(in.lang, "tournament.refused.create", nil))
	}
	now := ts.cfg.Now()
	t := tournament.Tournament{Guild: in.i.GuildID, Channel: in.i.ChannelID, Organiser: in.user, System: tournament.Swiss, Rounds: 5,
		DaysPerMove: ts.cfg.DefaultDays}
	if t.DaysPerMove == 0 {
		t.DaysPerMove = 3
	}
	if o := opts["system"]; o != nil && o.StringValue() == "roundrobin" {
		t.System = tournament.RoundRobin
		if d := opts["double"]; d != nil && d.BoolValue() {
			t.Cycles = 2
		}
	}
	if o := opts["rounds"]; o != nil {
		if v := o.IntValue(); v >= 1 && v <= maxSwissRounds {
			t.Rounds = int(v)
		} else {
			return in.tell(tr(in.lang, "tournament.refused.rounds", map[string]any{"Max": maxSwissRounds}))
		}
	}
	if o := opts["days"]; o != nil {
		t.DaysPerMove = int(o.IntValue())
	}
	tc, err := in.timeOptionOf(opts)
	if err != nil {
		return err
	}
	if tc.Live() {
		t.Time, t.DaysPerMove = tc, 0
	}
	if !tc.Live() && !allowed(ts.cfg.AllowedDays, t.DaysPerMove) {
		return in.tell(tr(in.lang, "tournament.refused.days", nil))
	}
	if o := opts["rated"]; o != nil {
		t.Rated = o.BoolValue()
	}
	if o := opts["start_in"]; o != nil {
		if h := o.IntValue(); h >= 1 && h <= 24*14 {
			t.StartAt = now.Add(time.Duration(h) * time.Hour)
		}
	}
	if o := opts["round_days"]; o != nil {
		if d := o.IntValue(); d >= 1 && d <= 60 {
			t.RoundDays = int(d)
		}
	}
	if o := opts["adjudicate"]; o != nil && o.StringValue() == "loss_to_move" {
		t.Adjudicate = tournament.AdjudicateLossToMove
	}
	if o := opts["bye"]; o != nil {
		switch o.StringValue() {
		case "bye_half":
			t.ByeScore = tournament.ByeHalfPoint
		case "bye_none":
			t.ByeScore = tournament.ByeNoPoint
		}
	}
	t.Name = tr(in.public, "tournament.default_name", map[string]any{"Organiser": in.seat.Name})
	if o := opts["title"]; o != nil {
		if s := strings.TrimSpace(oneLine(o.StringValue())); s != "" {
			t.Name = truncate(s, 60)
		}
	}
	created, err := ts.runner().Create(in.ctx, t, now)
	if err != nil {
		return err
	}
	post, err := ts.post(in.ctx, created.Channel, ts.signupMessage(in.public, created))
	if err != nil {
		return err
	}
	if _, err := ts.runner().Do(in.ctx, created.ID, now, func(t *tournament.Tournament) error { t.Post = post; return nil }); err != nil {
		return err
	}
	return in.tell(tr(in.lang, "tournament.created", map[string]any{"Name": created.Name, "ID": created.ID}))
}

func allowed(days []int, d int) bool {
	for _, x := range days {
		if x == d {
			return true
		}
	}
	return d == 0
}

func oneLine(s string) string {
	return strings.Map(func(r rune) rune {
		if r < ' ' || r == 0x7f {
			return ' '
		}
		return r
	}, s)
}

// tournamentRefusal tells the user why the tournament refused, or
// returns an error that is no refusal.
func (in *interaction) tournamentRefusal(t *tournament.Tournament, err error) error {
	key := ""
	switch {
	case errors.Is(err, tournament.ErrNotSigningUp):
		key = "tournament.refused.closed"
	case errors.Is(err, tournament.ErrAlreadyJoined):
		key = "tournament.refused.already"
	case errors.Is(err, tournament.ErrFull):
		key = "tournament.refused.full"
	case errors.Is(err, tournament.ErrNotMember):
		key = "tournament.refused.not_member"
	case errors.Is(err, tournament.ErrNotOrganiser):
		key = "tournament.refused.organiser"
	case errors.Is(err, tournament.ErrTooFewPlayers):
		key = "tournament.refused.too_few"
	case errors.Is(err, tournament.ErrNotRunning):
		key = "tournament.refused.not_running"
	case errors.Is(err, tournament.ErrNoPairing):
		key = "tournament.refused.no_pairing"
	default:
		return err
	}
	_ = in.tell(tr(in.lang, key, map[string]any{"Name": t.Name, "Count": len(t.Members), "Max": t.MostPlayers()}))
	return errNotHere
}

func (ts *tournaments) joinClick(in *interaction, id uint64) error {
	return ts.joinTournament(in, id, true)
}
func (ts *tournaments) leaveClick(in *interaction, id uint64) error {
	return ts.leaveTournament(in, id, true)
}

// joinTournament signs the user up with their rating in the server of
// the tournament's speed: a blitz Swiss is seeded by blitz ratings.
func (ts *tournaments) joinTournament(in *interaction, id uint64, click bool) error {
	speed := play.Correspondence
	if t, err := ts.runner().Get(in.ctx, id); err == nil {
		speed = t.Time.Speed()
	}
	rating := 0
	if p, err := ts.play.Player(in.ctx, play.RatingScope(in.i.GuildID, speed), in.user); err == nil {
		rating = int(p.Rating.Rating)
	}
	m := tournament.Member{ID: in.user, Name: in.seat.Name, Rating: rating}
	return ts.changeSignup(in, id, click, "tournament.joined", func(t *tournament.Tournament) error { return t.Join(m) })
}

func (ts *tournaments) leaveTournament(in *interaction, id uint64, click bool) error {
	return ts.changeSignup(in, id, click, "tournament.left", func(t *tournament.Tournament) error { return t.Withdraw(in.user) })
}

// changeSignup applies a join or a withdrawal and shows it on the
// sign-up post: the click's own message, or the post edited.
func (ts *tournaments) changeSignup(in *interaction, id uint64, click bool, done string, fn func(*tournament.Tournament) error) error {
	before, err := ts.runner().Get(in.ctx, id)
	if errors.Is(err, play.ErrNotFound) {
		return in.tell(tr(in.lang, "tournament.refused.none", nil))
	}
	if err != nil {
		return err
	}
	if before.Guild != in.i.GuildID {
		return in.tell(tr(in.lang, "tournament.refused.none", nil))
	}
	t, err := ts.runner().Do(in.ctx, id, ts.cfg.Now(), fn)
	if err != nil {
		return in.tournamentRefusal(before, err)
	}
	post := ts.signupMessage(in.public, t)
	if click && in.i.Message != nil && in.i.Message.ID == t.Post {
		if err := in.update(post); err != nil {
			return err
		}
		return in.tell(tr(in.lang, done, map[string]any{"Name": t.Name}))
	}
	if t.Post != "" {
		if err := ts.editPost(in.ctx, t.Channel, t.Post, post); err != nil {
			ts.log.Warn("could not update a tournament's sign-up post", "tournament", t.ID, "err", err)
		}
	}
	return in.tell(tr(in.lang, done, map[string]any{"Name": t.Name}))
}

func (ts *tournaments) editPost(ctx context.Context, channel, id string, m *message) error {
	_, err := ts.request(ctx, "PATCH", discordgo.EndpointChannelMessage(channel, id), m, m)
	return err
}

// signupMessage is the sign-up post: the terms, the players so far, and
// Join and Withdraw while sign-up is open.
func (ts *tournaments) signupMessage(lang i18n.Lang, t *tournament.Tournament) *message {
	var players []string
	for _, m := range t.Members {
		if !m.Withdrawn {
			players = append(players, mention(m.ID))
		}
	}
	list := tr(lang, "tournament.signup.nobody", nil)
	if len(players) > 0 {
		list = truncate(strings.Join(players, ", "), 1000)
	}
	when := tr(lang, "tournament.signup.by_organiser", map[string]any{"Organiser": mention(t.Organiser)})
	if !t.StartAt.IsZero() {
		when = tr(lang, "tournament.signup.starts_at", map[string]any{"Time": timestamp(t.StartAt, "f"), "In": timestamp(t.StartAt, "R")})
	}
	status := tr(lang, "tournament.status.open", nil)
	switch t.Status {
	case tournament.Running:
		status = tr(lang, "tournament.status.running", map[string]any{"Round": len(t.Played), "Rounds": t.Rounds})
	case tournament.Finished:
		status = tr(lang, "tournament.status.finished", nil)
	}
	e := &discordgo.MessageEmbed{
		Title:       truncate(t.Name, 250),
		Description: terms(lang, t) + "\n" + when,
		Fields: []*discordgo.MessageEmbedField{
			{Name: i18n.N(lang, "tournament.signup.players", len(players), nil), Value: list},
			{Name: tr(lang, "tournament.signup.status", nil), Value: status},
		},
		Footer: &discordgo.MessageEmbedFooter{Text: tr(lang, "tournament.signup.footer", map[string]any{"ID": t.ID})},
	}
	m := &message{Embeds: []*discordgo.MessageEmbed{e}, Components: []discordgo.MessageComponent{}}
	if t.Status == tournament.SigningUp || t.Status == tournament.Running && t.System == tournament.Swiss {
		m.Components = []discordgo.MessageComponent{discordgo.ActionsRow{Components: []discordgo.MessageComponent{
			discordgo.Button{Label: tr(lang, "tournament.button.join", nil), Style: discordgo.SuccessButton, CustomID: tournamentJoin.id(t.ID)},
			discordgo.Button{Label: tr(lang, "tournament.button.leave", nil), Style: discordgo.SecondaryButton, CustomID: tournamentLeave.id(t.ID)},
		}}}
	}
	m.Components = ts.withTournamentLink(lang, t.ID, m.Components)
	m.mentionOnly()
	return m
}

// terms says what kind of tournament it is: "Swiss · 5 rounds · 3 days
// per move · Rated".
func terms(lang i18n.Lang, t *tournament.Tournament) string {
	parts := []string{tr(lang, "tournament.system.swiss", nil)}
	if t.System == tournament.RoundRobin {
		parts[0] = tr(lang, "tournament.system.roundrobin", nil)
	} else {
		parts = append(parts, i18n.N(lang, "tournament.rounds", t.Rounds, nil), tr(lang, "tournament.bye_terms."+byeKey(t.ByeScore), nil))
	}
	if t.Time.Live() {
		parts = append(parts, liveTerms(lang, t.Time))
	} else if t.DaysPerMove > 0 {
		parts = append(parts, i18n.DaysPerMove(lang, t.DaysPerMove))
	}
	if t.Rated {
		parts = append(parts, tr(lang, "board.rated", nil))
	} else {
		parts = append(parts, tr(lang, "board.casual", nil))
	}
	s := strings.Join(parts, " · ")
	if t.RoundDays > 0 {
		how := tr(lang, "tournament.adjudicate.draw", nil)
		if t.Adjudicate == tournament.AdjudicateLossToMove {
			how = tr(lang, "tournament.adjudicate.loss_to_move", nil)
		}
		s += "\n" + tr(lang, "tournament.signup.round_days", map[string]any{"Days": i18n.Days(lang, t.RoundDays), "How": how})
	}
	return s
}

// byeKey names a bye's score in the messages' keys.
func byeKey(s tournament.ByeScore) string {
	switch s {
	case tournament.ByeHalfPoint:
		return "half"
	case tournament.ByeNoPoint:
		return "none"
	}
	return "full"
}

func (ts *tournaments) startTournament(in *interaction, t *tournament.Tournament) error {
	if !ts.mayOrganise(in, t) {
		return in.tell(tr(in.lang, "tournament.refused.organiser", nil))
	}
	if err := in.deferReply(true); err != nil {
		return err
	}
	now := ts.cfg.Now()
	started, err := ts.runner().Start(in.ctx, t.ID, t.Organiser, now)
	if err != nil {
		if rerr := in.tournamentRefusal(t, err); rerr != errNotHere {
			return rerr
		}
		return errNotHere
	}
	if err := ts.announce(in.ctx, started); err != nil {
		return err
	}
	return in.edit(&message{Content: tr(in.lang, "tournament.started", map[string]any{"Name": started.Name})})
}

// deliverTournament does a tournament's task from the outbox (package
// tournament runs it: Runner.RunTask) and tells its news: the round's
// pairings or the final standings, or the organiser what stops it. Each
// is told once (the posts carry nonces), however often it runs.
func (ts *tournaments) deliverTournament(ctx context.Context, it play.OutboxItem) error {
	k, err := tournament.DecodeTask(it)
	if err != nil {
		return err
	}
	n, err := ts.runner().RunTask(ctx, k, ts.cfg.Now())
	if n.Tournament != nil {
		var told error
		switch n.Kind {
		case tournament.NewsTooFewPlayers:
			told = ts.tournamentNews(ctx, n.Tournament, "tournament.news.too_few")
		case tournament.NewsNoPairing:
			told = ts.tournamentNews(ctx, n.Tournament, "tournament.news.no_pairing")
		default:
			told = ts.announce(ctx, n.Tournament)
		}
		if told != nil {
			return told
		}
	}
	return err
}

func (ts *tournaments) tournamentNews(ctx context.Context, t *tournament.Tournament, key string) error {
	lang := ts.locales.guildLang(ctx, t.Guild)
	m := &message{Content: tr(lang, key, map[string]any{"Name": t.Name, "Organiser": mention(t.Organiser)})}
	m.mentionOnly(t.Organiser)
	m.setNonce(nonce(fmt.Sprintf("tn:%d:%s:%d", t.ID, key, len(t.Played))))
	_, err := ts.post(ctx, t.Channel, m)
	return err
}

// announce posts what the tournament's state calls for, once: the
// current round's pairings, or the final standings and podium; and it
// brings the sign-up post up to date. The games' first boards are the
// outbox's, written with the games.
func (ts *tournaments) announce(ctx context.Context, t *tournament.Tournament) error {
	lang := ts.locales.guildLang(ctx, t.Guild)
	if t.Post != "" {
		if err := ts.editPost(ctx, t.Channel, t.Post, ts.signupMessage(lang, t)); err != nil {
			ts.log.Warn("could not update a tournament's sign-up post", "tournament", t.ID, "err", err)
		}
	}
	if t.Status == tournament.Finished {
		m, err := ts.podiumMessage(lang, t)
		if err != nil {
			return err
		}
		m.setNonce(nonce(fmt.Sprintf("tn:%d:final", t.ID)))
		_, err = ts.post(ctx, t.Channel, m)
		return err
	}
	if len(t.Played) == 0 {
		return nil
	}
	k := len(t.Played)
	r := t.Played[k-1]
	var lines []string
	for i, bd := range r.Boards {
		where := ""
		if bd.GameID != 0 {
			if g, err := ts.play.Game(ctx, bd.GameID); err == nil {
				where = "<#" + g.Channel + ">"
			}
		}
		lines = append(lines, tr(lang, "tournament.round.board", map[string]any{"Board": i + 1,
			"White": mention(t.Members[bd.White].ID), "Black": mention(t.Members[bd.Black].ID), "Thread": where}))
	}
	// The pairings notify only who has a bye, as the pairing decided from
	// their settings (a round paired before it decided: a mention): the
	// players of a game hear of it from its first board.
	var pings []string
	byeLine := ""
	var bye round.Tell
	if r.Bye >= 0 {
		byeLine = standings.ByeKey(t)
		bye = round.Tell{User: t.Members[r.Bye].ID, Why: round.Bye}
		if r.ByeTold != nil {
			bye = *r.ByeTold
		}
		lines = append(lines, tr(lang, byeLine, map[string]any{"Player": mention(bye.User)}))
		if bye.How == round.Mention {
			pings = append(pings, bye.User)
		}
	}
	if !r.Closes.IsZero() {
		lines = append(lines, tr(lang, "tournament.round.closes", map[string]any{"Time": timestamp(r.Closes, "f")}))
	}
	title := func(lang i18n.Lang) string {
		return "**" + tr(lang, "tournament.round.title", map[string]any{"Name": t.Name, "Round": k, "Rounds": t.Rounds}) + "**"
	}
	m := &message{Content: truncate(title(lang)+"\n"+strings.Join(lines, "\n"), 2000)}
	m.mentionOnly(pings...)
	m.setNonce(nonce(fmt.Sprintf("tn:%d:round:%d", t.ID, k)))
	if _, err := ts.post(ctx, t.Channel, m); err != nil {
		return err
	}
	if bye.How == round.DirectMessage {
		// By direct message, as they asked; a mention where the
		// tournament is played should Discord refuse it.
		err := ts.notices.tell(ctx, bye, &play.Game{Guild: t.Guild, Channel: t.Channel}, nonce(fmt.Sprintf("tn:%d:bye:%d", t.ID, k)), func(lang i18n.Lang) *message {
			m := &message{Content: title(lang) + "\n" + tr(lang, byeLine, map[string]any{"Player": mention(bye.User)})}
			m.mentionOnly()
			return m
		}, func(lang i18n.Lang) *message {
			return &message{Content: tr(lang, byeLine, map[string]any{"Player": mention(bye.User)})}
		})
		if err != nil {
			ts.log.Warn("telling a player of their bye", "tournament", t.ID, "user", bye.User, "err", err)
		}
	}
	// Each game's first board, which tells its players as their
	// settings say, is in the outbox, written with the game.
	ts.outbox.wakeUp()
	return nil
}

// standingsTable is the table a reader sees (standings.Of, which the web
// page shows too), drawn as a picture: the players' names left-aligned,
// and during a round the mark of those still playing; the legend under
// it; medals only at the end.
func standingsTable(lang i18n.Lang, t *tournament.Tournament) (render.Table, standings.Table) {
	st := standings.Of(lang, t)
	table := render.Table{Title: st.Title, Columns: st.Columns, Rows: st.Rows, Left: []int{1}}
	if st.Seeding {
		return table, st
	}
	table.Notes = []string{st.Legend}
	if st.Live {
		table.Left = append(table.Left, len(st.Columns)-1)
	}
	if t.Status == tournament.Finished {
		table.Podium = 3
	}
	return table, st
}

// standingsEmbed is the table as an embed over its picture, and the
// picture (nil for a tournament without players).
func (ts *tournaments) standingsEmbed(lang i18n.Lang, t *tournament.Tournament) (*discordgo.MessageEmbed, *image, error) {
	table, st := standingsTable(lang, t)
	var lines, alt []string
	for i, row := range table.Rows {
		p := st.Standings[i]
		if i < 25 {
			switch {
			case len(t.Played) == 0:
				lines = append(lines, fmt.Sprintf("`%2s` %s (%s)", row[0], mention(t.Members[p.Player].ID), row[2]))
			case p.Playing:
				lines = append(lines, fmt.Sprintf("`%2s` %s — **%s** · *%s*", row[0], mention(t.Members[p.Player].ID), row[2], row[len(row)-1]))
			default:
				lines = append(lines, fmt.Sprintf("`%2s` %s — **%s**", row[0], mention(t.Members[p.Player].ID), row[2]))
			}
		}
		alt = append(alt, row[0]+". "+row[1]+" "+row[2])
	}
	if st.Legend != "" {
		lines = append(lines, "-# "+st.Legend)
	}
	e := &discordgo.MessageEmbed{Title: truncate(table.Title, 250), Description: truncate(strings.Join(lines, "\n"), 4000)}
	if len(table.Rows) == 0 {
		e.Description = tr(lang, "tournament.signup.nobody", nil)
		return e, nil, nil
	}
	png, err := render.TablePNG(table, ts.cfg.Theme)
	if err != nil {
		return nil, nil, err
	}
	e.Image = &discordgo.MessageEmbedImage{URL: "attachment://standings.png"}
	return e, &image{name: "standings.png", data: png, mime: "image/png",
		alt: tr(lang, "tournament.standings.alt", map[string]any{"Name": t.Name, "Lines": strings.Join(alt, "; ")})}, nil
}

// standingsMessage is the table as an embed and as a picture.
func (ts *tournaments) standingsMessage(lang i18n.Lang, t *tournament.Tournament) (*message, error) {
	e, img, err := ts.standingsEmbed(lang, t)
	if err != nil {
		return nil, err
	}
	m := &message{Embeds: []*discordgo.MessageEmbed{e}}
	if img != nil {
		m.attach(*img)
	}
	m.Components = ts.withTournamentLink(lang, t.ID, m.Components)
	m.mentionOnly()
	return m, nil
}

// podium is the first three of the final standings, players tied
// sharing a rank, for the podium's picture.
func podium(lang i18n.Lang, t *tournament.Tournament, st []tournament.Standing) render.Podium {
	p := render.Podium{Title: t.Name}
	for i := 0; i < len(st) && i < 3; i++ {
		p.Places = append(p.Places, render.PodiumPlace{Rank: min(st[i].Rank, 3), Name: t.Members[st[i].Player].Name, Score: i18n.Points(lang, int(st[i].Score), 2)})
	}
	if len(t.Played) > 0 {
		from, to := t.Played[0].Started, t.Ended
		if to.IsZero() {
			to = t.Played[len(t.Played)-1].Started
		}
		p.Dates = i18n.Date(lang, from)
		if d := i18n.Date(lang, to); d != p.Dates {
			p.Dates = tr(lang, "tournament.podium.dates", map[string]any{"From": p.Dates, "To": d})
		}
	}
	return p
}

// podiumMessage ends a tournament: the first three in words and in a
// podium's picture, with the final table beside them.
func (ts *tournaments) podiumMessage(lang i18n.Lang, t *tournament.Tournament) (*message, error) {
	e, img, err := ts.standingsEmbed(lang, t)
	if err != nil {
		return nil, err
	}
	st := t.Standings()
	medals := []string{"🥇", "🥈", "🥉"}
	var lines, alt []string
	for i := 0; i < len(st) && i < 3; i++ {
		score := i18n.Points(lang, int(st[i].Score), 2)
		lines = append(lines, fmt.Sprintf("%s %s (%s)", medals[min(st[i].Rank, 3)-1], mention(t.Members[st[i].Player].ID), score))
		alt = append(alt, fmt.Sprintf("%d. %s %s", min(st[i].Rank, 3), t.Members[st[i].Player].Name, score))
	}
	m := &message{Content: "**" + tr(lang, "tournament.final.title", map[string]any{"Name": t.Name}) + "**\n" + strings.Join(lines, "\n")}
	if len(st) > 0 {
		pic, err := render.PodiumPNG(podium(lang, t, st), ts.cfg.Theme)
		if err != nil {
			return nil, err
		}
		m.Embeds = append(m.Embeds, &discordgo.MessageEmbed{Title: truncate(tr(lang, "tournament.final.table", map[string]any{"Name": t.Name}), 250),
			Image: &discordgo.MessageEmbedImage{URL: "attachment://podium.png"}})
		m.attach(image{name: "podium.png", data: pic, mime: "image/png",
			alt: tr(lang, "tournament.podium.alt", map[string]any{"Name": t.Name, "Lines": strings.Join(alt, "; ")})})
		e.Title = ""
	}
	m.Embeds = append(m.Embeds, e)
	if img != nil {
		m.attach(*img)
	}
	m.mentionOnly()
	return m, nil
}

// tournamentHistory lists the user's latest tournaments in the guild
// with their place, for /stats ("" for none).
func (ts *tournaments) tournamentHistory(ctx context.Context, lang i18n.Lang, guild, user string) string {
	list, err := ts.runner().List(ctx, guild)
	if err != nil {
		ts.log.Warn("reading a guild's tournaments for /stats", "guild", guild, "err", err)
		return ""
	}
	var lines []string
	for _, t := range list {
		if len(lines) == 5 {
			break
		}
		if t.Status == tournament.SigningUp {
			continue
		}
		for _, s := range t.Standings() {
			if t.Members[s.Player].ID != user {
				continue
			}
			data := map[string]any{"Name": t.Name, "Place": s.Rank, "Of": len(t.Members), "Points": i18n.Points(lang, int(s.Score), 2), "Round": len(t.Completed().Players[0].Games)}
			key := "tournament.stats.running"
			if t.Status == tournament.Finished {
				key = "tournament.stats.finished"
			}
			lines = append(lines, tr(lang, key, data))
		}
	}
	return strings.Join(lines, "\n")
}
