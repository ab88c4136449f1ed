package bot

import (
	"context"
	"net/http"
	"strconv"
	"sync"
	"time"
)

// Replays. A signed interaction request is good for ever as far as its
// signature goes: whoever captures one could post it again. So the
// endpoint refuses a request whose signed timestamp is further than
// signatureSkew from now, and acts on an interaction id once in its life
// (Discord's interaction tokens last 15 minutes).
//
// Each process remembers the ids it saw; with Config.InteractionIDs
// (PostgreSQL) the processes behind a load balancer share them, so that
// a replay sent to another process is refused there too.
const (
	signatureSkew   = 5 * time.Minute
	interactionLife = 15 * time.Minute
)

// freshTimestamp reports whether r's X-Signature-Timestamp (Unix
// seconds, covered by the signature) is within signatureSkew of now.
func freshTimestamp(r *http.Request, now time.Time) bool {
	sec, err := strconv.ParseInt(r.Header.Get("X-Signature-Timestamp"), 10, 64)
	if err != nil {
		return false
	}
	d := now.Sub(time.Unix(sec, 0))
	return d <= signatureSkew && d >= -signatureSkew
}

// seenIDs remembers the interaction ids acted on, each for
// interactionLife.
type seenIDs struct {
	mu    sync.Mutex
	until map[string]time.Time
	swept time.Time
}

// first reports whether id is new, and remembers it if so.
func (s *seenIDs) first(id string, now time.Time) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.until == nil {
		s.until = map[string]time.Time{}
	}
	// Forget the expired ids now and then: a request older than the
	// skew is refused anyway, so an id past its life cannot come back.
	if now.Sub(s.swept) > time.Minute {
		for k, t := range s.until {
			if now.After(t) {
				delete(s.until, k)
			}
		}
		s.swept = now
	}
	if t, ok := s.until[id]; ok && !now.After(t) {
		return false
	}
	s.until[id] = now.Add(interactionLife)
	return true
}

// firstTime reports whether the interaction id is new: to this process,
// and to the others that share Config.InteractionIDs. When the shared
// memory cannot say (its database fails), this process's answer stands:
// a database that fails lets no act through anyway.
func (b *Bot) firstTime(ctx context.Context, id string) bool {
	if !b.seen.first(id, time.Now()) {
		return false
	}
	if b.cfg.InteractionIDs == nil {
		return true
	}
	n, err := strconv.ParseUint(id, 10, 64)
	if err != nil {
		return true // not a snowflake: Discord's own ids all are, and the signature holds
	}
	first, err := b.cfg.InteractionIDs.FirstTime(ctx, n, interactionLife)
	if err != nil {
		b.log.Warn("could not check an interaction id with the other processes", "id", id, "err", err)
		return true
	}
	return first
}
