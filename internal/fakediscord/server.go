package fakediscord

import (
	"crypto/rand"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/gorilla/websocket"
)

// Server is a fake Discord for one test: its guilds, channels, users and
// messages, the bot's gateway sessions, and a record of every call the bot
// made. All its methods are safe for concurrent use.
type Server struct {
	tb    testing.TB
	token string
	appID string
	bot   User
	http  *httptest.Server
	wsURL string
	mux   *http.ServeMux

	inflight sync.WaitGroup // REST requests being served
	gateways sync.WaitGroup // gateway connections being served

	mu sync.Mutex
	// memberPerms are members' permissions beyond the base, by guild and
	// user; allowed the commands an admin let everyone use (members.go).
	memberPerms map[[2]string]int64
	allowed     map[[2]string]bool
	closed      bool
	changed     chan struct{} // closed and replaced whenever calls grows
	calls       []Call
	// responses index each interaction's first callback in calls, and
	// responseWaits are closed when it comes: WaitResponse neither scans
	// calls nor wakes at every call (a benchmark of 50 games waited on
	// every call of the others, under mu).
	responses     map[string]int
	responseWaits map[string]chan struct{}
	deadline      time.Duration // for the first interaction callback; 0 for none
	latency       time.Duration // before each REST request is served
	skew          time.Duration // how far Pass moved the threads' clock
	viaHTTP       bool          // dispatch builds an interaction's JSON in httpBody, not an event
	httpBody      []byte

	knownRoutes map[string]bool // the routes the fake serves, as Refuse names them
	refusals    []*refusal
	slows       []*slowAnswer
	limits      map[string]RateLimit // by route
	buckets     map[string]*bucket   // by route and top-level resource

	guilds       map[string]*Guild
	guildOrder   []string
	channels     map[string]*Channel
	channelOrder []string
	users        map[string]*User
	dms          map[string]string // user id to DM channel id
	messages     map[string]*Message
	messageOrder []string
	nonces       map[string]sentNonce    // by channel id and nonce
	interactions map[string]*interaction // by id
	byToken      map[string]*interaction
	commands     map[string][]*discordgo.ApplicationCommand // by guild id, "" for global

	// OAuth2 (oauth.go) and Activities (activity.go).
	clientSecret  string
	codes         map[string]*grant // authorization codes
	tokens        map[string]*grant // access tokens
	tokenRequests int
	meRequests    int
	activities    bool                 // the app has Activities enabled (EnableActivities)
	instances     map[string]*Instance // by instance id
	entryPoint    int                  // the registered Entry Point command's handler; 0 for none

	// threadsInThreads counts the thread starts refused because their
	// channel was a thread (ThreadStartsInThreads).
	threadsInThreads int

	sessions   map[string]*session
	conns      map[*conn]struct{}
	heartbeats int
}

// Guild is a server the bot is in.
type Guild struct {
	ID     string // a fresh snowflake when empty
	Name   string // "Test Guild" when empty
	Locale string // preferred_locale; "en-US" when empty

	// ActiveThreadLimit is how many threads may be active (not archived)
	// at once: 1000 when zero, as on Discord. Past it, starting or
	// unarchiving a thread answers 400 (code 160006).
	ActiveThreadLimit int
	// WithoutBot makes it a server that did not add the bot, where only
	// users who installed the app to their account use its commands: the
	// bot gets no GUILD_CREATE for it, and its REST calls on the guild and
	// its channels answer 403 Missing Access (50001).
	WithoutBot bool

	ownerID string
	joined  time.Time
	roles   []Role // besides @everyone (AddRole)
}

// Channel is a guild channel, a thread or a DM channel.
type Channel struct {
	ID      string                // a fresh snowflake when empty
	GuildID string                // empty for a DM channel
	Type    discordgo.ChannelType // zero is a guild text channel
	Name    string

	// Deny lists the permissions the bot lacks here (discordgo.Permission*
	// bits); a thread lacks its parent's too. They are left out of the
	// interactions' app_permissions, and what needs them answers 403:
	// Missing Access (50001) without View Channel, Missing Permissions
	// (50013) without Send Messages (in threads: Send Messages in Threads),
	// Create Public or Private Threads, or Attach Files for a message with
	// files. Without Embed Links a message's embeds are dropped, as Discord
	// does.
	Deny int64
	// NoThreads denies Create Public Threads and Create Private Threads.
	NoThreads bool
	// Overwrites are a guild channel's permission overwrites for roles
	// and members (see members.go); a thread has its parent's. The bot's
	// Deny shows among them as the bot's member overwrite.
	Overwrites []Overwrite

	ParentID    string // threads: the channel the thread is in
	RecipientID string // DM channels: the user
	// Recipients are the users of a DM or group DM without the bot
	// (AddPrivateChannel).
	Recipients []string

	created        time.Time
	archiveMinutes int
	archived       bool
	locked         bool
	archivedAt     time.Time // on the fake's clock
	lastActive     time.Time // on the fake's clock: created, unarchived or last posted in
	members        []string  // threads: the ids of their members
}

// User is a Discord user other than the bot.
type User struct {
	ID         string // a fresh snowflake when empty
	Username   string // "user" and the id when empty
	GlobalName string // the display name; none when empty
	Locale     string // the client's locale, sent as the interactions' locale; "en-US" when empty

	// DMsClosed makes messages sent to the user's DM channel answer 403
	// Cannot send messages to this user (code 50007).
	DMsClosed bool
	// NoMutualGuild makes them answer 403 (code 50278): the user shares no
	// server with the bot, although AddUser makes everyone a member.
	NoMutualGuild bool
	// Installed: the user installed the app to their account, so its
	// commands that allow it are theirs in DMs, group DMs and servers
	// without the bot.
	Installed bool
	// Roles are the ids of the user's roles, as the member's roles in
	// interactions (what they allow is SetMemberPermissions').
	Roles []string
}

// interaction is one interaction the fake dispatched.
type interaction struct {
	id, token string
	kind      discordgo.InteractionType
	answer    discordgo.MessageType // the type of the messages that answer it
	channelID string
	guildID   string
	userID    string
	at        time.Time
	onMessage string            // components: the message the component is on
	owners    map[string]string // authorizing_integration_owners

	responded bool
	original  string          // the message that @original names
	followups map[string]bool // ids of the follow-up messages
}

// New starts a fake Discord on 127.0.0.1, points discordgo at it (see the
// package doc) and closes it when the test ends. Connect the bot with
// discordgo.New("Bot " + srv.Token()).
func New(tb testing.TB) *Server {
	tb.Helper()
	if err := pointDiscordgo(); err != nil {
		tb.Fatalf("fakediscord: %v", err)
	}
	s := &Server{
		tb:            tb,
		token:         "fake." + rand.Text(),
		appID:         newID(),
		changed:       make(chan struct{}),
		responses:     map[string]int{},
		responseWaits: map[string]chan struct{}{},
		deadline:      ResponseWindow,
		guilds:        map[string]*Guild{},
		channels:      map[string]*Channel{},
		users:         map[string]*User{},
		dms:           map[string]string{},
		messages:      map[string]*Message{},
		nonces:        map[string]sentNonce{},
		interactions:  map[string]*interaction{},
		byToken:       map[string]*interaction{},
		commands:      map[string][]*discordgo.ApplicationCommand{},
		sessions:      map[string]*session{},
		conns:         map[*conn]struct{}{},
		knownRoutes:   map[string]bool{},
		limits:        map[string]RateLimit{},
		buckets:       map[string]*bucket{},
		clientSecret:  rand.Text(),
		codes:         map[string]*grant{},
		tokens:        map[string]*grant{},
		instances:     map[string]*Instance{},
	}
	s.bot = User{ID: newID(), Username: "Fake Bot"}
	s.mux = s.routes()
	s.http = httptest.NewServer(http.HandlerFunc(s.serveHTTP))
	s.wsURL = "ws://" + s.http.Listener.Addr().String()
	register(s)
	tb.Cleanup(s.close)
	return s
}

// Token is the bot token the fake accepts, without the "Bot " prefix. Each
// Server has its own.
func (s *Server) Token() string { return s.token }

// AppID is the bot's application id, as READY tells it.
func (s *Server) AppID() string { return s.appID }

// Bot is the bot's user, as READY tells it.
func (s *Server) Bot() User { return s.bot }

// ResponseWindow is how long after its dispatch an interaction may still
// get its first callback by default: Discord's 3 seconds, times Slowdown,
// since a bot slowed by the race detector is not late in production.
const ResponseWindow = Slowdown * 3 * time.Second

// SetResponseDeadline sets how long after its dispatch an interaction may
// still get its first callback: ResponseWindow by default, as on Discord;
// zero for no limit. A late callback answers 404 Unknown interaction
// (10062).
func (s *Server) SetResponseDeadline(d time.Duration) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.deadline = d
}

// AddGuild adds a guild with the bot in it and returns it with its defaults
// filled in. A bot already connected gets its GUILD_CREATE.
func (s *Server) AddGuild(g Guild) Guild {
	s.mu.Lock()
	defer s.mu.Unlock()
	if g.ID == "" {
		g.ID = newID()
	}
	if g.Name == "" {
		g.Name = "Test Guild"
	}
	if g.Locale == "" {
		g.Locale = string(discordgo.EnglishUS)
	}
	g.ownerID = newID()
	g.joined = time.Now()
	s.guilds[g.ID] = &g
	s.guildOrder = append(s.guildOrder, g.ID)
	if !g.WithoutBot {
		s.broadcastGuildLocked(g.ID, "GUILD_CREATE", s.guildCreateJSON(&g))
	}
	return g
}

// AddChannel adds a channel to a guild added before and returns it with its
// defaults filled in. A bot already connected gets its CHANNEL_CREATE. DM
// channels come from DMChannel.
func (s *Server) AddChannel(c Channel) Channel {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.guilds[c.GuildID] == nil {
		s.tb.Errorf("fakediscord: AddChannel %q: no guild %q", c.Name, c.GuildID)
		return c
	}
	if c.ID == "" {
		c.ID = newID()
	}
	if c.Name == "" {
		c.Name = "channel-" + c.ID
	}
	c.created = time.Now()
	if isThread(&c) {
		if c.archiveMinutes == 0 {
			c.archiveMinutes = 4320
		}
		c.lastActive = s.nowLocked()
	}
	s.addChannelLocked(&c)
	if s.botCanSeeLocked(&c) {
		s.broadcastLocked("CHANNEL_CREATE", s.channelJSON(&c))
	}
	return c
}

func (s *Server) addChannelLocked(c *Channel) {
	s.channels[c.ID] = c
	s.channelOrder = append(s.channelOrder, c.ID)
}

// AddUser adds a user, a member of every guild, and returns it with its
// defaults filled in.
func (s *Server) AddUser(u User) User {
	s.mu.Lock()
	defer s.mu.Unlock()
	if u.ID == "" {
		u.ID = newID()
	}
	if u.Username == "" {
		u.Username = "user" + u.ID
	}
	if u.Locale == "" {
		u.Locale = string(discordgo.EnglishUS)
	}
	s.users[u.ID] = &u
	return u
}

// SetDMsClosed changes whether messages to the user's DM channel fail.
func (s *Server) SetDMsClosed(userID string, closed bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if u := s.users[userID]; u != nil {
		u.DMsClosed = closed
	} else {
		s.tb.Errorf("fakediscord: SetDMsClosed: no user %q", userID)
	}
}

// DMChannel returns the DM channel between the bot and a user, as POST
// /users/@me/channels would, creating it if need be.
func (s *Server) DMChannel(userID string) Channel {
	s.mu.Lock()
	defer s.mu.Unlock()
	c, err := s.dmLocked(userID)
	if err != nil {
		s.tb.Errorf("fakediscord: DMChannel: %v", err)
		return Channel{}
	}
	return *c
}

func (s *Server) dmLocked(userID string) (*Channel, *Error) {
	if s.users[userID] == nil {
		return nil, errUnknownUser
	}
	if id, ok := s.dms[userID]; ok {
		return s.channels[id], nil
	}
	c := &Channel{ID: newID(), Type: discordgo.ChannelTypeDM, RecipientID: userID, created: time.Now()}
	s.addChannelLocked(c)
	s.dms[userID] = c.ID
	return c, nil
}

// serveHTTP serves the gateway to WebSocket upgrades and the REST API to
// requests that carry the bot token.
func (s *Server) serveHTTP(w http.ResponseWriter, r *http.Request) {
	if websocket.IsWebSocketUpgrade(r) {
		s.serveGateway(w, r)
		return
	}
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		writeError(w, errUnauthorized)
		return
	}
	s.inflight.Add(1)
	s.mu.Unlock()
	defer s.inflight.Done()
	if strings.HasPrefix(r.URL.Path, "/attachments/") {
		s.serveAttachment(w, r)
		return
	}
	if isTokenPath(r.URL.Path) {
		if form, ok := tokenForm(w, r); ok {
			s.serveToken(w, r, form)
		}
		return
	}
	if t, ok := bearerOf(r); ok {
		s.serveBearer(w, r, t)
		return
	}
	if strings.TrimPrefix(r.Header.Get("Authorization"), "Bot ") != s.token {
		writeError(w, errUnauthorized)
		return
	}
	s.mux.ServeHTTP(w, r)
}

// close ends the fake: no request is served and no gateway connection left
// open once it returns.
func (s *Server) close() {
	unregister(s)
	s.mu.Lock()
	s.closed = true
	for c := range s.conns {
		c.ws.Close()
	}
	close(s.changed)
	s.changed = nil
	for _, w := range s.responseWaits {
		close(w)
	}
	clear(s.responseWaits)
	s.mu.Unlock()
	s.http.Close()
	s.inflight.Wait()
	s.gateways.Wait()
}

// logf logs through the test; only called while a request or connection is
// being served, so never after the test has ended.
func (s *Server) logf(format string, args ...any) {
	s.tb.Helper()
	s.tb.Logf("fakediscord: "+format, args...)
}

// newToken returns a fresh random token, for sessions and interactions.
func newToken() string { return strings.ToLower(rand.Text()) }

// discordEpoch is the first millisecond of 2015, where snowflakes start.
const discordEpoch = 1420070400000

var (
	snowflakeMu   sync.Mutex
	lastSnowflake uint64
)

// newID returns a fresh snowflake, unique in the process, whose time is now.
func newID() string {
	snowflakeMu.Lock()
	defer snowflakeMu.Unlock()
	id := uint64(time.Now().UnixMilli()-discordEpoch) << 22
	if id <= lastSnowflake {
		id = lastSnowflake + 1
	}
	lastSnowflake = id
	return strconv.FormatUint(id, 10)
}
