package main

import (
	"context"
	"crypto/ed25519"
	"encoding/hex"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"
	"time"

	"github.com/iceagechess/iceage/bot"
	"github.com/iceagechess/iceage/config"
	"github.com/iceagechess/iceage/internal/connlimit"
	"github.com/iceagechess/iceage/internal/discordurl"
	"github.com/iceagechess/iceage/ops"
	"github.com/iceagechess/iceage/pgstore"
	"github.com/iceagechess/iceage/play"
	"github.com/iceagechess/iceage/play/stream"
	"github.com/iceagechess/iceage/render"
	"github.com/iceagechess/iceage/schedule"
	"github.com/iceagechess/iceage/store"
	"github.com/iceagechess/iceage/tournament"
	"github.com/iceagechess/iceage/web"
)

func init() {
	register("run", "run the Discord bot (what the program does without a subcommand)", runBot)
}

// noToken is what an admin reads when the bot cannot start for want of a
// token: where to put one, and how to play without.
//
// #nosec G101 -- advice on where to put a token, not a token
const noToken = `iceage: no Discord token.
Set DISCORD_TOKEN in the environment (or discord.token in config.yaml; see
config.example.yaml for every setting), then run the program again.
To try Ice Age Chess without Discord, play in the terminal: iceage local`

func runBot(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("run", flag.ContinueOnError)
	fs.SetOutput(stderr)
	configPath := fs.String("config", config.DefaultPath, "configuration file (none is fine when DISCORD_TOKEN is set)")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	cfg, err := config.Load(*configPath, os.Getenv)
	if err != nil {
		fmt.Fprintln(stderr, "iceage:", err)
		return 2
	}
	if cfg.Discord.Token == "" {
		fmt.Fprintln(stderr, noToken)
		return 2
	}
	if cfg.Discord.APIURL != "" {
		discordurl.Point(cfg.Discord.APIURL)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	a, err := newApp(cfg, stderr)
	if err != nil {
		fmt.Fprintln(stderr, "iceage:", err)
		return 1
	}
	if err := a.Run(ctx); err != nil {
		a.log.Error("stopped", "err", err)
		_ = a.Close() // Run's error is the one logged; closing goes as far as it can
		return 1
	}
	if err := a.Close(); err != nil {
		fmt.Fprintln(stderr, "iceage: closing:", err)
		return 1
	}
	return 0
}

// app is the whole running program: store, play core, bot, scheduler,
// listener.
type app struct {
	cfg   config.Config
	log   *slog.Logger
	store play.Storage
	// closeStore closes the storage; bolt is the bbolt store, nil on
	// PostgreSQL.
	closeStore func() error
	bolt       *store.Store
	// stream is the process's one stream of every game's events, fed
	// by the storage's commits, so that every act reaches its watchers
	// whichever door it came by: the bot's, the engine's, the
	// scheduler's, another process's on PostgreSQL. The web page stands
	// on it.
	stream *stream.Hub
	// web is the public web listener's handler (web.listen), nil when it
	// is off: every game's live page, fed by stream.
	web   *web.Server
	play  *play.Service
	bot   *bot.Bot
	sched *schedule.Scheduler
	// servers are the operators' listener, with HTTP interactions
	// Discord's, and the web listener: never one listener for two.
	servers []*http.Server
	// interactionIDs are shared by the processes on one PostgreSQL; nil
	// on bbolt, where one process holds the file.
	interactionIDs bot.InteractionIDs
}

func newLogger(cfg config.Log, w io.Writer) *slog.Logger {
	var level slog.Level
	_ = level.UnmarshalText([]byte(cfg.Level))
	opts := &slog.HandlerOptions{Level: level}
	if cfg.Format == "json" {
		return slog.New(slog.NewJSONHandler(w, opts))
	}
	return slog.New(slog.NewTextHandler(w, opts))
}

// newApp opens the store and builds the bot; nothing connects yet.
func newApp(cfg config.Config, logTo io.Writer) (*app, error) {
	log := newLogger(cfg.Log, logTo)
	a := &app{cfg: cfg, log: log}
	schedOpts := schedule.Options{Logger: log}
	switch cfg.Database.Driver {
	case config.DriverPostgres:
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		pg, err := pgstore.Open(ctx, cfg.Database.URL, nil)
		cancel()
		if err != nil {
			return nil, err
		}
		a.store, a.closeStore = pg, func() error { pg.Close(); return nil }
		a.interactionIDs = pg
		// Every process runs a scheduler: each claims the items it
		// handles, so that none is handled twice or left to a process
		// that died.
		schedOpts.Claimer = pg.Claimer(claimOwner(), 0)
	default:
		st, err := store.Open(cfg.Database.Path, nil)
		if err != nil {
			return nil, err
		}
		a.store, a.closeStore, a.bolt = st, st.Close, st
	}
	st := a.store
	hub, err := stream.New(st, stream.Options{Logger: log})
	if err != nil {
		_ = a.closeStore() // err says why the program cannot start
		return nil, err
	}
	a.stream = hub
	closeStore := a.closeStore
	a.closeStore = func() error {
		hub.Close()
		return closeStore()
	}
	// The scheduler watches the storage, so that a new deadline wakes it.
	a.sched = schedule.New(schedOpts)
	vacation := cfg.Play.VacationDays
	if vacation == 0 {
		vacation = -1 // play's 0 means its default; the file's means none
	}
	a.play = play.New(a.sched.Watch(st), play.Options{ChallengeTTL: time.Duration(cfg.Play.ChallengeHours) * time.Hour, AllowedDays: cfg.Play.AllowedDays,
		Reminders: cfg.Play.ReminderHours, VacationDays: vacation, OpponentChooses: cfg.Play.OpponentChooses,
		// A game of a tournament records its result there as it ends.
		OnEnd: []func(play.Tx, *play.Game) error{tournament.OnEnd}})
	theme, err := render.ParseTheme(cfg.Theme)
	if err != nil {
		_ = a.closeStore() // err says why the bot cannot start
		return nil, err
	}
	secret, err := loadSecret(cfg, log)
	if err != nil {
		_ = a.closeStore() // err says why the program cannot start
		return nil, err
	}
	var links bot.WebLinks
	if cfg.Web.Listen != "" {
		if a.web, err = newWeb(cfg, a.play, hub, secret, log); err != nil {
			_ = a.closeStore() // err says why the program cannot start
			return nil, err
		}
		links = a.web
	}
	// The Discord Activity is served by the web listener, with the
	// application's OAuth2 credentials.
	var act *activityDoor
	if a.web != nil && cfg.Discord.ClientID != "" {
		act = &activityDoor{}
	}
	a.bot, err = bot.New(bot.Config{Token: cfg.Discord.Token, Guilds: cfg.Discord.GuildIDs, DefaultLanguage: cfg.Language,
		DefaultDays: cfg.Play.DefaultDays, AllowedDays: cfg.Play.AllowedDays, VacationDays: vacation, Theme: theme, Logger: log,
		ShardID: cfg.Discord.ShardID, ShardCount: cfg.Discord.ShardCount,
		Engine: bot.EngineConfig{Workers: cfg.Engine.Workers, DefaultLevel: cfg.Engine.DefaultLevel, Rated: cfg.Engine.Rated,
			MoveTime: time.Duration(cfg.Engine.MoveSeconds * float64(time.Second))},
		Limits: bot.Limits{OpenChallenges: cfg.Limits.OpenChallenges, EngineGames: cfg.Limits.EngineGames, PostsPerMinute: cfg.Limits.PostsPerMinute,
			ChallengeAgain: time.Duration(cfg.Limits.ChallengeAgainMinutes) * time.Minute,
			Analyze:        time.Duration(cfg.Limits.AnalyzeSeconds) * time.Second, GIF: time.Duration(cfg.Limits.GIFSeconds) * time.Second,
			TournamentPlayers: cfg.Limits.TournamentPlayers},
		InteractionIDs: a.interactionIDs, Web: links, Secret: secret, Activity: bot.ActivityConfig{Enabled: act != nil, Launched: act.launched, ChallengeEnded: act.challengeEnded}}, a.play)
	if err != nil {
		_ = a.closeStore() // err says why the bot cannot start
		return nil, err
	}
	if act != nil {
		if err := act.start(cfg, a.bot, a.web, log); err != nil {
			_ = a.closeStore() // err says why the program cannot start
			return nil, err
		}
	}
	if err := a.listen(); err != nil {
		a.closeListeners()
		_ = a.closeStore() // err says why the bot cannot start
		return nil, err
	}
	return a, nil
}

// The listeners' limits, so that no client holds a connection, a
// goroutine and a file descriptor for long: Discord sends an interaction
// (at most a few kilobytes) at once and drops it after three seconds.
const (
	headerWait  = 5 * time.Second
	readWait    = 10 * time.Second
	writeWait   = 15 * time.Second // a backup extends its own (ops)
	idleWait    = 60 * time.Second
	headerBytes = 16 << 10
)

// newServer returns a server with the limits above.
func newServer(h http.Handler, log *slog.Logger) *http.Server {
	return &http.Server{Handler: h, ReadHeaderTimeout: headerWait, ReadTimeout: readWait, WriteTimeout: writeWait,
		IdleTimeout: idleWait, MaxHeaderBytes: headerBytes, ErrorLog: slog.NewLogLogger(log.Handler(), slog.LevelDebug)}
}

// listen starts the operators' listener (http.listen) and the
// interactions listener (http.interactions), those that are configured.
func (a *app) listen() error {
	if a.cfg.HTTP.Listen != "" {
		h, err := a.opsHandler()
		if err != nil {
			return err
		}
		if err := a.serve("operators' listener", a.cfg.HTTP.Listen, "http.listen", h, 0); err != nil {
			return err
		}
	}
	if k := a.cfg.Discord.PublicKey; k != "" {
		key, err := hex.DecodeString(k) // checked by config
		if err != nil {
			return fmt.Errorf("discord.public_key: %w", err)
		}
		mux := http.NewServeMux()
		mux.Handle("/interactions", a.bot.InteractionsHandler(ed25519.PublicKey(key)))
		// Each connection holds a goroutine, buffers and at most
		// bot.MaxInteractionBytes of body: capped, they are bounded.
		if err := a.serve("interactions listener", a.cfg.HTTP.Interactions, "http.interactions", mux, a.cfg.HTTP.InteractionsConnections); err != nil {
			return err
		}
	}
	if a.web != nil {
		// Each watcher of a live page holds a connection: capped, they
		// are bounded, as the interactions listener's are.
		if err := a.serve("web listener", a.cfg.Web.Listen, "web.listen", a.web, a.cfg.Web.Connections); err != nil {
			return err
		}
	}
	return nil
}

// loadSecret returns the program's secret, kept in web.secret_file
// (made at the first start): it signs the web pages' links and seals
// the state the bot's buttons carry. Without the web listener, a file
// that cannot be made is no reason not to start: the bot then seals
// with a secret of this process's (bot.Config.Secret).
func loadSecret(cfg config.Config, log *slog.Logger) ([]byte, error) {
	secret, created, err := web.LoadSecret(cfg.Web.SecretFile)
	if err != nil {
		if cfg.Web.Listen == "" {
			log.Warn("the secret that seals the buttons' state is this process's alone: lessons' buttons go stale at a restart", "file", cfg.Web.SecretFile, "err", err)
			return nil, nil
		}
		return nil, fmt.Errorf("web.secret_file: %w", err)
	}
	what := "the secret, which signs the web pages' links and the buttons' state, is kept in its file"
	if created {
		what = "the secret, which signs the web pages' links and the buttons' state, was made at this first start"
	}
	log.Info(what, "file", cfg.Web.SecretFile)
	return secret, nil
}

// newWeb makes the web listener's handler, with the secret its links
// are signed with.
func newWeb(cfg config.Config, svc *play.Service, hub *stream.Hub, secret []byte, log *slog.Logger) (*web.Server, error) {
	proxies, _, _ := connlimit.ParsePrefixes(cfg.Web.TrustedProxies) // checked by config.Load
	return web.New(web.Options{Play: svc, Hub: hub, Secret: secret, PublicURL: cfg.Web.PublicURL, ClientID: cfg.Discord.ClientID,
		ClientSecret: cfg.Discord.ClientSecret, DiscordURL: cfg.Discord.APIURL, Language: cfg.Language, Logger: log,
		PerClient: connlimit.Limits{Requests: cfg.Web.ClientRequests, Streams: cfg.Web.ClientStreams, TrustedProxies: proxies}})
}

// serve starts a server on addr, holding at most conns connections
// open at once when conns > 0; key names the setting in errors.
func (a *app) serve(what, addr, key string, h http.Handler, conns int) error {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return fmt.Errorf("%s %s: %w", key, addr, err)
	}
	if conns > 0 {
		ln = connlimit.Listen(ln, conns)
	}
	srv := newServer(h, a.log)
	a.servers = append(a.servers, srv)
	go func() {
		if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			a.log.Error("HTTP listener stopped", "listener", what, "err", err)
		}
	}()
	a.log.Info("HTTP listener", "listener", what, "addr", ln.Addr().String())
	return nil
}

// opsHandler serves /healthz, /metrics and /backup, and feeds the
// metrics. Without http.token, /backup requires the token kept in
// http.token_file, made there at the first start.
func (a *app) opsHandler() (http.Handler, error) {
	src := ops.Sources{
		Connected: func() bool { return a.bot.Session().DataReady },
		StoreOK:   func(ctx context.Context) error { return a.store.View(ctx, func(play.ReadTx) error { return nil }) },
		Token:     a.cfg.HTTP.Token,
		Listen:    a.cfg.HTTP.Listen,
		Log:       a.log,
	}
	if a.bolt != nil && src.Token == "" {
		path := a.cfg.HTTP.TokenFile
		token, created, err := ops.LoadToken(path)
		if err != nil {
			return nil, fmt.Errorf("http.token_file: %w", err)
		}
		src.BackupToken = token
		what := "the operators' token, which /backup and iceage backup need, is kept in its file"
		if created {
			what = "the operators' token, which /backup and iceage backup need, was made at this first start"
		}
		if abs, err := filepath.Abs(path); err == nil {
			path = abs
		}
		a.log.Info(what, "file", path)
	}
	if a.bolt != nil {
		// PostgreSQL is backed up with its own tools (pg_dump).
		src.Backup = a.bolt.BackupFile
		src.BackupDir = filepath.Dir(a.bolt.Path())
		src.Damage = a.bolt.Damage
		src.StoreSize = func() float64 {
			fi, err := os.Stat(a.bolt.Path())
			if err != nil {
				return 0
			}
			return float64(fi.Size())
		}
	}
	m := ops.NewMetrics(src)
	a.bot.Metrics.ObserveDelivery = m.ObserveDelivery
	a.bot.Metrics.Observe = func(cmd, outcome string, lat time.Duration) {
		m.Observe(cmd, outcome, lat)
		if cmd == "move" && outcome == "ok" {
			m.Moves.Inc()
		}
	}
	return ops.Handler(src, m), nil
}

// Run serves until ctx ends: no new interactions then, those in flight
// finished, the scheduler stopped, and the session closed. The scheduler
// starts once the bot is connected, so that what fell due while the
// program was down is announced to a Discord that hears it.
func (a *app) Run(ctx context.Context) error {
	where := a.cfg.Database.Path
	if a.bolt == nil {
		where = "postgres"
	}
	a.log.Info("starting", "database", where, "shard", a.cfg.Discord.ShardID, "shards", a.cfg.Discord.ShardCount)
	schedCtx, stopSched := context.WithCancel(ctx)
	scheduled := make(chan struct{})
	go func() {
		defer close(scheduled)
		select {
		case <-a.bot.Ready():
		case <-schedCtx.Done():
			return
		}
		if err := a.sched.Run(schedCtx, a.bot.Round(), a.bot); err != nil {
			a.log.Error("scheduler stopped", "err", err)
		}
	}()
	err := a.bot.Run(ctx)
	stopSched()
	<-scheduled
	return err
}

// Close stops the listeners and closes the database; Run has stopped the
// scheduler before.
func (a *app) Close() error {
	a.closeListeners()
	return a.closeStore()
}

func (a *app) closeListeners() {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	for _, srv := range a.servers {
		_ = srv.Shutdown(ctx)
	}
}

// claimOwner names this process in the scheduler's claims: host and pid,
// so that an operator can tell who holds one.
func claimOwner() string {
	host, _ := os.Hostname()
	return fmt.Sprintf("%s:%d", host, os.Getpid())
}
