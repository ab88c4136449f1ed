package bot

import (
	"sync"
	"time"

	"github.com/iceagechess/iceage/play"
)

// Limits bound what one user may start, so that no one floods a server
// with challenges, a player with pings, or the engine with work. A zero
// field turns its limit off.
//
// The caps on challenges, engine games and posts, and the wait after a
// challenge that came to nothing, are play's (play.Caps): counted in
// storage and checked in the act's transaction, they hold across
// processes. The waits between two analyses or replays guard the cores
// of the process that draws them, and each process keeps its own.
type Limits struct {
	// OpenChallenges is how many challenges a user may have waiting in
	// a server at once.
	OpenChallenges int
	// EngineGames is how many games against the engine a user may have
	// going on in a server at once.
	EngineGames int
	// PostsPerMinute is how many public posts and threads a user may
	// make in a minute: challenges and their withdrawals, games against
	// the engine, boards asked for with /board.
	PostsPerMinute int
	// ChallengeAgain is how long a user waits before challenging the
	// same person again after a challenge to them was declined,
	// withdrawn or left to expire. A challenge that became a game sets
	// no wait: its players may play the next one at once.
	ChallengeAgain time.Duration
	// Analyze and GIF are how long a user waits between two analyses,
	// and between two replays.
	Analyze, GIF time.Duration
	// TournamentPlayers is how many players a new tournament takes at
	// once; 0 means tournament.DefaultMaxPlayers. Pairing a Swiss grows
	// fast with its players.
	TournamentPlayers int
}

// caps are the limits play checks in its transactions.
func (l Limits) caps() play.Caps {
	return play.Caps{Challenges: l.OpenChallenges, EngineGames: l.EngineGames, Posts: l.PostsPerMinute, ChallengeAgain: l.ChallengeAgain}
}

// Cooldown kinds.
const (
	coolAnalyze = "analyze"
	coolGIF     = "gif"
)

type cooldownKey struct{ kind, user string }

// cooldowns remember, per user and kind of work, when it may be asked
// for again.
type cooldowns struct {
	limits Limits           // how long each kind's cooldown lasts
	now    func() time.Time // Config.Now
	mu     sync.Mutex
	next   map[cooldownKey]time.Time
	swept  time.Time
}

// take reports whether k may go ahead at now and, if so, starts its
// cooldown of d; if not, until is when it may. A d of 0 always goes
// ahead.
func (c *cooldowns) take(k cooldownKey, now time.Time, d time.Duration) (ok bool, until time.Time) {
	if d <= 0 {
		return true, now
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.next == nil {
		c.next = map[cooldownKey]time.Time{}
	}
	if now.Sub(c.swept) > time.Minute {
		for key, t := range c.next {
			if !now.Before(t) {
				delete(c.next, key)
			}
		}
		c.swept = now
	}
	if t, found := c.next[k]; found && now.Before(t) {
		return false, t
	}
	c.next[k] = now.Add(d)
	return true, now
}

// give back undoes a take whose work did not happen after all.
func (c *cooldowns) giveBack(k cooldownKey) {
	c.mu.Lock()
	defer c.mu.Unlock()
	delete(c.next, k)
}

// cooledDown starts the user's cooldown of kind; while one runs it tells
// them when to try again and returns errNotHere. undo gives the cooldown
// back, for work that did not happen after all.
func (c *cooldowns) cooledDown(in *interaction, kind string) (undo func(), err error) {
	var d time.Duration
	switch kind {
	case coolAnalyze:
		d = c.limits.Analyze
	case coolGIF:
		d = c.limits.GIF
	}
	k := cooldownKey{kind, in.user}
	ok, until := c.take(k, c.now(), d)
	if !ok {
		return func() {}, in.explain(tr(in.lang, "limits."+kind, map[string]any{"When": timestamp(until, "R")}))
	}
	return func() { c.giveBack(k) }, nil
}

// posted counts a public post of the user (a board they asked for) and,
// past their posts a minute, refuses it with play's TooManyPosts.
func (sh *shared) posted(in *interaction) error {
	return sh.play.Post(in.ctx, in.user, sh.cfg.Now(), sh.cfg.Limits.caps())
}
