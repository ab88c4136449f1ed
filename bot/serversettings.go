package bot

import (
	"fmt"
	"strings"

	"github.com/bwmarrin/discordgo"

	"github.com/iceagechess/iceage/i18n"
	"github.com/iceagechess/iceage/play"
)

// /server-settings: what a server's admins choose for it — the language
// of its public posts, thread names and board descriptions (a server that
// is not a Community server reports its locale as en-US whatever its
// members speak), the default time control, whether the opponent chooses
// after a timeout, whether games get threads, and the channel challenges
// belong in, and the role whose members may organise tournaments. Discord offers the command to members with Manage Server
// (default_member_permissions); an admin may let others see it in the
// server's Integrations settings, so the bot checks the member's
// permissions itself too.

// serverAdmin answers /server-settings. It holds what every feature
// shares, the languages it forgets when the server's changes, and the
// puzzles, whose daily post it sets.
type serverAdmin struct {
	*shared
	locales *locales
	puzzles *puzzleDesk
}

func serverAdminOf(b *Bot) *serverAdmin { return b.serverAdmin }

func init() {
	addCommand(appCommand{name: "server-settings", run: runBy(serverAdminOf, (*serverAdmin).serverSettingsCommand), help: helpOther + 3, declare: declareServerSettings})
}

// manageServer is the permission /server-settings asks for.
const manageServer = discordgo.PermissionManageGuild

func declareServerSettings(cfg *Config) *discordgo.ApplicationCommand {
	lang := option("server-settings", "language", discordgo.ApplicationCommandOptionString, false)
	lang.Choices = append(lang.Choices, &discordgo.ApplicationCommandOptionChoice{Name: en("serversettings.auto"), NameLocalizations: localized("serversettings.auto"), Value: "auto"})
	for _, l := range play.Languages {
		lang.Choices = append(lang.Choices, &discordgo.ApplicationCommandOptionChoice{Name: en("choice." + l), NameLocalizations: localized("choice." + l), Value: l})
	}
	days := option("server-settings", "days", discordgo.ApplicationCommandOptionInteger, false)
	days.Choices = dayChoices(cfg.AllowedDays)
	channel := option("server-settings", "games_channel", discordgo.ApplicationCommandOptionChannel, false)
	channel.ChannelTypes = []discordgo.ChannelType{discordgo.ChannelTypeGuildText}
	puzzleChannel := option("server-settings", "puzzle_channel", discordgo.ApplicationCommandOptionChannel, false)
	puzzleChannel.ChannelTypes = []discordgo.ChannelType{discordgo.ChannelTypeGuildText}
	puzzleHour := option("server-settings", "puzzle_hour", discordgo.ApplicationCommandOptionInteger, false)
	puzzleHour.MinValue, puzzleHour.MaxValue = ptr(0.0), 23
	c := command("server-settings", lang, days,
		option("server-settings", "opponent_chooses", discordgo.ApplicationCommandOptionBoolean, false),
		option("server-settings", "threads", discordgo.ApplicationCommandOptionBoolean, false),
		channel,
		option("server-settings", "any_channel", discordgo.ApplicationCommandOptionBoolean, false),
		option("server-settings", "organiser_role", discordgo.ApplicationCommandOptionRole, false),
		option("server-settings", "no_organiser_role", discordgo.ApplicationCommandOptionBoolean, false),
		puzzleChannel, puzzleHour,
		option("server-settings", "no_daily_puzzle", discordgo.ApplicationCommandOptionBoolean, false))
	c.DefaultMemberPermissions = ptr(int64(manageServer))
	return c
}

// serverSettingsCommand shows the server's settings, or changes those
// given; only a member who may manage the server may use it.
func (sa *serverAdmin) serverSettingsCommand(in *interaction, data discordgo.ApplicationCommandInteractionData) error {
	if in.i.GuildID == "" {
		return in.tell(tr(in.lang, "error.guild_only", nil))
	}
	if in.i.Member == nil || in.i.Member.Permissions&manageServer == 0 {
		return in.tell(tr(in.lang, "serversettings.not_allowed", nil))
	}
	set, err := sa.play.ServerSettings(in.ctx, in.i.GuildID)
	if err != nil {
		return err
	}
	opts := options(data)
	if len(opts) == 0 {
		return in.tell(sa.serverSettingsText(in.lang, &set) + "\n" + sa.puzzles.dailySettingsText(in.ctx, in.lang, in.i.GuildID))
	}
	daily, err := sa.puzzles.dailySettings(in, opts)
	if err != nil {
		return err
	}
	if daily && len(opts) == countSet(opts, "puzzle_channel", "puzzle_hour", "no_daily_puzzle") {
		return in.tell("✅ " + tr(in.lang, "serversettings.saved", nil) + "\n" + sa.puzzles.dailySettingsText(in.ctx, in.lang, in.i.GuildID))
	}
	if o := opts["language"]; o != nil {
		set.Language = o.StringValue()
		if set.Language == "auto" {
			set.Language = ""
		}
	}
	if o := opts["days"]; o != nil {
		set.DefaultDays = int(o.IntValue())
		if set.DefaultDays == 0 {
			set.DefaultDays = play.NoLimitDays
		}
	}
	if o := opts["opponent_chooses"]; o != nil {
		set.OpponentChooses = toggle(o.BoolValue())
	}
	if o := opts["threads"]; o != nil {
		set.Threads = toggle(o.BoolValue())
	}
	if o := opts["games_channel"]; o != nil {
		set.GamesChannel = o.ChannelValue(nil).ID
	}
	if o := opts["any_channel"]; o != nil && o.BoolValue() {
		set.GamesChannel = ""
	}
	if o := opts["organiser_role"]; o != nil {
		set.OrganiserRole = fmt.Sprint(o.Value)
	}
	if o := opts["no_organiser_role"]; o != nil && o.BoolValue() {
		set.OrganiserRole = ""
	}
	saved, err := sa.play.SetServerSettings(in.ctx, in.i.GuildID, set, in.user, sa.cfg.Now())
	if err != nil {
		return err
	}
	sa.locales.forgetGuild(in.i.GuildID) // the language may have changed
	return in.tell("✅ " + tr(in.lang, "serversettings.saved", nil) + "\n" + sa.serverSettingsText(in.lang, &saved) + "\n" + sa.puzzles.dailySettingsText(in.ctx, in.lang, in.i.GuildID))
}

// countSet counts the options among names that were given.
func countSet(opts map[string]*discordgo.ApplicationCommandInteractionDataOption, names ...string) int {
	n := 0
	for _, name := range names {
		if opts[name] != nil {
			n++
		}
	}
	return n
}

func toggle(on bool) play.Toggle {
	if on {
		return play.On
	}
	return play.Off
}

// serverSettingsText shows a server's settings, each with its value, the
// defaults said as such.
func (sa *serverAdmin) serverSettingsText(lang i18n.Lang, s *play.ServerSettings) string {
	language := tr(lang, "serversettings.auto", nil)
	if s.Language != "" {
		language = tr(lang, "choice."+s.Language, nil)
	}
	days := tr(lang, "choice.no_limit", nil)
	if d := s.Days(sa.cfg.DefaultDays); d > 0 {
		days = i18n.DaysPerMove(lang, d)
	}
	yes := func(on bool) string {
		if on {
			return tr(lang, "serversettings.yes", nil)
		}
		return tr(lang, "serversettings.no", nil)
	}
	channel := tr(lang, "serversettings.any_channel", nil)
	if s.GamesChannel != "" {
		channel = "<#" + s.GamesChannel + ">"
	}
	role := tr(lang, "serversettings.no_role", nil)
	if s.OrganiserRole != "" {
		role = "<@&" + s.OrganiserRole + ">"
	}
	lines := []string{"**" + tr(lang, "serversettings.title", nil) + "**",
		"🌐 " + tr(lang, "serversettings.language", map[string]any{"Value": language}),
		"⏳ " + tr(lang, "serversettings.days", map[string]any{"Value": days}),
		"⚖️ " + tr(lang, "serversettings.opponent_chooses", map[string]any{"Value": yes(s.OpponentChooses.Or(sa.play.OpponentChooses()))}),
		"🧵 " + tr(lang, "serversettings.threads", map[string]any{"Value": yes(s.Threads.Or(true))}),
		"📌 " + tr(lang, "serversettings.games_channel", map[string]any{"Value": channel}),
		"🏆 " + tr(lang, "serversettings.organiser_role", map[string]any{"Value": role}),
	}
	return strings.Join(lines, "\n")
}

// serverSettings returns a guild's settings; on a failure to read them,
// the defaults (logged): a setting is never worth refusing a move for.
func (sh *shared) serverSettings(in *interaction) play.ServerSettings {
	if in.i.GuildID == "" {
		return play.ServerSettings{}
	}
	s, err := sh.play.ServerSettings(in.ctx, in.i.GuildID)
	if err != nil {
		sh.log.Warn("reading a server's settings", "guild", in.i.GuildID, "err", err)
	}
	return s
}

// challengeHere tells the user, when the server keeps its games in another
// channel, to challenge there; ok is false then.
func (cs *challenges) challengeHere(in *interaction, s *play.ServerSettings) (bool, error) {
	if s.GamesChannel == "" || s.GamesChannel == in.i.ChannelID || in.i.GuildID == "" || cs.parents.parentOf(in.ctx, in.i.ChannelID) == s.GamesChannel {
		return true, nil
	}
	return false, in.tell(tr(in.lang, "serversettings.challenge_there", map[string]any{"Channel": "<#" + s.GamesChannel + ">"}))
}
