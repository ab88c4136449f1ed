package web

import (
	"context"
	"crypto/hmac"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"
)

// Sign-in with Discord, OAuth2's authorization-code flow: /signin sends
// the viewer to Discord's consent page with a state kept in a signed
// cookie; /signin/callback checks the state, trades the code for an
// access token with the client secret, asks Discord who the token is
// (/users/@me), and keeps the user's id in a signed cookie. Nothing is
// kept on the server; the token is dropped after that one question.

const (
	sessionCookie = "iceage_session"
	stateCookie   = "iceage_signin"
	// sessionLife is how long a sign-in lasts.
	sessionLife = 30 * 24 * time.Hour
	// stateLife is how long the viewer has to say yes on Discord's page.
	stateLife = 10 * time.Minute
	// maxNext is the longest address /signin sends the viewer back to.
	maxNext = 200
	// maxDiscordAnswer is the most of an answer of Discord's read.
	maxDiscordAnswer = 64 << 10
)

// The cookies are Secure, HttpOnly and SameSite=Lax: sent over TLS only
// (browsers count http://localhost and 127.0.0.1 as secure, for
// development), never to scripts, and not with another site's posts.

// signedIn returns the viewer's Discord user id from their sign-in
// cookie, if it holds and has not expired.
func (s *Server) signedIn(r *http.Request) (string, bool) {
	c, err := r.Cookie(sessionCookie)
	if err != nil {
		return "", false
	}
	return s.openSession(c.Value)
}

// openSession reads a sign-in cookie's value: "user|expiry" signed.
func (s *Server) openSession(v string) (string, bool) {
	if len(v) > 128 {
		return "", false
	}
	value, ok := s.keys.Open("session", v)
	if !ok {
		return "", false
	}
	user, exp, ok := strings.Cut(value, "|")
	if !ok || !snowflake(user) {
		return "", false
	}
	unix, err := strconv.ParseInt(exp, 10, 64)
	if err != nil || s.opts.Now().Unix() > unix {
		return "", false
	}
	return user, true
}

// snowflake reports whether id looks like a Discord id: 1 to 20 digits.
func snowflake(id string) bool {
	if len(id) == 0 || len(id) > 20 {
		return false
	}
	for _, c := range id {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// localNext returns next if it is a path on this listener ("/g/…"),
// else "/": a sign-in never sends the viewer to another site.
func localNext(next string) string {
	if len(next) == 0 || len(next) > maxNext || next[0] != '/' || strings.HasPrefix(next, "//") ||
		strings.ContainsAny(next, "\\\r\n\t") {
		return "/"
	}
	u, err := url.Parse(next)
	if err != nil || u.Scheme != "" || u.Host != "" || u.User != nil {
		return "/"
	}
	return next
}

// discordBase is Discord's address, ending in "/".
func (s *Server) discordBase() string {
	if b := s.opts.DiscordURL; b != "" {
		return strings.TrimSuffix(b, "/") + "/"
	}
	return "https://discord.com/"
}

func (s *Server) redirectURI() string { return s.base.JoinPath("signin", "callback").String() }

// signin sends the viewer to Discord's consent page.
func (s *Server) signin(w http.ResponseWriter, r *http.Request) {
	lang := s.lang(r)
	if s.opts.ClientID == "" {
		s.problem(w, r, http.StatusNotFound, lang, "web.signin_off")
		return
	}
	var b [16]byte
	_, _ = rand.Read(b[:])
	state := hex.EncodeToString(b[:])
	next := localNext(r.URL.Query().Get("next"))
	exp := strconv.FormatInt(s.opts.Now().Add(stateLife).Unix(), 10)
	http.SetCookie(w, &http.Cookie{Name: stateCookie, Value: s.keys.Sign("signin", state+"|"+exp+"|"+next), Path: "/signin",
		MaxAge: int(stateLife / time.Second), HttpOnly: true, Secure: true, SameSite: http.SameSiteLaxMode})
	q := url.Values{"client_id": {s.opts.ClientID}, "redirect_uri": {s.redirectURI()}, "response_type": {"code"},
		"scope": {"identify"}, "state": {state}}
	http.Redirect(w, r, s.discordBase()+"oauth2/authorize?"+q.Encode(), http.StatusFound)
}

// callback finishes a sign-in: the state must be the cookie's, the code
// Discord's.
func (s *Server) callback(w http.ResponseWriter, r *http.Request) {
	lang := s.lang(r)
	c, err := r.Cookie(stateCookie)
	q := r.URL.Query()
	state, code := q.Get("state"), q.Get("code")
	if err != nil || s.opts.ClientID == "" || len(c.Value) > 512 || len(code) == 0 || len(code) > 128 || len(state) != 32 {
		s.problem(w, r, http.StatusBadRequest, lang, "web.signin_failed")
		return
	}
	value, ok := s.keys.Open("signin", c.Value)
	parts := strings.SplitN(value, "|", 3)
	if !ok || len(parts) != 3 || !hmac.Equal([]byte(parts[0]), []byte(state)) {
		s.problem(w, r, http.StatusBadRequest, lang, "web.signin_failed")
		return
	}
	if exp, err := strconv.ParseInt(parts[1], 10, 64); err != nil || s.opts.Now().Unix() > exp {
		s.problem(w, r, http.StatusBadRequest, lang, "web.signin_failed")
		return
	}
	http.SetCookie(w, &http.Cookie{Name: stateCookie, Path: "/signin", MaxAge: -1, HttpOnly: true, Secure: true, SameSite: http.SameSiteLaxMode})
	user, err := s.identify(r.Context(), code)
	if err != nil {
		s.log.Warn("web: signing in with Discord failed", "err", err)
		s.problem(w, r, http.StatusBadGateway, lang, "web.signin_failed")
		return
	}
	exp := strconv.FormatInt(s.opts.Now().Add(sessionLife).Unix(), 10)
	http.SetCookie(w, &http.Cookie{Name: sessionCookie, Value: s.keys.Sign("session", user+"|"+exp), Path: "/",
		MaxAge: int(sessionLife / time.Second), HttpOnly: true, Secure: true, SameSite: http.SameSiteLaxMode})
	http.Redirect(w, r, localNext(parts[2]), http.StatusFound) // #nosec G710 -- localNext keeps it a path on this listener
}

// identify trades an authorization code for an access token and returns
// the id of the user it belongs to.
func (s *Server) identify(ctx context.Context, code string) (string, error) {
	form := url.Values{"client_id": {s.opts.ClientID}, "client_secret": {s.opts.ClientSecret}, "grant_type": {"authorization_code"},
		"code": {code}, "redirect_uri": {s.redirectURI()}}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, s.discordBase()+"api/v10/oauth2/token", strings.NewReader(form.Encode()))
	if err != nil {
		return "", err
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	var tok struct {
		AccessToken string `json:"access_token"`
		TokenType   string `json:"token_type"`
	}
	if err := s.askDiscord(req, &tok); err != nil {
		return "", fmt.Errorf("the token exchange: %w", err)
	}
	if tok.AccessToken == "" {
		return "", errors.New("the token exchange gave no access token")
	}
	req, err = http.NewRequestWithContext(ctx, http.MethodGet, s.discordBase()+"api/v10/users/@me", nil)
	if err != nil {
		return "", err
	}
	req.Header.Set("Authorization", "Bearer "+tok.AccessToken)
	var me struct {
		ID string `json:"id"`
	}
	if err := s.askDiscord(req, &me); err != nil {
		return "", fmt.Errorf("/users/@me: %w", err)
	}
	if !snowflake(me.ID) {
		return "", fmt.Errorf("/users/@me gave no user id (%q)", me.ID)
	}
	return me.ID, nil
}

func (s *Server) askDiscord(req *http.Request, into any) error {
	resp, err := s.opts.Client.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxDiscordAnswer))
	if err != nil {
		return err
	}
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("answered %s", resp.Status)
	}
	return json.Unmarshal(body, into)
}

// signout forgets the viewer's sign-in.
func (s *Server) signout(w http.ResponseWriter, r *http.Request) {
	http.SetCookie(w, &http.Cookie{Name: sessionCookie, Path: "/", MaxAge: -1, HttpOnly: true, Secure: true, SameSite: http.SameSiteLaxMode})
	http.Redirect(w, r, localNext(r.URL.Query().Get("next")), http.StatusFound) // #nosec G710 -- localNext keeps it a path on this listener
}
