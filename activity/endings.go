package activity

import (
	"slices"
	"sync"
	"time"

	"github.com/iceagechess/iceage/i18n"
	"github.com/iceagechess/iceage/play"
	"github.com/iceagechess/iceage/play/round"
)

// The challenges of a channel that ended without a game: declined,
// withdrawn or expired, here or with the buttons of their message in the
// channel (bot.ActivityConfig.ChallengeEnded). The lobby tells the other
// side, whose card would else just disappear: the challenger of a
// declined challenge, the challenged of a withdrawn one, both of an
// expired one. The page keeps a notice until its reader closes it; the
// server offers it for endingLife, long enough for any open page to
// have asked.

// endingLife is how long an ended challenge is told of.
const endingLife = 2 * time.Minute

// endings are the challenges lately ended, by channel.
type endings struct {
	mu sync.Mutex
	m  map[string][]ending
}

type ending struct {
	c   play.Challenge
	how round.Answer
	at  time.Time
}

// notice is an ended challenge as the lobby tells it.
type notice struct {
	ID   uint64 `json:"id"`
	Text string `json:"text"`
}

// note remembers that c ended so at now; again, it changes nothing.
func (e *endings) note(c *play.Challenge, how round.Answer, now time.Time) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.m == nil {
		e.m = map[string][]ending{}
	}
	if len(e.m) >= maxCached {
		for ch, es := range e.m {
			if len(es) == 0 || now.Sub(es[len(es)-1].at) > endingLife {
				delete(e.m, ch)
			}
		}
	}
	es := slices.DeleteFunc(e.m[c.Channel], func(x ending) bool { return now.Sub(x.at) > endingLife })
	if !slices.ContainsFunc(es, func(x ending) bool { return x.c.ID == c.ID }) {
		es = append(es, ending{c: *c, how: how, at: now})
	}
	e.m[c.Channel] = es
}

// told are the notices of channel for user at now, in their language.
func (e *endings) told(channel, user string, lang i18n.Lang, now time.Time) []notice {
	e.mu.Lock()
	defer e.mu.Unlock()
	out := []notice{}
	for _, x := range e.m[channel] {
		if now.Sub(x.at) > endingLife {
			continue
		}
		if text, ok := endingText(lang, &x.c, x.how, user); ok {
			out = append(out, notice{ID: x.c.ID, Text: text})
		}
	}
	return out
}

// endingText says to user how c ended, if they are its other side: the
// one who did not end it.
func endingText(lang i18n.Lang, c *play.Challenge, how round.Answer, user string) (string, bool) {
	terms := i18n.TimeTerms(lang, c.Time, c.DaysPerMove)
	var key string
	data := map[string]any{"Terms": terms}
	switch {
	case how == round.AnswerDeclined && user == c.From.ID:
		key, data["Player"] = "declined", c.To.Name
	case how == round.AnswerWithdrawn && user == c.To.ID:
		key, data["Player"] = "withdrawn", c.From.Name
	case how == round.AnswerExpired && user == c.From.ID && c.Open():
		key = "expired_open"
	case how == round.AnswerExpired && user == c.From.ID:
		key, data["Player"] = "expired_mine", c.To.Name
	case how == round.AnswerExpired && user == c.To.ID:
		key, data["Player"] = "expired_theirs", c.From.Name
	default:
		return "", false
	}
	return i18n.T(lang, "activity.lobby.ended."+key, data), true
}

// ChallengeEnded hears that a challenge of a server's channel was
// declined, withdrawn or expired: bot.ActivityConfig.ChallengeEnded.
func (s *Server) ChallengeEnded(c play.Challenge, how round.Answer) {
	s.ended.note(&c, how, s.opts.Now())
}
