package activity

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"time"

	"github.com/iceagechess/iceage/i18n"
	"github.com/iceagechess/iceage/play"
	"github.com/iceagechess/iceage/visibility"
)

// The games of a channel's threads. A game challenged in a channel with
// /challenge is played in a thread of it; an Activity opened in the
// channel finds it there: the asker's own game first (gameFor), the
// others listed in the lobby to watch. Discord names the channel's
// threads (the guild's active threads, GET
// /guilds/{guild}/threads/active, remembered instanceLife); the game of
// each is read from play, and visibility decides who sees it.

// maxThreads bounds the threads of a channel whose games are read.
const maxThreads = 25

// threadsOf are the active threads of channel in guild, with the bot's
// token, at most maxThreads, oldest first.
func (d *discord) threadsOf(ctx context.Context, guild, channel string) ([]string, error) {
	if guild == "" {
		return nil, nil
	}
	if !snowflake(guild) {
		return nil, fmt.Errorf("activity: no server %q", guild)
	}
	byParent, ok := d.threads.get(guild, d.now())
	if !ok {
		// #nosec G704 -- guild is a snowflake: digits only
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, d.base+"api/v10/guilds/"+url.PathEscape(guild)+"/threads/active", nil)
		if err != nil {
			return nil, err
		}
		req.Header.Set("Authorization", "Bot "+d.botToken)
		var got struct {
			Threads []struct {
				ID       string `json:"id"`
				ParentID string `json:"parent_id"`
			} `json:"threads"`
		}
		if err := d.ask(req, &got); err != nil {
			return nil, err
		}
		byParent = map[string][]string{}
		for _, th := range got.Threads {
			if snowflake(th.ID) && th.ParentID != "" {
				byParent[th.ParentID] = append(byParent[th.ParentID], th.ID)
			}
		}
		d.threads.put(guild, byParent, d.now().Add(instanceLife))
	}
	ths := byParent[channel]
	return ths[:min(len(ths), maxThreads)], nil
}

// reach is what the Activity of a channel reaches: the channel and its
// active threads. It is visibility's Server for the Activity's asker,
// who sees the channel (they are in its Activity): a thread's parent is
// the channel, and anything else is out of reach (visibility.ErrGone),
// seen by its players alone.
type reach struct {
	channel string
	threads []string
}

func (r reach) Channel(_ context.Context, id string) (visibility.Channel, error) {
	switch {
	case id == r.channel:
		return visibility.Channel{}, nil
	case slices.Contains(r.threads, id):
		return visibility.Channel{Parent: r.channel}, nil
	}
	return visibility.Channel{}, visibility.ErrGone
}

func (reach) Guild(context.Context, string) (visibility.Guild, error) {
	return visibility.Guild{}, visibility.ErrGone
}

// holds reports whether g is played in the channel or one of its threads.
func (r reach) holds(g *play.Game) bool {
	return g.Channel == r.channel || slices.Contains(r.threads, g.Channel)
}

// reachOf is what the asker's Activity reaches; a failure to read the
// channel's threads leaves only the channel (and is logged).
func (s *Server) reachOf(ctx context.Context, a *asker) reach {
	ths, err := s.discord.threadsOf(ctx, a.instance.Guild, a.instance.Channel)
	if err != nil && !errors.Is(err, errBusy) {
		s.logUnless(err, "reading a channel's threads")
	}
	return reach{channel: a.instance.Channel, threads: ths}
}

// mayWatch applies the visibility rule to the asker, who sees the
// Activity's channel, and so its threads: a game there is theirs to
// watch; a DM's, or one out of reach, only its players'.
func (s *Server) mayWatch(ctx context.Context, a *asker, g *play.Game, r reach) bool {
	who := visibility.Asker{User: a.User, Guild: a.instance.Guild, Channel: a.instance.Channel, Permissions: visibility.ViewChannel}
	ok, err := visibility.CanSee(ctx, who, visibility.Game{Guild: g.Guild, Channel: g.Channel, Players: g.Players()}, r)
	return ok && err == nil
}

// threadGame is a game of the channel's threads as the lobby lists it.
type threadGame struct {
	ID   uint64 `json:"id"`
	Text string `json:"text"`
	// Mine: the asker plays it.
	Mine bool `json:"mine"`
}

// threadGamesLife is how long the games of a channel's threads are
// remembered: every window of the channel's lobby polls every two
// seconds, and one read serves them all.
const threadGamesLife = 2 * time.Second

// threadGames are the games going on in the threads of the asker's
// channel that they may see, their own first.
func (s *Server) threadGames(ctx context.Context, a *asker, r reach) []threadGame {
	now := s.opts.Now()
	games, ok := s.threadGamesOf.get(r.channel, now)
	if !ok {
		svc := s.opts.Round.Service()
		games = []play.Game{}
		for _, th := range r.threads {
			if g, err := svc.GameIn(ctx, th); err == nil && !g.Over() {
				games = append(games, g)
			}
		}
		s.threadGamesOf.put(r.channel, games, now.Add(threadGamesLife))
	}
	out := []threadGame{}
	for i := range games {
		g := &games[i]
		if !s.mayWatch(ctx, a, g, r) {
			continue
		}
		_, mine := g.ColorOf(a.User)
		text := i18n.T(a.lang, "activity.lobby.game_line", map[string]any{"White": g.White.Name, "Black": g.Black.Name,
			"Terms": i18n.TimeTerms(a.lang, g.TimeControl(), g.DaysPerMove)})
		out = append(out, threadGame{ID: g.ID, Text: text, Mine: mine})
	}
	slices.SortStableFunc(out, func(x, y threadGame) int {
		if x.Mine != y.Mine {
			if x.Mine {
				return -1
			}
			return 1
		}
		return cmp.Compare(x.ID, y.ID)
	})
	return out
}
