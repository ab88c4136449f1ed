package fakediscord

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"maps"
	"math"
	"net/http"
	"slices"
	"strconv"
	"time"
)

// Routes, as Refuse and SetRateLimit name them: the method and the path
// under /api/v{n}, with Discord's names for its parameters.
const (
	RouteMessages          = "POST /channels/{channel}/messages"
	RouteMessageEdit       = "PATCH /channels/{channel}/messages/{message}"
	RouteThreads           = "POST /channels/{channel}/threads"
	RouteThreadFromMessage = "POST /channels/{channel}/messages/{message}/threads"
	RouteCallback          = "POST /interactions/{interaction}/{token}/callback"
	RouteFollowup          = "POST /webhooks/{app}/{token}"
	RouteOriginalEdit      = "PATCH /webhooks/{app}/{token}/messages/{message}"
	RouteDMChannel         = "POST /users/@me/channels"
	RouteChannel           = "GET /channels/{channel}"
	RouteChannelEdit       = "PATCH /channels/{channel}"
	RouteThreadMember      = "PUT /channels/{channel}/thread-members/{user}"
)

// A Refusal is an answer the fake gives a request instead of its own: a
// 429, a 5xx, or any error of Discord's.
type Refusal struct {
	// Status is the HTTP status: 429, 500, 502, 503 and so on; 500 when
	// zero. Err, when set, is answered instead, with its own status.
	Status int
	Err    *Error

	// RetryAfter is, for a 429, how long the bot is told to wait: the
	// Retry-After header in whole seconds, rounded up, and retry_after and
	// X-RateLimit-Reset-After exactly. Global marks the global limit.
	RetryAfter time.Duration
	Global     bool

	// Where names the path parameters a request must have to be refused:
	// {"channel": id}, {"interaction": id}. Empty matches every request on
	// the route.
	Where map[string]string

	// Times is how many matching requests are refused: 1 when zero, every
	// one from now on when negative.
	Times int

	// AfterServing serves the request and then answers the refusal: what
	// the request asked is done, but the bot is not told so, as when
	// Discord's answer is lost on the way.
	AfterServing bool
}

type refusal struct {
	route string
	Refusal
}

// Refuse makes the next requests on a route (one of the Route constants, or
// any route the fake serves, written the same way) that match r.Where get
// r's answer. Refusals are tried in the order they were added; each
// request meets at most one.
func (s *Server) Refuse(route string, r Refusal) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.knownRoutes[route] {
		s.tb.Errorf("fakediscord: Refuse: the fake serves no route %q; it serves %q", route, s.routeNames())
		return
	}
	if r.Times == 0 {
		r.Times = 1
	}
	s.refusals = append(s.refusals, &refusal{route, r})
}

// Slow makes the next times requests on a route that match where be
// served at once and answered after d: what was asked is done, and the
// answer is slow on the way back. A client that gives up first (a
// deadline, a stop) is never told, as when a stop cuts short a post
// that Discord made.
func (s *Server) Slow(route string, where map[string]string, times int, d time.Duration) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.knownRoutes[route] {
		s.tb.Errorf("fakediscord: Slow: the fake serves no route %q; it serves %q", route, s.routeNames())
		return
	}
	s.slows = append(s.slows, &slowAnswer{route: route, where: where, times: times, d: d})
}

type slowAnswer struct {
	route string
	where map[string]string
	times int
	d     time.Duration
}

// slowLocked takes the first slow answer that matches a request served
// on a route, and returns how long its answer waits, or 0.
func (s *Server) slowLocked(route string, req *http.Request) time.Duration {
	for i, a := range s.slows {
		matches := a.route == route
		for k, v := range a.where {
			matches = matches && req.PathValue(k) == v
		}
		if !matches {
			continue
		}
		if a.times--; a.times <= 0 {
			s.slows = slices.Delete(s.slows, i, i+1)
		}
		return a.d
	}
	return 0
}

// RefuseCallback makes the callback of one interaction get r's answer.
func (s *Server) RefuseCallback(interactionID string, r Refusal) {
	r.Where = map[string]string{"interaction": interactionID}
	s.Refuse(RouteCallback, r)
}

// refusalLocked takes the first refusal that matches a request on a
// route, or returns nil.
func (s *Server) refusalLocked(route string, req *http.Request) *Refusal {
	for i, r := range s.refusals {
		if r.route != route {
			continue
		}
		matches := true
		for k, v := range r.Where {
			matches = matches && req.PathValue(k) == v
		}
		if !matches {
			continue
		}
		taken := r.Refusal
		if r.Times > 0 {
			r.Times--
			if r.Times == 0 {
				s.refusals = slices.Delete(s.refusals, i, i+1)
			}
		}
		return &taken
	}
	return nil
}

// answer is the error a refusal answers.
func (r *Refusal) answer() *Error {
	if r.Err != nil {
		return r.Err
	}
	status := r.Status
	if status == 0 {
		status = http.StatusInternalServerError
	}
	if status == http.StatusTooManyRequests {
		return rateLimited(r.RetryAfter, r.Global)
	}
	return &Error{Status: status, Message: fmt.Sprintf("%d: %s", status, http.StatusText(status))}
}

// rateLimited is Discord's 429 body, with retry_after in seconds.
func rateLimited(after time.Duration, global bool) *Error {
	return &Error{Status: http.StatusTooManyRequests, Message: "You are being rate limited.",
		RetryAfter: after.Seconds(), Global: &global}
}

// A RateLimit is a limit Discord puts on a route: Requests in each Per,
// counted for each top-level resource of the path (the channel, the guild,
// or the webhook and its token), as Discord counts per-route limits.
type RateLimit struct {
	Requests int
	Per      time.Duration

	// Hidden keeps the limit out of the headers until a request is over
	// it, as Discord's sublimits on thread creation do: the bot cannot see
	// it coming and gets a 429 whose Retry-After may be many minutes.
	Hidden bool
}

type bucket struct {
	start time.Time
	used  int
}

// SetRateLimit limits a route from now on: requests over the limit answer
// 429 with Retry-After until their window ends, and every answer on the
// route carries Discord's X-RateLimit headers. A zero limit lifts it.
func (s *Server) SetRateLimit(route string, l RateLimit) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.knownRoutes[route] {
		s.tb.Errorf("fakediscord: SetRateLimit: the fake serves no route %q; it serves %q", route, s.routeNames())
		return
	}
	if l.Requests <= 0 || l.Per <= 0 {
		delete(s.limits, route)
		return
	}
	s.limits[route] = l
}

// SetLatency makes every REST request wait d before it is served, as a
// request to Discord takes its time.
func (s *Server) SetLatency(d time.Duration) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.latency = d
}

// topResource is the top-level resource of a request's path that Discord
// counts its limits by.
func topResource(req *http.Request) string {
	for _, k := range []string{"channel", "guild", "token"} {
		if v := req.PathValue(k); v != "" {
			return k + "=" + v
		}
	}
	return ""
}

// limitLocked counts a request against its route's limit, sets the limit's
// headers, and returns the 429 when the request is over it.
func (s *Server) limitLocked(route string, req *http.Request, h http.Header, now time.Time) *Error {
	l, ok := s.limits[route]
	if !ok {
		return nil
	}
	key := route + " " + topResource(req)
	b := s.buckets[key]
	if b == nil || now.Sub(b.start) >= l.Per {
		b = &bucket{start: now}
		s.buckets[key] = b
	}
	reset := b.start.Add(l.Per)
	if b.used >= l.Requests {
		if !l.Hidden {
			setLimitHeaders(h, route, l, 0, reset, now)
		}
		return rateLimited(reset.Sub(now), false)
	}
	b.used++
	if !l.Hidden {
		setLimitHeaders(h, route, l, l.Requests-b.used, reset, now)
	}
	return nil
}

func setLimitHeaders(h http.Header, route string, l RateLimit, remaining int, reset, now time.Time) {
	sum := sha256.Sum256([]byte(route))
	h.Set("X-RateLimit-Limit", strconv.Itoa(l.Requests))
	h.Set("X-RateLimit-Remaining", strconv.Itoa(remaining))
	h.Set("X-RateLimit-Reset", strconv.FormatFloat(float64(reset.UnixMilli())/1000, 'f', 3, 64))
	h.Set("X-RateLimit-Reset-After", strconv.FormatFloat(reset.Sub(now).Seconds(), 'f', 3, 64))
	h.Set("X-RateLimit-Bucket", hex.EncodeToString(sum[:8]))
}

// retryHeaders sets the headers Discord sends with a 429.
func retryHeaders(h http.Header, e *Error) {
	if e.Status != http.StatusTooManyRequests {
		return
	}
	h.Set("Retry-After", strconv.Itoa(int(math.Ceil(e.RetryAfter))))
	if e.Global != nil && *e.Global {
		h.Set("X-RateLimit-Global", "true")
		h.Set("X-RateLimit-Scope", "global")
	}
	if h.Get("X-RateLimit-Scope") == "" {
		h.Set("X-RateLimit-Scope", "user")
	}
}

// routeNames lists the routes the fake serves, for error messages.
func (s *Server) routeNames() []string { return slices.Sorted(maps.Keys(s.knownRoutes)) }
