package fakediscord

import (
	"encoding/json"
	"errors"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/gorilla/websocket"
)

// heartbeatInterval is what HELLO asks for, in milliseconds, as Discord does.
const heartbeatInterval = 41250

// A session is a gateway session: what IDENTIFY starts and RESUME goes on
// with. It keeps every event it was sent, to replay them on RESUME.
type session struct {
	id     string
	seq    int64
	events [][]byte // events[i] has sequence number i+1
	conn   *conn    // the connection it is on, nil between a drop and a RESUME
	dead   bool     // closed with 1000 or 1001, or dropped as not resumable
	shard  shard    // as identified; 0 of 1 without
}

// A conn is one gateway WebSocket connection. What the fake sends goes
// through out, in order, to a goroutine that writes it.
type conn struct {
	ws      *websocket.Conn
	out     chan frame
	version int
	beat    chan struct{} // closed on the first heartbeat
	sess    *session      // guarded by Server.mu, like the fields below
	dropped bool          // the fake closed it: what it reads after that is not the bot's doing
	beaten  bool          // beat is closed
}

type frame struct {
	typ  int
	data []byte
}

// send queues a frame; a connection too slow to take it is closed, as
// Discord would.
func (c *conn) send(typ int, data []byte) {
	select {
	case c.out <- frame{typ, data}:
	default:
		c.ws.Close()
	}
}

func (c *conn) sendJSON(v any) {
	data, _ := json.Marshal(v)
	c.send(websocket.TextMessage, data)
}

func (c *conn) writeLoop(done <-chan struct{}) {
	for {
		select {
		case f := <-c.out:
			c.ws.SetWriteDeadline(time.Now().Add(5 * time.Second))
			err := c.ws.WriteMessage(f.typ, f.data)
			if err != nil || f.typ == websocket.CloseMessage {
				c.ws.Close()
				return
			}
		case <-done:
			return
		}
	}
}

var upgrader = websocket.Upgrader{CheckOrigin: func(*http.Request) bool { return true }}

// serveGateway serves one gateway connection: HELLO, then IDENTIFY or
// RESUME, heartbeats, and the events the fake dispatches.
func (s *Server) serveGateway(w http.ResponseWriter, r *http.Request) {
	ws, err := upgrader.Upgrade(w, r, nil)
	if err != nil {
		return
	}
	c := &conn{ws: ws, out: make(chan frame, 1024), beat: make(chan struct{}), version: 10}
	if v, err := strconv.Atoi(r.URL.Query().Get("v")); err == nil {
		c.version = v
	}
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		ws.Close()
		return
	}
	s.conns[c] = struct{}{}
	s.gateways.Add(1)
	s.mu.Unlock()
	defer s.gateways.Done()

	done, written := make(chan struct{}), make(chan struct{})
	go func() { c.writeLoop(done); close(written) }()
	defer func() { ws.Close(); close(done); <-written }()

	c.sendJSON(map[string]any{"op": 10, "s": nil, "t": nil, "d": map[string]int{"heartbeat_interval": heartbeatInterval}})
	for {
		_, data, err := ws.ReadMessage()
		if err != nil {
			s.connClosed(c, err)
			return
		}
		var p struct {
			Op int             `json:"op"`
			D  json.RawMessage `json:"d"`
		}
		if json.Unmarshal(data, &p) != nil {
			s.drop(c, 4002, "Error while decoding payload.")
			continue
		}
		switch p.Op {
		case 1:
			s.mu.Lock()
			s.heartbeats++
			if !c.beaten {
				c.beaten = true
				close(c.beat)
			}
			s.mu.Unlock()
			c.sendJSON(map[string]any{"op": 11, "s": nil, "t": nil, "d": nil})
		case 2:
			s.identify(c, p.D)
		case 6:
			s.resume(c, p.D)
		}
	}
}

func (s *Server) tokenOK(token string) bool { return strings.TrimPrefix(token, "Bot ") == s.token }

func (s *Server) identify(c *conn, d json.RawMessage) {
	// discordgo's own Identify does not read back what it writes (the
	// presence's activity), so the presence is left out.
	var p struct {
		Token          string                       `json:"token"`
		Properties     discordgo.IdentifyProperties `json:"properties"`
		Compress       bool                         `json:"compress"`
		LargeThreshold int                          `json:"large_threshold"`
		Shard          *[2]int                      `json:"shard"`
		Intents        discordgo.Intent             `json:"intents"`
	}
	if json.Unmarshal(d, &p) != nil || !s.tokenOK(p.Token) {
		s.drop(c, 4004, "Authentication failed.")
		return
	}
	id := discordgo.Identify{Token: p.Token, Properties: p.Properties, Compress: p.Compress,
		LargeThreshold: p.LargeThreshold, Shard: p.Shard, Intents: p.Intents}
	s.mu.Lock()
	defer s.mu.Unlock()
	if c.sess != nil {
		s.dropLocked(c, 4005, "Already authenticated.")
		return
	}
	sess := &session{id: newToken(), conn: c, shard: shard{0, 1}}
	if p.Shard != nil {
		if p.Shard[1] < 1 || p.Shard[0] < 0 || p.Shard[0] >= p.Shard[1] {
			s.dropLocked(c, 4010, "Invalid shard.")
			return
		}
		sess.shard = shard{p.Shard[0], p.Shard[1]}
	}
	s.sessions[sess.id] = sess
	c.sess = sess
	s.recordLocked(Call{Kind: KindIdentify, SessionID: sess.id, Identify: &id, JSON: d})

	guilds := []any{}
	for _, g := range s.guildOrder {
		if !s.guilds[g].WithoutBot && sess.shard.holds(g) {
			guilds = append(guilds, map[string]any{"id": g, "unavailable": true})
		}
	}
	ready := map[string]any{
		"v": c.version, "user": userJSON(s.bot, true), "guilds": guilds, "session_id": sess.id,
		"resume_gateway_url": s.wsURL, "session_type": "normal", "private_channels": []any{},
		"relationships": []any{}, "presences": []any{}, "guild_join_requests": []any{},
		"geo_ordered_rtc_regions": []string{}, "auth": map[string]any{},
		"application": map[string]any{"id": s.appID, "flags": 0},
	}
	if id.Shard != nil {
		ready["shard"] = id.Shard
	}
	s.sendLocked(sess, "READY", ready)
	for _, g := range s.guildOrder {
		if !s.guilds[g].WithoutBot && sess.shard.holds(g) {
			s.sendLocked(sess, "GUILD_CREATE", s.guildCreateJSON(s.guilds[g]))
		}
	}
}

func (s *Server) resume(c *conn, d json.RawMessage) {
	var p struct {
		Token     string `json:"token"`
		SessionID string `json:"session_id"`
		Seq       int64  `json:"seq"`
	}
	if json.Unmarshal(d, &p) != nil || !s.tokenOK(p.Token) {
		s.drop(c, 4004, "Authentication failed.")
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	call := Call{Kind: KindResume, SessionID: p.SessionID, JSON: d}
	sess := s.sessions[p.SessionID]
	if sess == nil || sess.dead || p.Seq > sess.seq || c.sess != nil {
		call.Err = &Error{Message: "Invalid Session"}
		s.recordLocked(call)
		c.sendJSON(map[string]any{"op": 9, "s": nil, "t": nil, "d": false})
		return
	}
	s.recordLocked(call)
	if old := sess.conn; old != nil {
		s.dropLocked(old, 4000, "Session resumed elsewhere.")
	}
	sess.conn, c.sess = c, sess
	for _, e := range sess.events[p.Seq:] {
		c.send(websocket.TextMessage, e)
	}
	s.sendLocked(sess, "RESUMED", map[string]any{})
}

// connClosed notes that a connection ended. A close by the bot with 1000 or
// 1001 ends its session, as on Discord; any other end leaves it resumable.
func (s *Server) connClosed(c *conn, err error) {
	code := websocket.CloseAbnormalClosure
	var ce *websocket.CloseError
	if errors.As(err, &ce) {
		code = ce.Code
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.conns, c)
	if c.dropped || s.closed {
		return
	}
	call := Call{Kind: KindClose, CloseCode: code}
	if sess := c.sess; sess != nil {
		call.SessionID = sess.id
		if sess.conn == c {
			sess.conn = nil
		}
		if code == websocket.CloseNormalClosure || code == websocket.CloseGoingAway {
			sess.dead = true
		}
	}
	s.recordLocked(call)
}

func (s *Server) drop(c *conn, code int, text string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.dropLocked(c, code, text)
}

// dropLocked closes a connection from the fake's side, with a close frame.
func (s *Server) dropLocked(c *conn, code int, text string) {
	c.dropped = true
	if c.sess != nil && c.sess.conn == c {
		c.sess.conn = nil
	}
	c.send(websocket.CloseMessage, websocket.FormatCloseMessage(code, text))
}

// Disconnect closes every gateway connection of the bot, as Discord does
// when a gateway node restarts; discordgo then reconnects. With resumable,
// the sessions go on: discordgo's RESUME replays what it missed. Without,
// they end: its RESUME gets INVALID_SESSION and it identifies again, for a
// new READY. Wait for the KindResume or KindIdentify call to know it is
// back.
//
// It first waits, up to 5 seconds, for each identified connection's first
// heartbeat: discordgo v0.29.0, dropped before its heartbeat goroutine has
// run, closes its next connection too, with code 1000, which ends the
// session.
func (s *Server) Disconnect(resumable bool) {
	s.mu.Lock()
	var beats []chan struct{}
	for c := range s.conns {
		if c.sess != nil {
			beats = append(beats, c.beat)
		}
	}
	s.mu.Unlock()
	timeout := time.After(5 * time.Second)
	for _, beat := range beats {
		select {
		case <-beat:
		case <-timeout:
		}
	}

	s.mu.Lock()
	defer s.mu.Unlock()
	code, text := 4000, "Unknown error."
	if !resumable {
		code, text = 4009, "Session timed out."
	}
	for c := range s.conns {
		if c.sess != nil && !resumable {
			c.sess.dead = true
		}
		s.dropLocked(c, code, text)
	}
	if !resumable {
		for _, sess := range s.sessions {
			sess.dead = true
		}
	}
}

// sendLocked dispatches an event on a session: it is kept for a RESUME and
// sent now if the session is connected.
func (s *Server) sendLocked(sess *session, event string, d any) {
	sess.seq++
	data, err := json.Marshal(map[string]any{"op": 0, "s": sess.seq, "t": event, "d": d})
	if err != nil {
		panic("fakediscord: " + err.Error())
	}
	sess.events = append(sess.events, data)
	if sess.conn != nil {
		sess.conn.send(websocket.TextMessage, data)
	}
}

// broadcastLocked dispatches an event on every session that has not ended,
// and returns how many there were.
func (s *Server) broadcastLocked(event string, d any) int {
	n := 0
	for _, sess := range s.sessions {
		if !sess.dead {
			s.sendLocked(sess, event, d)
			n++
		}
	}
	return n
}
