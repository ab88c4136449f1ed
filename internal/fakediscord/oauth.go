package fakediscord

import (
	"crypto/subtle"
	"mime"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"
)

// OAuth2, as an Activity signs its user in: the Embedded App SDK's
// authorize gives the Activity a code (Authorize here), the app's server
// exchanges it at POST /oauth2/token with its client id and secret for
// an access token, and GET /users/@me with "Authorization: Bearer" names
// its user.

// codeLife is how long an authorization code may be exchanged: Discord's
// are short-lived and good for one exchange.
const codeLife = 10 * time.Minute

// tokenLife is an access token's expires_in: a week, as Discord gives.
const tokenLife = 7 * 24 * time.Hour

// grant is an authorization code or an access token, and whose it is.
type grant struct {
	userID  string
	scopes  []string
	expires time.Time
}

// ClientSecret is the application's OAuth2 client secret; its client id
// is AppID.
func (s *Server) ClientSecret() string { return s.clientSecret }

// Authorize is the user's consent to the Activity's authorize request
// with these scopes ("identify" when none): it returns the code the SDK
// hands the Activity, good for one exchange within ten minutes.
func (s *Server) Authorize(userID string, scopes ...string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.users[userID] == nil {
		s.tb.Errorf("fakediscord: Authorize: no user %q", userID)
		return ""
	}
	if len(scopes) == 0 {
		scopes = []string{"identify"}
	}
	code := newToken()
	s.codes[code] = &grant{userID: userID, scopes: scopes, expires: time.Now().Add(codeLife)}
	return code
}

// RevokeTokens revokes every access token of the user, as when they
// deauthorize the app: /users/@me answers 401 for them.
func (s *Server) RevokeTokens(userID string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for t, g := range s.tokens {
		if g.userID == userID {
			delete(s.tokens, t)
			unrouteBearer(t)
		}
	}
}

// Exchanges counts the token endpoint's requests and /users/@me's with a
// bearer token, for tests of caching.
func (s *Server) Exchanges() (tokens, identities int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.tokenRequests, s.meRequests
}

// oauthError is the token endpoint's answer to a bad request, as RFC 6749
// and Discord write it.
type oauthError struct {
	status      int
	Error       string `json:"error"`
	Description string `json:"error_description,omitempty"`
}

// serveToken is POST /api[/v{n}]/oauth2/token.
func (s *Server) serveToken(w http.ResponseWriter, r *http.Request, form url.Values) {
	s.mu.Lock()
	s.tokenRequests++
	answer, e := s.tokenLocked(r, form)
	s.mu.Unlock()
	if e != nil {
		s.logf("POST %s: %s %s", r.URL.Path, e.Error, e.Description)
		writeJSON(w, e.status, e)
		return
	}
	w.Header().Set("Cache-Control", "no-store")
	writeJSON(w, http.StatusOK, answer)
}

func (s *Server) tokenLocked(r *http.Request, form url.Values) (map[string]any, *oauthError) {
	id, secret, basic := r.BasicAuth()
	if !basic {
		id, secret = form.Get("client_id"), form.Get("client_secret")
	}
	if id != s.appID || subtle.ConstantTimeCompare([]byte(secret), []byte(s.clientSecret)) != 1 {
		return nil, &oauthError{status: http.StatusUnauthorized, Error: "invalid_client"}
	}
	switch gt := form.Get("grant_type"); gt {
	case "authorization_code":
	case "":
		return nil, &oauthError{status: http.StatusBadRequest, Error: "invalid_request", Description: `Missing "grant_type" in request.`}
	default:
		return nil, &oauthError{status: http.StatusBadRequest, Error: "unsupported_grant_type", Description: `Unsupported grant type "` + gt + `".`}
	}
	code := form.Get("code")
	if code == "" {
		return nil, &oauthError{status: http.StatusBadRequest, Error: "invalid_request", Description: `Missing "code" in request.`}
	}
	g := s.codes[code]
	delete(s.codes, code) // one exchange, good or bad
	if g == nil || time.Now().After(g.expires) {
		return nil, &oauthError{status: http.StatusBadRequest, Error: "invalid_grant", Description: `Invalid "code" in request.`}
	}
	token := newToken() + newToken()
	s.tokens[token] = &grant{userID: g.userID, scopes: g.scopes, expires: time.Now().Add(tokenLife)}
	routeBearer(token, s)
	return map[string]any{
		"access_token": token, "token_type": "Bearer", "expires_in": int(tokenLife / time.Second),
		"refresh_token": newToken(), "scope": strings.Join(g.scopes, " "),
	}, nil
}

// serveBearer serves what a user's access token may ask for: GET
// /users/@me, which needs the identify scope.
func (s *Server) serveBearer(w http.ResponseWriter, r *http.Request, token string) {
	s.mu.Lock()
	s.meRequests++
	g := s.tokens[token]
	var u *User
	if g != nil && time.Now().Before(g.expires) {
		u = s.users[g.userID]
	}
	s.mu.Unlock()
	me := r.Method == http.MethodGet && isUsersMe(r.URL.Path)
	switch {
	case u == nil:
		writeError(w, errUnauthorized)
	case !me:
		s.logf("no fake for %s %s with a bearer token; answering 404", r.Method, r.URL.Path)
		writeError(w, errNotFound)
	case !slices.Contains(g.scopes, "identify"):
		writeError(w, errUnauthorized)
	default:
		m := userJSON(*u, false)
		m["locale"], m["mfa_enabled"], m["flags"], m["premium_type"] = u.Locale, false, 0, 0
		writeJSON(w, http.StatusOK, m)
	}
}

// isUsersMe reports whether path is /api/users/@me or /api/v{n}/users/@me.
func isUsersMe(path string) bool {
	rest, ok := strings.CutPrefix(path, "/api/")
	if !ok {
		return false
	}
	if v, after, ok := strings.Cut(rest, "/"); ok && strings.HasPrefix(v, "v") {
		rest = after
	}
	return rest == "users/@me"
}

// isTokenPath reports whether path is Discord's token endpoint,
// /api/oauth2/token or /api/v{n}/oauth2/token.
func isTokenPath(path string) bool {
	rest, ok := strings.CutPrefix(path, "/api/")
	if !ok {
		return false
	}
	if v, after, ok := strings.Cut(rest, "/"); ok && strings.HasPrefix(v, "v") {
		rest = after
	}
	return rest == "oauth2/token"
}

// tokenForm reads the token endpoint's form, which Discord takes only
// form-encoded; ok is false when the request was answered already.
func tokenForm(w http.ResponseWriter, r *http.Request) (url.Values, bool) {
	if r.Method != http.MethodPost {
		writeError(w, &Error{Status: http.StatusMethodNotAllowed, Code: 0, Message: "405: Method Not Allowed"})
		return nil, false
	}
	if mt, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type")); mt != "application/x-www-form-urlencoded" {
		writeJSON(w, http.StatusBadRequest, &oauthError{Error: "invalid_request", Description: "The request body must be application/x-www-form-urlencoded."})
		return nil, false
	}
	r.Body = http.MaxBytesReader(w, r.Body, 64<<10)
	if err := r.ParseForm(); err != nil {
		writeJSON(w, http.StatusBadRequest, &oauthError{Error: "invalid_request", Description: "The request body is not a form."})
		return nil, false
	}
	return r.PostForm, true
}

// bearerOf is the access token of an "Authorization: Bearer" header.
func bearerOf(r *http.Request) (string, bool) {
	return strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
}
