package main

import (
	"log/slog"
	"sync/atomic"

	"github.com/iceagechess/iceage/activity"
	"github.com/iceagechess/iceage/bot"
	"github.com/iceagechess/iceage/config"
	"github.com/iceagechess/iceage/i18n"
	"github.com/iceagechess/iceage/play"
	"github.com/iceagechess/iceage/play/round"
	"github.com/iceagechess/iceage/web"
)

// activityDoor is the Discord Activity on the web listener. It is made
// before the bot (whose Play here clicks it hears of) and started after
// it (whose round plays its moves).
type activityDoor struct {
	srv atomic.Pointer[activity.Server]
}

// launched is bot.ActivityConfig.Launched; nil-safe, since the bot may
// be made without an Activity.
func (d *activityDoor) launched(user, channel string, game uint64) {
	if d == nil {
		return
	}
	if s := d.srv.Load(); s != nil {
		s.Launched(user, channel, game)
	}
}

// challengeEnded is bot.ActivityConfig.ChallengeEnded; nil-safe as
// launched.
func (d *activityDoor) challengeEnded(c play.Challenge, how round.Answer) {
	if d == nil {
		return
	}
	if s := d.srv.Load(); s != nil {
		s.ChallengeEnded(c, how)
	}
}

// start serves the Activity under activity.Prefix on the web listener.
func (d *activityDoor) start(cfg config.Config, b *bot.Bot, w *web.Server, log *slog.Logger) error {
	s, err := activity.New(activity.Options{ClientID: cfg.Discord.ClientID, ClientSecret: cfg.Discord.ClientSecret,
		BotToken: cfg.Discord.Token, DiscordURL: cfg.Discord.APIURL, Round: b.Round(), Web: w, Language: i18n.Lang(cfg.Language), Logger: log,
		DefaultDays: cfg.Play.DefaultDays, Caps: b.ChallengeCaps(), Engine: b.EngineSeat})
	if err != nil {
		return err
	}
	s.Mount()
	d.srv.Store(s)
	return nil
}
