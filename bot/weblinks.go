package bot

import (
	"github.com/bwmarrin/discordgo"

	"github.com/iceagechess/iceage/i18n"
	"github.com/iceagechess/iceage/play"
)

// WebLinks are the addresses of the web listener's pages (package web),
// which the bot links to: a game's live page, a server's leaderboard, a
// tournament's standings. Config.Web nil: no web listener, no links.
type WebLinks interface {
	GameURL(id uint64) string
	LeaderboardURL(guild string) string
	TournamentURL(id uint64) string
}

// withWatchLive adds, under a game's board, a row with the link to its
// live page, when the web listener is on.
func (bd *boards) withWatchLive(lang i18n.Lang, g *play.Game, rows []discordgo.MessageComponent) []discordgo.MessageComponent {
	if bd.cfg.Web == nil {
		return rows
	}
	return append(rows, discordgo.ActionsRow{Components: []discordgo.MessageComponent{
		discordgo.Button{Label: tr(lang, "web.watch_live", nil), Style: discordgo.LinkButton, URL: bd.cfg.Web.GameURL(g.ID),
			Emoji: &discordgo.ComponentEmoji{Name: "📺"}},
	}})
}

// withLeaderboardLink adds, under a server's leaderboard, a row with the
// link to its page on the web.
func (rs *records) withLeaderboardLink(lang i18n.Lang, guild string, rows []discordgo.MessageComponent) []discordgo.MessageComponent {
	if rs.cfg.Web == nil || guild == "" {
		return rows
	}
	return append(rows, discordgo.ActionsRow{Components: []discordgo.MessageComponent{
		discordgo.Button{Label: tr(lang, "web.on_the_web", nil), Style: discordgo.LinkButton, URL: rs.cfg.Web.LeaderboardURL(guild),
			Emoji: &discordgo.ComponentEmoji{Name: "🌐"}},
	}})
}

// withTournamentLink adds, under a tournament's sign-up post and its
// standings, a row with the link to its page on the web.
func (ts *tournaments) withTournamentLink(lang i18n.Lang, id uint64, rows []discordgo.MessageComponent) []discordgo.MessageComponent {
	if ts.cfg.Web == nil {
		return rows
	}
	return append(rows, discordgo.ActionsRow{Components: []discordgo.MessageComponent{
		discordgo.Button{Label: tr(lang, "web.on_the_web", nil), Style: discordgo.LinkButton, URL: ts.cfg.Web.TournamentURL(id),
			Emoji: &discordgo.ComponentEmoji{Name: "🌐"}},
	}})
}
