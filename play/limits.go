package play

import (
	"context"
	"slices"
	"time"
)

// Caps bound what one user may start, so that nobody floods a server
// with challenges, pings or threads. play checks them in the transaction
// of the act that would pass them, counted from the stored records, so
// they hold however many processes share one storage. A zero field
// turns its cap off; the zero Caps, none.
type Caps struct {
	// Challenges is how many challenges a user may have waiting for an
	// answer in a server (or in DMs) at once.
	Challenges int
	// EngineGames is how many games against the engine a user may have
	// going on in a server at once.
	EngineGames int
	// Posts is how many public posts and threads a user may make in any
	// PostWindow: challenges, games against the engine, boards asked for,
	// withdrawals.
	Posts int
	// ChallengeAgain is how long a user waits to challenge someone again
	// after a challenge of theirs to that person was declined, withdrawn
	// or left to expire. A challenge that was accepted sets none: the
	// players of a game may play the next one at once. At most
	// MaxChallengeAgain.
	ChallengeAgain time.Duration
}

// PostWindow is the window of Caps.Posts: so many a minute.
const PostWindow = time.Minute

// MaxChallengeAgain is the longest Caps.ChallengeAgain: Recent keeps
// what it needs for a day.
const MaxChallengeAgain = 24 * time.Hour

// Recent is what a user did lately that the caps count: when they made
// their latest public posts, and whom they challenged in vain. Every act
// that counts reads it first, which in a shared database locks the
// user's record until the act commits: one user's acts that a cap
// counts are decided one after the other. play keeps it short: posts of
// the last PostWindow, challenges dropped in the last MaxChallengeAgain.
type Recent struct {
	V int `json:"v"`
	// Posts are the times of the user's public posts, oldest first.
	Posts []time.Time `json:"posts,omitempty"`
	// Dropped are the user's challenges lately declined, withdrawn or
	// expired: the challenged user and when, one entry a person.
	Dropped []Dropped `json:"dropped,omitempty"`
}

// Dropped is a challenge that came to nothing: to whom, and when.
type Dropped struct {
	To string    `json:"to"`
	At time.Time `json:"at"`
}

func (r *Recent) version() *int { return &r.V }

// Empty reports whether r holds nothing: a storage may delete the record.
func (r *Recent) Empty() bool { return len(r.Posts) == 0 && len(r.Dropped) == 0 }

// prune drops what no cap counts any more at now.
func (r *Recent) prune(now time.Time) {
	r.Posts = slices.DeleteFunc(r.Posts, func(t time.Time) bool { return !t.Add(PostWindow).After(now) })
	r.Dropped = slices.DeleteFunc(r.Dropped, func(d Dropped) bool { return !d.At.Add(MaxChallengeAgain).After(now) })
}

// limiter is one act's view of a user's Recent: read once, checked,
// changed, written once.
type limiter struct {
	tx   Tx
	user string
	at   time.Time
	r    Recent
	// changed: r must be written back.
	changed bool
}

// limit reads the user's Recent in tx, which a shared database locks for
// the rest of the act.
func limit(tx Tx, user string, at time.Time) (*limiter, error) {
	r, err := tx.Recent(user)
	if err != nil {
		return nil, err
	}
	l := &limiter{tx: tx, user: user, at: at, r: r}
	before := len(r.Posts) + len(r.Dropped)
	l.r.prune(at)
	l.changed = len(l.r.Posts)+len(l.r.Dropped) != before
	return l, nil
}

// post counts one public post; with most above zero it refuses one past
// most in PostWindow (TooManyPosts, Until the first that passes).
func (l *limiter) post(most int) error {
	if most > 0 && len(l.r.Posts) >= most {
		return &Refusal{Kind: TooManyPosts, Most: most, Until: l.r.Posts[len(l.r.Posts)-most].Add(PostWindow)}
	}
	l.r.Posts = append(l.r.Posts, l.at)
	l.changed = true
	return nil
}

// challengeAgain refuses a challenge to user to whom one of ours came to
// nothing less than wait ago (ChallengedLately).
func (l *limiter) challengeAgain(to string, wait time.Duration) error {
	if wait <= 0 || to == "" {
		return nil
	}
	wait = min(wait, MaxChallengeAgain)
	for _, d := range l.r.Dropped {
		if d.To == to && d.At.Add(wait).After(l.at) {
			return &Refusal{Kind: ChallengedLately, Who: Seat{ID: to}, Until: d.At.Add(wait)}
		}
	}
	return nil
}

// forgiveEachOther clears what came to nothing between two players who
// begin a game together: whoever played a game may challenge the same
// opponent again at once, or press Rematch, whatever the one of them
// declined, withdrew or let expire before. Each player's Recent is read
// in the order of their ids, the order every transaction that locks both
// takes.
func forgiveEachOther(tx Tx, a, b string, at time.Time) error {
	if b < a {
		a, b = b, a
	}
	for _, pair := range [][2]string{{a, b}, {b, a}} {
		l, err := limit(tx, pair[0], at)
		if err != nil {
			return err
		}
		if n := len(l.r.Dropped); n > 0 {
			l.r.Dropped = slices.DeleteFunc(l.r.Dropped, func(d Dropped) bool { return d.To == pair[1] })
			l.changed = l.changed || len(l.r.Dropped) != n
		}
		if err := l.save(); err != nil {
			return err
		}
	}
	return nil
}

// dropped remembers that a challenge to user came to nothing.
func (l *limiter) dropped(to string) {
	if to == "" {
		return
	}
	l.r.Dropped = slices.DeleteFunc(l.r.Dropped, func(d Dropped) bool { return d.To == to })
	l.r.Dropped = append(l.r.Dropped, Dropped{To: to, At: l.at})
	l.changed = true
}

// save writes the user's Recent back if the act changed it.
func (l *limiter) save() error {
	if !l.changed {
		return nil
	}
	return l.tx.PutRecent(l.user, l.r)
}

// openChallenges refuses a challenge past caps' cap of challenges of
// n.From waiting in n.Guild (TooManyChallenges, Until the first to
// expire).
func openChallenges(tx ReadTx, n *NewChallenge, at time.Time, most int) error {
	if most <= 0 {
		return nil
	}
	mine, err := tx.Challenges(n.From.ID)
	if err != nil {
		return err
	}
	count, first := 0, time.Time{}
	for _, c := range mine {
		if c.From.ID != n.From.ID || c.Guild != n.Guild || !c.Expires.After(at) {
			continue
		}
		count++
		if first.IsZero() || c.Expires.Before(first) {
			first = c.Expires
		}
	}
	if count >= most {
		return &Refusal{Kind: TooManyChallenges, Most: most, Until: first}
	}
	return nil
}

// engineGames refuses a game against the engine past the cap of such
// games its player has going on in the server (TooManyEngineGames).
func engineGames(tx ReadTx, n *NewGame, most int) error {
	player, ok := enginesOpponent(n)
	if most <= 0 || !ok {
		return nil
	}
	gs, err := tx.ActiveGames(player)
	if err != nil {
		return err
	}
	count := 0
	for _, g := range gs {
		if g.Guild == n.Guild && g.Engine != [2]int{} {
			count++
		}
	}
	if count >= most {
		return &Refusal{Kind: TooManyEngineGames, Most: most}
	}
	return nil
}

// enginesOpponent is the person who plays the engine in n, if one does.
func enginesOpponent(n *NewGame) (string, bool) {
	switch {
	case n.Engine[0] > 0 && n.Engine[1] == 0:
		return n.Black.ID, true
	case n.Engine[1] > 0 && n.Engine[0] == 0:
		return n.White.ID, true
	}
	return "", false
}

// startCaps checks, in tx, the caps of a game n starts against the
// engine, and counts its thread among its player's posts. The caller
// saves the limiter with the game.
func startCaps(tx Tx, n *NewGame) (*limiter, error) {
	player, ok := enginesOpponent(n)
	if !ok || n.Caps == (Caps{}) {
		return nil, nil
	}
	l, err := limit(tx, player, normTime(n.At))
	if err != nil {
		return nil, err
	}
	if err := engineGames(tx, n, n.Caps.EngineGames); err != nil {
		return nil, err
	}
	return l, l.post(n.Caps.Posts)
}

// MayStart tells, from the records as they are, whether Start would
// refuse n for its caps, so that a front end refuses before it opens a
// thread for the game. Start checks again in its own transaction.
func (s *Service) MayStart(ctx context.Context, n NewGame) error {
	player, ok := enginesOpponent(&n)
	if !ok || n.Caps == (Caps{}) {
		return nil
	}
	return s.st.View(ctx, func(tx ReadTx) error {
		if err := engineGames(tx, &n, n.Caps.EngineGames); err != nil {
			return err
		}
		r, err := tx.Recent(player)
		if err != nil {
			return err
		}
		l := &limiter{r: r, at: normTime(n.At)}
		l.r.prune(l.at)
		return l.post(n.Caps.Posts)
	})
}

// Post counts a public post of user at at (a board they asked for, say)
// and refuses one past caps' Posts in PostWindow (TooManyPosts).
func (s *Service) Post(ctx context.Context, user string, at time.Time, caps Caps) error {
	if caps.Posts <= 0 {
		return nil
	}
	return s.st.Update(ctx, func(tx Tx) error {
		l, err := limit(tx, user, normTime(at))
		if err != nil {
			return err
		}
		if err := l.post(caps.Posts); err != nil {
			return err
		}
		return l.save()
	})
}
