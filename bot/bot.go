package bot

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"runtime/debug"
	"sync"
	"sync/atomic"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/iceagechess/iceage/play"
	"github.com/iceagechess/iceage/play/round"
	"github.com/iceagechess/iceage/render"
)

// Config is what the bot needs beyond the play service.
type Config struct {
	// Token is the bot's token, without the "Bot " prefix.
	Token string
	// Guilds, when set, get the commands registered in them only (quick
	// to appear, for development); otherwise they are global.
	Guilds []string
	// DefaultLanguage is used when Discord gives no locale ("en").
	DefaultLanguage string
	// DefaultDays is the time control of a challenge that names none.
	DefaultDays int
	// AllowedDays are the time controls /challenge offers; nil means
	// play.AllowedDays.
	AllowedDays []int
	// VacationDays is the yearly vacation allowance, the most /vacation
	// offers, as play.Options.VacationDays counts it: 0 means
	// play.DefaultVacationDays, a negative number none.
	VacationDays int
	// Theme draws the boards.
	Theme render.Theme
	// Now returns the time; nil means time.Now. Tests move it.
	Now func() time.Time
	// Lot tosses a fair coin for what is drawn by lot: true gives a
	// tournament's top seed Black in round 1. nil means math/rand/v2's
	// generator; tests give their own.
	Lot func() bool
	// Logger gets one line per interaction; nil means slog.Default().
	Logger *slog.Logger
	// ShardID and ShardCount make the session gateway shard ShardID of
	// ShardCount, so that several processes share the servers (Discord
	// sends each server's events to one shard). ShardCount 0: one
	// session holds the whole gateway.
	ShardID, ShardCount int
	// Engine configures the computer opponent (engine.go).
	Engine EngineConfig
	// Limits are the per-user caps and cooldowns (limits.go).
	Limits Limits
	// ThreadWait is the longest rate limit on opening a game's thread
	// that the bot waits out before it starts the game there; past it,
	// the game starts in the channel and moves to its own thread when
	// Discord allows (threads.go). 0 means DefaultThreadWait.
	ThreadWait time.Duration
	// Activity turns on the Discord Activity's Play here button and
	// Entry Point command (activity.go).
	Activity ActivityConfig
	// InteractionIDs, when set, remembers the ids of interactions posted
	// over HTTP for every process that shares it (pgstore's FirstTime),
	// so that a replay sent to another process is refused as well; each
	// process remembers its own in any case (replay.go).
	InteractionIDs InteractionIDs
	// Web, when set, gives the addresses of the web listener's pages:
	// every board links to its game's live page (weblinks.go).
	Web WebLinks
	// Secret seals the state a button's id carries (a lesson's attempt)
	// against a modified client (seal.go). Processes that share a
	// database share it: the program gives the web listener's secret.
	// nil: one made for this process.
	Secret []byte
}

// InteractionIDs remembers interaction ids across processes.
type InteractionIDs interface {
	// FirstTime reports whether id is new to every process, and
	// remembers it for life.
	FirstTime(ctx context.Context, id uint64, life time.Duration) (bool, error)
}

// Bot is the Discord front end of a play.Service.
type Bot struct {
	// What every feature shares, and every feature's handlers hold.
	*shared
	// Metrics count answered interactions by outcome, for tests and
	// metrics.
	Metrics Metrics

	// One field per feature, of a type declared in its file, whose
	// state only that type's methods touch (doc.go, "Who owns what").
	self       *identity    // what READY told, the commands' ids (register.go)
	life       *lifetime    // the bot's context, the work in flight (lifetime.go)
	outbox     *deliveries  // the outbox's delivery (outbox.go, deliver.go)
	thinkers   *pool        // the engine's moves and analyses (pool.go)
	answering  *answering   // the answers on their way, for the engine's board (enginereply.go)
	parents    *parents     // the threads' parent channels (parents.go)
	sight      *sight       // the visibility rule's look-ups (visibility.go)
	locales    *locales     // the readers' languages: chosen, told by interactions, asked (notify.go)
	notices    *notices     // the news players are told, and the DM channels by user (notify.go)
	followers  *followers   // the last interactions of private games (installs.go)
	http       *httpWaiters // interactions posted over HTTP, waiting for their answer (http.go)
	answers    *answers     // the way answers go: over HTTP or to Discord's endpoints (send.go)
	seen       seenIDs      // the ids of interactions posted over HTTP (replay.go)
	cooldowns  *cooldowns   // the per-process waits of /analyze and /gif (limits.go)
	guildNames *guildNames  // the servers' names, for PGN's Site (records.go)
	drawing    *drawing     // a place for each replay being drawn (records_view.go)
	seals      *seals       // the seals of the state buttons carry (seal.go)

	// What several features' handlers use: types that keep nothing of
	// their own, only the shared dependencies and the features above.
	boards   *boards   // the messages that show a game (board.go)
	threads  *threads  // the games' threads (threads.go)
	outcomes *outcomes // what shows an act's outcome (deliver.go)

	// The handlers of each feature: a type in its file that holds the
	// shared dependencies and the features it uses (runBy, commands.go).
	tables      *tables       // a game's acts: /move, /board, /resign, … (game.go)
	challenges  *challenges   // /challenge, Accept, Rematch (challenge.go)
	gameList    *gameList     // /games (games.go)
	premoves    *premoves     // /premove (premove.go)
	vacations   *vacations    // /vacation (vacation.go)
	analyses    *analyses     // /analyze (analyze.go)
	records     *records      // /leaderboard, /stats, /pgn, /gif, /history (records.go)
	tournaments *tournaments  // /tournament (tournament.go)
	puzzles     *puzzleDesk   // /puzzle, the daily puzzle (puzzle.go)
	lessons     *lessons      // /learn (learn.go)
	settings    *userSettings // /settings (settings.go)
	serverAdmin *serverAdmin  // /server-settings (serversettings.go)
	guide       *guide        // /rules, /help (rules.go)
	activities  *activities   // the Play here button (activity.go)
}

// shared are the dependencies every feature uses (sharedFields,
// ownership_test.go): one copy, which the bot and each feature's handlers
// hold by pointer. It holds no feature's state.
type shared struct {
	cfg  Config
	play *play.Service
	// round plays the acts of games (package round).
	round *round.Round
	s     *discordgo.Session
	log   *slog.Logger
	// metrics are the bot's (Bot.Metrics).
	metrics *Metrics
}

// Metrics are the bot's counters, read by the HTTP listener.
type Metrics struct {
	Interactions atomic.Int64
	Failures     atomic.Int64
	Moves        atomic.Int64
	// Observe, when set, is told about every answered interaction.
	Observe func(command, outcome string, latency time.Duration)
	// Delivered counts the outbox's items delivered; ObserveDelivery,
	// when set, is told how long after its act each was delivered.
	Delivered       atomic.Int64
	ObserveDelivery func(lag time.Duration)
}

// New returns a bot for svc. It connects nothing until Run.
func New(cfg Config, svc *play.Service) (*Bot, error) {
	if cfg.Token == "" {
		return nil, errors.New("bot: no Discord token")
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Lot == nil {
		// A colour drawn by lot wants fairness, not secrecy: the runtime's
		// randomly seeded generator gives both.
		cfg.Lot = func() bool { return rand.IntN(2) == 1 } //nolint:gosec // G404: see above
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.Default()
	}
	if cfg.AllowedDays == nil {
		cfg.AllowedDays = play.AllowedDays
	}
	if cfg.VacationDays == 0 {
		cfg.VacationDays = play.DefaultVacationDays
	}
	if cfg.ThreadWait <= 0 {
		cfg.ThreadWait = DefaultThreadWait
	}
	s, err := discordgo.New("Bot " + cfg.Token)
	if err != nil {
		return nil, fmt.Errorf("bot: %w", err)
	}
	s.Identify.Intents = discordgo.IntentsGuilds
	s.StateEnabled = false
	s.ShouldReconnectOnError = true
	if cfg.ShardCount > 1 {
		s.ShardID, s.ShardCount = cfg.ShardID, cfg.ShardCount
	}
	cfg.Engine = cfg.Engine.withDefaults()
	b := &Bot{shared: &shared{cfg: cfg, play: svc, s: s, log: cfg.Logger}, self: newIdentity()}
	b.metrics = &b.Metrics
	b.life = newLifetime()
	b.parents, b.guildNames = &parents{discord: s}, &guildNames{}
	b.answering, b.followers = &answering{}, &followers{}
	b.cooldowns = &cooldowns{limits: cfg.Limits, now: cfg.Now}
	b.locales = &locales{shared: b.shared}
	b.notices = &notices{shared: b.shared, locales: b.locales}
	b.http = &httpWaiters{}
	b.answers = &answers{shared: b.shared, self: b.self, http: b.http}
	b.sight = newSight(svc, s, b.parents)
	b.thinkers = newPool(b.life.ctx(), cfg.Engine.Workers)
	b.drawing = newDrawing()
	b.seals = newSeals(cfg.Secret)
	if svc != nil {
		r, err := round.New(svc, round.Options{Engine: round.EngineOptions{MoveTime: cfg.Engine.MoveTime, Nodes: cfg.Engine.Nodes},
			Now: cfg.Now, Think: b.think, Committed: func(*round.Delivery) { b.wakeOutbox() }})
		if err != nil {
			return nil, fmt.Errorf("bot: %w", err)
		}
		b.round, b.outbox = r, newDeliveries(svc.Storage().(play.Outbox), cfg.Logger)
	} else {
		b.outbox = newDeliveries(nil, cfg.Logger)
	}
	// Each feature's handlers get the features they use, and no more;
	// a type is wired after what it holds (TestEveryFeatureIsWired).
	b.boards = &boards{shared: b.shared, self: b.self}
	b.threads = &threads{shared: b.shared, self: b.self, life: b.life, locales: b.locales, parents: b.parents, outbox: b.outbox}
	b.outcomes = &outcomes{shared: b.shared, self: b.self, life: b.life, locales: b.locales, notices: b.notices, outbox: b.outbox,
		answering: b.answering, followers: b.followers, answers: b.answers, boards: b.boards, threads: b.threads}
	b.tables = &tables{shared: b.shared, sight: b.sight, life: b.life, outbox: b.outbox, followers: b.followers,
		boards: b.boards, threads: b.threads, outcomes: b.outcomes}
	b.challenges = &challenges{shared: b.shared, self: b.self, life: b.life, locales: b.locales, parents: b.parents, outbox: b.outbox,
		followers: b.followers, answers: b.answers, boards: b.boards, threads: b.threads, outcomes: b.outcomes}
	b.gameList = &gameList{shared: b.shared, locales: b.locales, boards: b.boards, threads: b.threads}
	b.premoves = &premoves{shared: b.shared}
	b.vacations = &vacations{shared: b.shared, notices: b.notices, locales: b.locales}
	b.analyses = &analyses{shared: b.shared, sight: b.sight, cooldowns: b.cooldowns, parents: b.parents, thinkers: b.thinkers}
	b.tournaments = &tournaments{shared: b.shared, locales: b.locales, notices: b.notices, outbox: b.outbox}
	b.puzzles = &puzzleDesk{shared: b.shared, locales: b.locales, outbox: b.outbox}
	b.records = &records{shared: b.shared, sight: b.sight, cooldowns: b.cooldowns, drawing: b.drawing, guildNames: b.guildNames,
		locales: b.locales, tournaments: b.tournaments, puzzles: b.puzzles}
	b.lessons = &lessons{shared: b.shared, seals: b.seals}
	b.settings = &userSettings{shared: b.shared}
	b.serverAdmin = &serverAdmin{shared: b.shared, locales: b.locales, puzzles: b.puzzles}
	b.guide = &guide{self: b.self}
	b.activities = &activities{shared: b.shared, sight: b.sight}
	s.AddHandler(b.onReady)
	s.AddHandler(b.onInteraction)
	s.AddHandler(b.onGuildCreate)
	s.AddHandler(b.onGuildUpdate)
	s.AddHandler(b.threads.onThreadUpdate)
	s.AddHandler(b.threads.onThreadDelete)
	s.AddHandler(b.threads.catchUpThreads)
	for _, h := range []any{b.onChannelUpdate, b.onChannelDelete, b.onRoleCreate, b.onRoleUpdate, b.onRoleDelete} {
		s.AddHandler(h)
	}
	return b, nil
}

// Round returns the round the bot's acts go through, nil without a
// service: the scheduler's acts (timeouts) go through it too, so that
// the engine's turns they leave are the bot's.
func (b *Bot) Round() *round.Round { return b.round }

// Session returns the discordgo session, for the program's health check.
func (b *Bot) Session() *discordgo.Session { return b.s }

// Ready is closed once the gateway said READY and the commands are
// registered.
func (b *Bot) Ready() <-chan struct{} { return b.self.readied() }

// Run connects to Discord and serves interactions until ctx ends; then it
// stops taking interactions, waits for those in flight and disconnects.
func (b *Bot) Run(ctx context.Context) error {
	if err := b.s.Open(); err != nil {
		return fmt.Errorf("bot: connecting to Discord: %w", err)
	}
	// The outbox is delivered under the bot's life: what the interactions
	// in flight leave to do is delivered while they finish, and what is
	// left when the bot stops waits in the outbox for the next start.
	var loop sync.WaitGroup
	if b.outbox.delivers() {
		loop.Add(1)
		go func() { defer loop.Done(); b.outbox.run(b.life.ctx(), b.cfg.Now, b.deliverOne) }()
	}
	<-ctx.Done()
	b.life.end()
	loop.Wait()
	b.outbox.atOnceWait()
	if b.outbox.delivers() {
		b.outbox.flush(context.Background())
	}
	b.thinkers.close()
	return b.s.Close()
}

func (b *Bot) onReady(s *discordgo.Session, r *discordgo.Ready) {
	if r.Application != nil {
		b.self.noteApp(r.Application.ID)
	}
	if r.User != nil {
		b.self.noteUser(r.User.ID)
	}
	if err := b.register(r); err != nil {
		b.log.Error("registering commands", "err", err)
	}
	b.self.markReady()
	b.log.Info("connected to Discord", "guilds", len(r.Guilds))
}

// onInteraction is the one door for every interaction: it recovers
// panics, answers, and logs a line.
func (b *Bot) onInteraction(s *discordgo.Session, ic *discordgo.InteractionCreate) {
	if !b.life.enter() {
		return
	}
	defer b.life.leave()
	start := time.Now()
	in := b.newInteraction(ic.Interaction)
	defer in.cancel()
	outcome := "ok"
	defer func() {
		if p := recover(); p != nil {
			outcome = "panic"
			b.log.Error("handler panicked", "interaction", in.i.ID, "command", in.name, "panic", p, "stack", string(debug.Stack()))
			in.sorry()
		}
		lat := time.Since(start)
		b.Metrics.Interactions.Add(1)
		if outcome != "ok" && outcome != "refused" && outcome != "bad_click" {
			b.Metrics.Failures.Add(1)
		}
		if b.Metrics.Observe != nil {
			b.Metrics.Observe(in.name, outcome, lat)
		}
		b.log.Info("interaction", "id", in.i.ID, "command", in.name, "user", in.user, "latency", lat.Round(time.Microsecond), "outcome", outcome)
	}()
	err := b.route(in)
	var x *play.Refusal
	switch {
	case err == nil:
	case errors.As(err, &x):
		outcome = "refused"
		in.refused(x)
	case errors.Is(err, errNotHere):
		outcome = "refused"
	case errors.Is(err, errBadCustomID):
		// A click the bot did not make (a modified client's, or a
		// stale sealed state): anyone may send these by the thousand,
		// so the line above is all the log gets at Info.
		outcome = "bad_click"
		b.log.Debug("a click the bot did not make", "id", in.i.ID, "command", in.name, "user", in.user, "err", err)
		if err := in.tell(tr(in.lang, "error.bad_click", nil)); err != nil {
			b.log.Debug("could not answer a click the bot did not make", "interaction", in.i.ID, "err", err)
		}
	default:
		outcome = "error"
		b.log.Error("interaction failed", "id", in.i.ID, "command", in.name, "err", err)
		in.sorry()
	}
}

// errNotHere marks a handler that already told the user why not.
var errNotHere = errors.New("bot: answered with an explanation")

func unmarshal(b []byte, v any) error { return json.Unmarshal(b, v) }
