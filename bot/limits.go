package bot

import (
	"hash/maphash"
	"sync"
	"time"

	"github.com/iceagechess/iceage/play"
)

// Limits bound what one user may start, so that no one floods a server
// with challenges, a player with pings, or the engine with work. A zero
// field turns its limit off.
//
// The cooldowns are remembered by each process: a server's interactions
// come to one gateway shard, so they hold for a server; behind a load
// balancer of HTTP interactions, each process keeps its own.
type Limits struct {
	// OpenChallenges is how many challenges a user may have waiting in
	// a server at once.
	OpenChallenges int
	// EngineGames is how many games against the engine a user may have
	// going on in a server at once.
	EngineGames int
	// ChallengeAgain is how long a user waits before challenging the
	// same person again, whether the first challenge was withdrawn,
	// declined or is still there.
	ChallengeAgain time.Duration
	// Analyze and GIF are how long a user waits between two analyses,
	// and between two replays.
	Analyze, GIF time.Duration
}

// Cooldown kinds.
const (
	coolChallenge = "challenge"
	coolAnalyze   = "analyze"
	coolGIF       = "gif"
)

type cooldownKey struct{ kind, user, target string }

// cooldowns remember, per user and kind of work, when it may be asked
// for again.
type cooldowns struct {
	mu    sync.Mutex
	next  map[cooldownKey]time.Time
	swept time.Time
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

// userLocks serialise what one user starts, so that two challenges sent
// at once cannot both pass a cap meant for one more.
type userLocks struct {
	seed  maphash.Seed
	once  sync.Once
	locks [64]sync.Mutex
}

func (u *userLocks) lock(user string) func() {
	u.once.Do(func() { u.seed = maphash.MakeSeed() })
	m := &u.locks[maphash.String(u.seed, user)%uint64(len(u.locks))]
	m.Lock()
	return m.Unlock
}

// tooManyChallenges tells the user when they are over the cap of
// challenges waiting in this server, and returns errNotHere then.
func (b *Bot) tooManyChallenges(in *interaction) error {
	most := b.cfg.Limits.OpenChallenges
	if most <= 0 {
		return nil
	}
	cs, err := b.play.Challenges(in.ctx, in.user)
	if err != nil {
		return err
	}
	now := b.cfg.Now()
	n, first := 0, time.Time{}
	for _, c := range cs {
		if c.From.ID != in.user || c.Guild != in.i.GuildID || !c.Expires.After(now) {
			continue
		}
		n++
		if first.IsZero() || c.Expires.Before(first) {
			first = c.Expires
		}
	}
	if n < most {
		return nil
	}
	return in.explain(tr(in.lang, "limits.open_challenges", map[string]any{"Number": most, "When": timestamp(first, "R")}))
}

// tooManyEngineGames tells the user when they play as many games against
// the engine in this server as they may, and returns errNotHere then.
func (b *Bot) tooManyEngineGames(in *interaction) error {
	most := b.cfg.Limits.EngineGames
	if most <= 0 {
		return nil
	}
	gs, err := b.play.ActiveGames(in.ctx, in.user)
	if err != nil {
		return err
	}
	n := 0
	for _, g := range gs {
		if g.Guild == in.i.GuildID && engineGame(&g) {
			n++
		}
	}
	if n < most {
		return nil
	}
	return in.explain(tr(in.lang, "limits.engine_games", map[string]any{"Number": most}))
}

// cooledDown starts the user's cooldown of kind (against target, for a
// challenge); while one runs it tells them when to try again and
// returns errNotHere. undo gives the cooldown back, for work that did
// not happen after all.
func (b *Bot) cooledDown(in *interaction, kind, target string) (undo func(), err error) {
	var d time.Duration
	switch kind {
	case coolChallenge:
		d = b.cfg.Limits.ChallengeAgain
	case coolAnalyze:
		d = b.cfg.Limits.Analyze
	case coolGIF:
		d = b.cfg.Limits.GIF
	}
	k := cooldownKey{kind, in.user, target}
	ok, until := b.cooldowns.take(k, b.cfg.Now(), d)
	if !ok {
		data := map[string]any{"When": timestamp(until, "R")}
		if target != "" {
			data["Player"] = mention(target)
		}
		return func() {}, in.explain(tr(in.lang, "limits."+kind, data))
	}
	return func() { b.cooldowns.giveBack(k) }, nil
}

// engineGame reports whether g has the engine in a seat.
func engineGame(g *play.Game) bool { return g.Engine != [2]int{} }
