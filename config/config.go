// Package config reads the program's settings: a YAML file (config.yaml by
// default) with environment variables on top, so that secrets such as the
// Discord token never have to be written into a file.
package config

import (
	"bytes"
	"crypto/ed25519"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/iceagechess/iceage/internal/connlimit"
)

// DefaultPath is the configuration file read when none is named.
const DefaultPath = "config.yaml"

// Config is the whole configuration. See config.example.yaml for every key.
type Config struct {
	Discord  Discord  `yaml:"discord"`
	Database Database `yaml:"database"`
	Play     Play     `yaml:"play"`
	Engine   Engine   `yaml:"engine"`
	// Language is the language of public messages when Discord gives no
	// server locale: en, fr, ru, nb, es or nl. Env ICEAGE_LANGUAGE.
	Language string `yaml:"language"`
	// Theme draws the boards: classic or colorblind.
	Theme string `yaml:"theme"`
	Log   Log    `yaml:"log"`
	HTTP  HTTP   `yaml:"http"`
	// Web is the public web listener: every game's live page.
	Web Web `yaml:"web"`
	// Limits bound what one user may start, so that no one can flood a
	// server, a player or the engine.
	Limits Limits `yaml:"limits"`
}

// Discord holds the bot's credentials.
type Discord struct {
	Token string `yaml:"token"` // env DISCORD_TOKEN
	// GuildIDs, when set, register the commands in these servers only:
	// they appear at once, for development. Env ICEAGE_GUILD_IDS
	// (comma-separated). Empty: global commands.
	GuildIDs []string `yaml:"guild_ids"`
	// APIURL, when set, is where the bot finds Discord's API and gateway
	// instead of https://discord.com/: a relay in front of Discord, or a
	// local fake for tests. Env ICEAGE_DISCORD_URL.
	APIURL string `yaml:"api_url"`
	// ShardID and ShardCount make this process gateway shard ShardID of
	// ShardCount (0 ≤ ShardID < ShardCount), so that several processes
	// share the servers between them. ShardCount 0 or 1: one process
	// holds the whole gateway. Env ICEAGE_SHARD_ID, ICEAGE_SHARD_COUNT.
	ShardID    int `yaml:"shard_id"`
	ShardCount int `yaml:"shard_count"`
	// PublicKey is the application's Ed25519 public key (hex, from the
	// developer portal), with which the interactions listener
	// (http.interactions) verifies what Discord posts to /interactions.
	// Empty: no such endpoint. Env ICEAGE_DISCORD_PUBLIC_KEY.
	PublicKey string `yaml:"public_key"`
	// ClientID and ClientSecret are the application's OAuth2 credentials
	// (the developer portal's OAuth2 page): with them the web listener
	// signs users in with Discord and the Discord Activity runs. Empty:
	// neither. Env ICEAGE_DISCORD_CLIENT_ID and
	// ICEAGE_DISCORD_CLIENT_SECRET, which keeps the secret out of the
	// file.
	ClientID     string `yaml:"client_id"`
	ClientSecret string `yaml:"client_secret"`
}

// Database says where the games are kept.
type Database struct {
	// Driver is bbolt (one file, one process: the default) or postgres
	// (a server that any number of bot processes share). Empty: postgres
	// when URL is set, bbolt otherwise. Env ICEAGE_DATABASE_DRIVER.
	Driver string `yaml:"driver"`
	// Path of the bbolt file; a relative path is taken from the
	// directory of the configuration file. Env ICEAGE_DATABASE_PATH.
	Path string `yaml:"path"`
	// URL of the PostgreSQL database, e.g.
	// postgres://iceage:secret@db.example:5432/iceage. Env
	// ICEAGE_DATABASE_URL, which keeps the password out of the file.
	URL string `yaml:"url"`
}

// Database drivers.
const (
	DriverBolt     = "bbolt"
	DriverPostgres = "postgres"
)

// Play holds the rules of the house: time controls and reminders.
type Play struct {
	// DefaultDays is the time control of a challenge that names none.
	DefaultDays int `yaml:"default_days"`
	// AllowedDays are the time controls players may choose, a subset of
	// 1, 2, 3, 5, 7, 10, 14.
	AllowedDays []int `yaml:"allowed_days"`
	// ChallengeHours is how long a challenge waits for an answer.
	ChallengeHours int `yaml:"challenge_hours"`
	// VacationDays is each player's yearly vacation allowance.
	VacationDays int `yaml:"vacation_days"`
	// ReminderHours are the default reminders, in hours before a deadline.
	ReminderHours []int `yaml:"reminder_hours"`
	// OpponentChooses: a player who runs out of time does not simply
	// lose; the opponent chooses, with buttons, between claiming the win
	// and calling it a draw.
	OpponentChooses bool `yaml:"opponent_chooses"`
}

// Engine sets up the computer opponent that players challenge by naming
// the bot.
type Engine struct {
	// MoveSeconds is the most one engine move may take, in seconds
	// (level 8 uses all of it, level 7 half; the weaker levels stop
	// sooner on their node budgets).
	MoveSeconds float64 `yaml:"move_seconds"`
	// Workers is how many engine moves are computed at once; more wait
	// their turn in order, and their players are told so.
	Workers int `yaml:"workers"`
	// DefaultLevel is the level of a challenge that names none, 1 to 8.
	DefaultLevel int `yaml:"default_level"`
	// Rated lets engine games count for the rating when the player asks
	// for a rated game; otherwise they are all casual.
	Rated bool `yaml:"rated"`
}

// Log sets up structured logging.
type Log struct {
	Level  string `yaml:"level"`  // debug, info, warn or error; env ICEAGE_LOG_LEVEL
	Format string `yaml:"format"` // text or json; env ICEAGE_LOG_FORMAT
}

// HTTP holds the two optional listeners. The operators' one (Listen)
// serves /healthz, /metrics and online backups, which hold every
// server's games: it belongs on loopback, and on any other address it
// needs Token. The interactions listener (Interactions) is the one
// Discord must reach from the internet; it serves /interactions alone.
type HTTP struct {
	// Listen is the operators' listener, e.g. 127.0.0.1:8080; "" turns
	// it off. Env ICEAGE_HTTP_LISTEN.
	Listen string `yaml:"listen"`
	// Token, when set, must come with every request for /metrics,
	// /backup and the details of /healthz, as "Authorization: Bearer
	// TOKEN". Required when Listen is not on loopback. Env
	// ICEAGE_HTTP_TOKEN, which keeps it out of the file.
	Token string `yaml:"token"`
	// TokenFile is where the token /backup requires is kept when Token
	// is empty: the program makes one there at its first start (a file
	// of mode 0600) and iceage backup reads it there. Default:
	// iceage-http.token beside the bbolt database; relative to the
	// configuration file's folder. Env ICEAGE_HTTP_TOKEN_FILE.
	TokenFile string `yaml:"token_file"`
	// Interactions is where Discord posts interactions when
	// discord.public_key is set, e.g. :8443 behind a TLS proxy. Env
	// ICEAGE_INTERACTIONS_LISTEN.
	Interactions string `yaml:"interactions"`
	// InteractionsConnections is how many connections the interactions
	// listener holds open at once (default 256); more wait for one to
	// close. Each holds at most a 64 KiB body. Env
	// ICEAGE_INTERACTIONS_CONNECTIONS.
	InteractionsConnections int `yaml:"interactions_connections"`
}

// Web is the public web listener, where every game has a live page
// (package web). It is off by default, and never the operators' or the
// interactions listener.
type Web struct {
	// Listen is its address, e.g. :8090 behind a TLS proxy; "" turns it
	// off. Env ICEAGE_WEB_LISTEN.
	Listen string `yaml:"listen"`
	// PublicURL is the address people reach it at, which the boards'
	// Watch live buttons link to: the root of a host, e.g.
	// https://chess.example.org/.
	// Required with Listen. Env ICEAGE_PUBLIC_URL.
	PublicURL string `yaml:"public_url"`
	// SecretFile keeps the secret that the pages' addresses are signed
	// with, and the state the bot's buttons carry sealed with, made at
	// the first start (mode 0600), the listener on or off. Processes that share a
	// PostgreSQL database share this file. Default: iceage-web.secret
	// beside the configuration file. Env ICEAGE_WEB_SECRET_FILE.
	SecretFile string `yaml:"secret_file"`
	// Connections is how many connections the listener holds open at
	// once (default 4096): each watcher of a live page holds one. Env
	// ICEAGE_WEB_CONNECTIONS.
	Connections int `yaml:"connections"`
	// ClientRequests is how many requests one viewer (an address, an
	// IPv6 /64) may have in flight at once, event streams aside
	// (default 32), and ClientStreams how many event streams (live
	// pages) it may hold open (default 64): past them it is answered 429,
	// so that one holder of a link cannot take every connection. Env
	// ICEAGE_WEB_CLIENT_REQUESTS, ICEAGE_WEB_CLIENT_STREAMS.
	ClientRequests int `yaml:"client_requests"`
	ClientStreams  int `yaml:"client_streams"`
	// TrustedProxies are the addresses or networks (CIDR) of the reverse
	// proxies in front of the listener, whose X-Forwarded-For names the
	// viewer; from anyone else the header is ignored. Behind a proxy not
	// named here, every viewer counts as the proxy. Default: loopback
	// (127.0.0.0/8, ::1), a proxy on the same machine, whose connections
	// no one else can make. Env ICEAGE_WEB_TRUSTED_PROXIES, comma-separated.
	TrustedProxies []string `yaml:"trusted_proxies"`
}

// DefaultWebSecretFile is the name of the web listener's secret file,
// beside the configuration unless web.secret_file says otherwise.
//
// #nosec G101 -- a file's name, not a credential
const DefaultWebSecretFile = "iceage-web.secret"

// DefaultTokenFile is the name of the operators' token file, beside the
// database unless http.token_file says otherwise.
//
// #nosec G101 -- a file's name, not a credential
const DefaultTokenFile = "iceage-http.token"

// Limits are per-user caps and cooldowns. A 0 turns a limit off.
type Limits struct {
	// OpenChallenges is how many challenges one user may have waiting
	// for an answer in a server at once.
	OpenChallenges int `yaml:"open_challenges"`
	// EngineGames is how many games against the engine one user may
	// have going on in a server at once.
	EngineGames int `yaml:"engine_games"`
	// PostsPerMinute is how many public posts and threads one user may
	// make in a minute: challenges and their withdrawals, games against
	// the engine, boards asked for.
	PostsPerMinute int `yaml:"posts_per_minute"`
	// ChallengeAgainMinutes is how long a user must wait before
	// challenging someone again after a challenge to them was declined,
	// withdrawn or left to expire, so that no one is pinged over and
	// over. A challenge that became a game sets no wait. At most a day.
	ChallengeAgainMinutes int `yaml:"challenge_again_minutes"`
	// AnalyzeSeconds and GIFSeconds are how long one user waits between
	// two /analyze, or two /gif: each takes a core for a while.
	AnalyzeSeconds int `yaml:"analyze_seconds"`
	GIFSeconds     int `yaml:"gif_seconds"`
	// TournamentPlayers is how many players a tournament takes at once:
	// pairing a Swiss grows fast with its players.
	TournamentPlayers int `yaml:"tournament_players"`
}

// Default returns the configuration used when the file sets nothing: the
// database iceage.db beside the configuration file, three days per move,
// info-level text logs, no HTTP listener, the limits of Limits' comments.
func Default() Config {
	return Config{
		Database: Database{Path: "iceage.db"},
		Play: Play{DefaultDays: 3, AllowedDays: []int{1, 2, 3, 5, 7, 10, 14}, ChallengeHours: 72,
			VacationDays: 14, ReminderHours: []int{24, 1}},
		Engine:   Engine{MoveSeconds: 2, Workers: 2, DefaultLevel: 4},
		Language: "en",
		Theme:    "classic",
		Log:      Log{Level: "info", Format: "text"},
		HTTP:     HTTP{InteractionsConnections: 256},
		Web:      Web{Connections: 4096, ClientRequests: 32, ClientStreams: 64, TrustedProxies: []string{"127.0.0.0/8", "::1"}},
		Limits:   Limits{OpenChallenges: 5, EngineGames: 3, PostsPerMinute: 8, ChallengeAgainMinutes: 10, AnalyzeSeconds: 60, GIFSeconds: 20, TournamentPlayers: 256},
	}
}

// Load reads the file at path (a missing file is not an error: the
// defaults apply), then the environment (getenv, usually os.Getenv), and
// checks the result. Unknown keys in the file are errors, so that a typo
// does not silently leave a setting at its default.
func Load(path string, getenv func(string) string) (Config, error) {
	c := Default()
	data, err := os.ReadFile(path) // #nosec G304 -- the configuration file the operator named
	switch {
	case errors.Is(err, fs.ErrNotExist):
	case err != nil:
		return Config{}, fmt.Errorf("config: reading %s: %w", path, err)
	default:
		dec := yaml.NewDecoder(bytes.NewReader(data))
		dec.KnownFields(true)
		// An empty file decodes as io.EOF: no settings, the defaults stand.
		if err := dec.Decode(&c); err != nil && !errors.Is(err, io.EOF) {
			return Config{}, fmt.Errorf("config: %s: %w%s", path, err, keysOf(err, data))
		}
		// A second document (after a stray "---") would be ignored, and
		// the settings in it silently left at their defaults.
		// An empty one, as after a trailing "---", is harmless.
		for {
			var more yaml.Node
			err := dec.Decode(&more)
			if errors.Is(err, io.EOF) {
				break
			}
			empty := len(more.Content) == 0 ||
				len(more.Content) == 1 && more.Content[0].Kind == yaml.ScalarNode && more.Content[0].Tag == "!!null"
			if err != nil || !empty {
				return Config{}, fmt.Errorf("config: %s holds more than one YAML document (a line \"---\"); put every setting in one", path)
			}
		}
	}
	for env, field := range map[string]*string{
		"DISCORD_TOKEN":                &c.Discord.Token,
		"ICEAGE_DATABASE_PATH":         &c.Database.Path,
		"ICEAGE_DATABASE_URL":          &c.Database.URL,
		"ICEAGE_DATABASE_DRIVER":       &c.Database.Driver,
		"ICEAGE_DISCORD_PUBLIC_KEY":    &c.Discord.PublicKey,
		"ICEAGE_LANGUAGE":              &c.Language,
		"ICEAGE_LOG_LEVEL":             &c.Log.Level,
		"ICEAGE_LOG_FORMAT":            &c.Log.Format,
		"ICEAGE_HTTP_LISTEN":           &c.HTTP.Listen,
		"ICEAGE_HTTP_TOKEN":            &c.HTTP.Token,
		"ICEAGE_INTERACTIONS_LISTEN":   &c.HTTP.Interactions,
		"ICEAGE_HTTP_TOKEN_FILE":       &c.HTTP.TokenFile,
		"ICEAGE_WEB_LISTEN":            &c.Web.Listen,
		"ICEAGE_PUBLIC_URL":            &c.Web.PublicURL,
		"ICEAGE_WEB_SECRET_FILE":       &c.Web.SecretFile,
		"ICEAGE_DISCORD_URL":           &c.Discord.APIURL,
		"ICEAGE_DISCORD_CLIENT_ID":     &c.Discord.ClientID,
		"ICEAGE_DISCORD_CLIENT_SECRET": &c.Discord.ClientSecret,
	} {
		if v := strings.TrimSpace(getenv(env)); v != "" {
			*field = v
		}
	}
	if v := strings.TrimSpace(getenv("ICEAGE_GUILD_IDS")); v != "" {
		c.Discord.GuildIDs = strings.Split(v, ",")
	}
	if v := strings.TrimSpace(getenv("ICEAGE_WEB_TRUSTED_PROXIES")); v != "" {
		c.Web.TrustedProxies = strings.Split(v, ",")
	}
	for env, field := range map[string]*int{
		"ICEAGE_SHARD_ID":                 &c.Discord.ShardID,
		"ICEAGE_SHARD_COUNT":              &c.Discord.ShardCount,
		"ICEAGE_INTERACTIONS_CONNECTIONS": &c.HTTP.InteractionsConnections,
		"ICEAGE_WEB_CONNECTIONS":          &c.Web.Connections,
		"ICEAGE_WEB_CLIENT_REQUESTS":      &c.Web.ClientRequests,
		"ICEAGE_WEB_CLIENT_STREAMS":       &c.Web.ClientStreams,
	} {
		if v := strings.TrimSpace(getenv(env)); v != "" {
			n, err := strconv.Atoi(v)
			if err != nil {
				return Config{}, fmt.Errorf("config: %s=%q is not a number", env, v)
			}
			*field = n
		}
	}
	if c.Database.Driver == "" {
		c.Database.Driver = DriverBolt
		if c.Database.URL != "" {
			c.Database.Driver = DriverPostgres
		}
	}
	if err := c.check(); err != nil {
		return Config{}, fmt.Errorf("config: %s: %w", path, err)
	}
	if f := c.HTTP.TokenFile; f != "" && !filepath.IsAbs(f) {
		c.HTTP.TokenFile = filepath.Join(filepath.Dir(path), f)
	}
	if c.Web.SecretFile == "" {
		c.Web.SecretFile = DefaultWebSecretFile
	}
	if f := c.Web.SecretFile; !filepath.IsAbs(f) {
		c.Web.SecretFile = filepath.Join(filepath.Dir(path), f)
	}
	if c.Database.Driver == DriverPostgres {
		if c.Database.URL == "" {
			return Config{}, fmt.Errorf("config: database.driver is postgres but database.url is empty: set ICEAGE_DATABASE_URL, e.g. postgres://iceage:secret@localhost:5432/iceage")
		}
		return c, nil
	}
	if c.Database.Path == "" {
		return Config{}, fmt.Errorf("config: database.path is empty: name the bbolt file, e.g. iceage.db")
	}
	if !filepath.IsAbs(c.Database.Path) {
		c.Database.Path = filepath.Join(filepath.Dir(path), c.Database.Path)
	}
	if c.HTTP.TokenFile == "" {
		c.HTTP.TokenFile = filepath.Join(filepath.Dir(c.Database.Path), DefaultTokenFile)
	}
	return c, nil
}

// offeredDays are the time controls the program knows.
var offeredDays = []int{1, 2, 3, 5, 7, 10, 14}

// check reports the first invalid value, naming its key.
func (c *Config) check() error {
	for i, g := range c.Discord.GuildIDs {
		g = strings.TrimSpace(g)
		if _, err := strconv.ParseUint(g, 10, 64); err != nil {
			return fmt.Errorf("discord.guild_ids: %q is not a server id (a number such as 1234567890123456789)", g)
		}
		c.Discord.GuildIDs[i] = g
	}
	if u := c.Discord.APIURL; u != "" {
		p, err := url.Parse(u)
		if err != nil || (p.Scheme != "http" && p.Scheme != "https") || p.Host == "" {
			return fmt.Errorf("discord.api_url %q: want an http or https address, e.g. http://127.0.0.1:8081/", u)
		}
		// The bot's token goes with every request: in the clear only to
		// this machine.
		if p.Scheme == "http" && !IsLoopback(p.Hostname()) {
			return fmt.Errorf("discord.api_url %q: http:// would send the bot's token in the clear; use https://, or http:// to 127.0.0.1 or localhost only", u)
		}
		if !strings.HasSuffix(u, "/") {
			c.Discord.APIURL += "/"
		}
	}
	switch c.Database.Driver {
	case DriverBolt, DriverPostgres:
	default:
		return fmt.Errorf("database.driver %q: want bbolt or postgres", c.Database.Driver)
	}
	if c.Discord.ShardCount < 0 || c.Discord.ShardID < 0 || c.Discord.ShardCount > 1 && c.Discord.ShardID >= c.Discord.ShardCount || c.Discord.ShardCount <= 1 && c.Discord.ShardID != 0 {
		return fmt.Errorf("discord.shard_id %d of shard_count %d: want 0 ≤ shard_id < shard_count", c.Discord.ShardID, c.Discord.ShardCount)
	}
	if k := c.Discord.PublicKey; k != "" {
		if b, err := hex.DecodeString(k); err != nil || len(b) != ed25519.PublicKeySize {
			return fmt.Errorf("discord.public_key: want the application's public key, 64 hex digits, from the developer portal")
		}
	}
	if id := c.Discord.ClientID; id != "" {
		if _, err := strconv.ParseUint(id, 10, 64); err != nil {
			return fmt.Errorf("discord.client_id %q: want the application's id, a number such as 1234567890123456789, from the developer portal", id)
		}
	}
	if c.Discord.ClientID != "" && c.Discord.ClientSecret == "" {
		return errors.New("discord.client_id is set but discord.client_secret is not: set ICEAGE_DISCORD_CLIENT_SECRET to the OAuth2 client secret from the developer portal")
	}
	if c.Discord.ClientSecret != "" && c.Discord.ClientID == "" {
		return errors.New("discord.client_secret is set but discord.client_id is not: set ICEAGE_DISCORD_CLIENT_ID to the application's id")
	}
	if c.Discord.PublicKey != "" && c.HTTP.Interactions == "" {
		return errors.New("discord.public_key is set but http.interactions is not: name the address Discord posts interactions to, e.g. :8443 (env ICEAGE_INTERACTIONS_LISTEN)")
	}
	if c.HTTP.Interactions != "" && c.Discord.PublicKey == "" {
		return errors.New("http.interactions is set but discord.public_key is not: interactions are verified with the application's public key")
	}
	if len(c.Play.AllowedDays) == 0 {
		return errors.New("play.allowed_days is empty: allow at least one of 1, 2, 3, 5, 7, 10, 14")
	}
	for _, d := range c.Play.AllowedDays {
		if !slices.Contains(offeredDays, d) {
			return fmt.Errorf("play.allowed_days: %d is not one of 1, 2, 3, 5, 7, 10, 14", d)
		}
	}
	if c.Play.DefaultDays != 0 && !slices.Contains(c.Play.AllowedDays, c.Play.DefaultDays) {
		return fmt.Errorf("play.default_days: %d is not among play.allowed_days %v (0 means no limit)", c.Play.DefaultDays, c.Play.AllowedDays)
	}
	if c.Play.ChallengeHours < 1 || c.Play.ChallengeHours > 24*30 {
		return fmt.Errorf("play.challenge_hours: %d; a challenge waits 1 to 720 hours", c.Play.ChallengeHours)
	}
	if c.Play.VacationDays < 0 || c.Play.VacationDays > 365 {
		return fmt.Errorf("play.vacation_days: %d; allow 0 to 365 days a year", c.Play.VacationDays)
	}
	for _, h := range c.Play.ReminderHours {
		if h < 1 || h > 24*14 {
			return fmt.Errorf("play.reminder_hours: %d; a reminder comes 1 to 336 hours before the deadline", h)
		}
	}
	if c.Engine.MoveSeconds < 0.05 || c.Engine.MoveSeconds > 60 {
		return fmt.Errorf("engine.move_seconds: %g; an engine move takes 0.05 to 60 seconds", c.Engine.MoveSeconds)
	}
	if c.Engine.Workers < 1 || c.Engine.Workers > 64 {
		return fmt.Errorf("engine.workers: %d; compute 1 to 64 engine moves at once", c.Engine.Workers)
	}
	if c.Engine.DefaultLevel < 1 || c.Engine.DefaultLevel > 8 {
		return fmt.Errorf("engine.default_level: %d; the levels are 1 to 8", c.Engine.DefaultLevel)
	}
	switch c.Language {
	case "en", "fr", "ru", "nb", "es", "nl":
	default:
		return fmt.Errorf("language %q: want en, fr, ru, nb, es or nl", c.Language)
	}
	switch c.Theme {
	case "classic", "colorblind":
	default:
		return fmt.Errorf("theme %q: want classic or colorblind", c.Theme)
	}
	switch c.Log.Level {
	case "debug", "info", "warn", "error":
	default:
		return fmt.Errorf("log.level %q: want debug, info, warn or error", c.Log.Level)
	}
	switch c.Log.Format {
	case "text", "json":
	default:
		return fmt.Errorf("log.format %q: want text or json", c.Log.Format)
	}
	if c.HTTP.Listen != "" {
		host, _, err := net.SplitHostPort(c.HTTP.Listen)
		if err != nil {
			return fmt.Errorf("http.listen %q: want host:port, e.g. 127.0.0.1:8080", c.HTTP.Listen)
		}
		// Backups hold every server's games: off this machine, only with
		// the token.
		if !IsLoopback(host) && c.HTTP.Token == "" {
			return fmt.Errorf("http.listen %q is reachable from other machines but http.token is empty: set ICEAGE_HTTP_TOKEN, or listen on 127.0.0.1", c.HTTP.Listen)
		}
	}
	if t := c.HTTP.Token; t != "" && len(t) < 16 {
		return errors.New("http.token is shorter than 16 characters: choose a long random one, e.g. from openssl rand -hex 32")
	}
	if c.HTTP.Interactions != "" {
		if _, _, err := net.SplitHostPort(c.HTTP.Interactions); err != nil {
			return fmt.Errorf("http.interactions %q: want host:port, e.g. :8443", c.HTTP.Interactions)
		}
		if c.HTTP.Interactions == c.HTTP.Listen {
			return fmt.Errorf("http.interactions and http.listen are both %q: the operators' listener must not be the one Discord reaches; give them different addresses", c.HTTP.Listen)
		}
	}
	if n := c.HTTP.InteractionsConnections; n < 1 || n > 100_000 {
		return fmt.Errorf("http.interactions_connections: %d; want 1 to 100000 (256 by default)", n)
	}
	if err := c.Web.check(c.HTTP); err != nil {
		return err
	}
	for key, v := range map[string]int{"limits.open_challenges": c.Limits.OpenChallenges, "limits.engine_games": c.Limits.EngineGames,
		"limits.posts_per_minute": c.Limits.PostsPerMinute, "limits.analyze_seconds": c.Limits.AnalyzeSeconds, "limits.gif_seconds": c.Limits.GIFSeconds} {
		if v < 0 || v > 100_000 {
			return fmt.Errorf("%s: %d; want 0 (no limit) to 100000", key, v)
		}
	}
	if v := c.Limits.TournamentPlayers; v < 3 || v > 1000 {
		return fmt.Errorf("limits.tournament_players: %d; want 3 to 1000", v)
	}
	// A day is the longest wait play remembers (play.MaxChallengeAgain).
	if v := c.Limits.ChallengeAgainMinutes; v < 0 || v > 1440 {
		return fmt.Errorf("limits.challenge_again_minutes: %d; want 0 (no wait) to 1440 (a day)", v)
	}
	return nil
}

// IsLoopback reports whether host (a name or an address, without a port)
// is this machine only: localhost or a loopback address. An empty host,
// as in ":8080", listens on every address and is not.
func IsLoopback(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// keysOf names the keys of the lines a YAML type error points at, since
// the decoder's message gives only line numbers ("line 3: cannot
// unmarshal !!str `soon` into int").
func keysOf(err error, data []byte) string {
	var te *yaml.TypeError
	if !errors.As(err, &te) {
		return ""
	}
	lines := strings.Split(string(data), "\n")
	var keys []string
	for _, e := range te.Errors {
		var n int
		if _, serr := fmt.Sscanf(e, "line %d:", &n); serr != nil || n < 1 || n > len(lines) {
			continue
		}
		if k, _, ok := strings.Cut(strings.TrimSpace(lines[n-1]), ":"); ok {
			keys = append(keys, strings.TrimPrefix(k, "- "))
		}
	}
	if len(keys) == 0 {
		return ""
	}
	return " (the value of " + strings.Join(keys, ", ") + ")"
}

// check reports the first invalid web setting: the listener needs an
// address of its own and the public address its links name.
func (w Web) check(h HTTP) error {
	if n := w.Connections; n < 1 || n > 1_000_000 {
		return fmt.Errorf("web.connections: %d; want 1 to 1000000 (4096 by default)", n)
	}
	if n := w.ClientRequests; n < 1 || n > 1_000_000 {
		return fmt.Errorf("web.client_requests: %d; want 1 to 1000000 (32 by default)", n)
	}
	if n := w.ClientStreams; n < 1 || n > 1_000_000 {
		return fmt.Errorf("web.client_streams: %d; want 1 to 1000000 (64 by default)", n)
	}
	if _, bad, ok := connlimit.ParsePrefixes(w.TrustedProxies); !ok {
		return fmt.Errorf("web.trusted_proxies: %q is neither an address nor a network; want e.g. 127.0.0.1 or 10.0.0.0/8", bad)
	}
	if w.Listen == "" {
		return nil
	}
	if _, _, err := net.SplitHostPort(w.Listen); err != nil {
		return fmt.Errorf("web.listen %q: want host:port, e.g. :8090", w.Listen)
	}
	if w.Listen == h.Listen || w.Listen == h.Interactions {
		return fmt.Errorf("web.listen %q is also http.listen or http.interactions: the public pages need a listener of their own", w.Listen)
	}
	if w.PublicURL == "" {
		return fmt.Errorf("web.listen is set but web.public_url is not: name the address people reach the pages at, e.g. https://chess.example.org/ (env ICEAGE_PUBLIC_URL)")
	}
	u, err := url.Parse(w.PublicURL)
	if err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" || u.RawQuery != "" || u.Fragment != "" || u.User != nil {
		return fmt.Errorf("web.public_url %q: want an http or https address with no query, e.g. https://chess.example.org/", w.PublicURL)
	}
	// The pages name their scripts and styles from the host's root.
	if u.Path != "" && u.Path != "/" {
		return fmt.Errorf("web.public_url %q: want the root of a host, e.g. https://chess.example.org/ (the pages are served from /)", w.PublicURL)
	}
	return nil
}
