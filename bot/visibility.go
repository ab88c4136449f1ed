package bot

import (
	"context"
	"sync"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/iceagechess/iceage/play"
	"github.com/iceagechess/iceage/visibility"
)

// Who may see a game is package visibility's rule; this file gives it
// what it asks of Discord: the interaction's asker, and the game's
// channels and server, fetched and kept a while.

// canSee reports whether the interaction's user may see g. Its error
// means Discord could not say: the caller apologises rather than refuse.
func (v *sight) canSee(in *interaction, g *play.Game) (bool, error) {
	a := visibility.Asker{User: in.user, Guild: in.i.GuildID, Channel: in.i.ChannelID}
	if m := in.i.Member; m != nil && in.i.GuildID != "" {
		a.Permissions, a.Roles = visibility.Permissions(m.Permissions), m.Roles
	}
	seen := visibility.Game{Guild: g.Guild, Channel: g.Channel, Players: []string{g.White.ID, g.Black.ID}}
	return visibility.CanSee(in.ctx, a, seen, v)
}

// visibleGame returns game id if the user may see it (package
// visibility's rule). Any other is answered as unknown, so that no one
// learns even that it exists.
func (v *sight) visibleGame(in *interaction, id uint64) (play.Game, error) {
	g, err := v.games.Game(in.ctx, id)
	if err == nil {
		var ok bool
		if ok, err = v.canSee(in, &g); err == nil && !ok {
			err = &play.Refusal{Kind: play.NoGame, Game: id}
		}
	}
	if isNoGame(err) {
		return g, in.explain(tr(in.lang, "export.no_such_game", map[string]any{"ID": id}))
	}
	return g, err
}

// sightLife is how long a channel's overwrites or a server's roles are
// kept: a change made in Discord shows within it, unless its event
// (CHANNEL_UPDATE, GUILD_ROLE_*) forgets it sooner.
const sightLife = time.Minute

// sightKept bounds each of sight's caches.
const sightKept = 4096

// sight fetches channels and servers for the visibility rule and keeps
// them sightLife; a channel or server that is gone, or hidden from the
// bot, is kept as visibility.ErrGone.
type sight struct {
	games    *play.Service // the games it says who may see
	discord  *discordgo.Session
	parents  *parents // the threads' parents it finds, noted for all
	mu       sync.Mutex
	channels map[string]kept[visibility.Channel]
	guilds   map[string]kept[visibility.Guild]
}

func newSight(games *play.Service, discord *discordgo.Session, p *parents) *sight {
	return &sight{games: games, discord: discord, parents: p}
}

type kept[T any] struct {
	v    T
	gone bool
	at   time.Time
}

// keep stores v (or its absence) in m, making room when m is full.
func keep[T any](m map[string]kept[T], id string, k kept[T]) {
	if len(m) >= sightKept {
		for key, old := range m {
			if k.at.Sub(old.at) > sightLife {
				delete(m, key)
			}
		}
		if len(m) >= sightKept {
			clear(m)
		}
	}
	m[id] = k
}

// look returns what m keeps of id, if it is fresh.
func look[T any](m map[string]kept[T], id string, now time.Time) (kept[T], bool) {
	k, ok := m[id]
	return k, ok && now.Sub(k.at) < sightLife
}

// fetchKept returns what *m keeps of id while it is fresh, or fetches it
// and keeps it: fetch returns the value, or gone when Discord says there
// is none or hides it from the bot. Any other error is not kept.
func fetchKept[T any](s *sight, m *map[string]kept[T], id string, fetch func() (v T, gone bool, err error)) (T, error) {
	now := time.Now()
	s.mu.Lock()
	k, ok := look(*m, id, now)
	s.mu.Unlock()
	if !ok {
		v, gone, err := fetch()
		if err != nil {
			var zero T
			return zero, err
		}
		k = kept[T]{v: v, gone: gone, at: now}
		s.mu.Lock()
		if *m == nil {
			*m = map[string]kept[T]{}
		}
		keep(*m, id, k)
		s.mu.Unlock()
	}
	if k.gone {
		var zero T
		return zero, visibility.ErrGone
	}
	return k.v, nil
}

// Channel is a channel's parent (threads only: a channel's parent is its
// category, whose overwrites Discord does not apply) and overwrites.
func (s *sight) Channel(ctx context.Context, id string) (visibility.Channel, error) {
	return fetchKept(s, &s.channels, id, func() (visibility.Channel, bool, error) {
		ch, err := s.discord.Channel(id, discordgo.WithContext(ctx))
		switch {
		case err == nil && ch != nil:
			if isThreadType(ch.Type) {
				s.parents.note(id, ch.ParentID)
			}
			return channelSight(ch), false, nil
		case err == nil || errCode(err) == codeUnknownChannel || isForbidden(err):
			return visibility.Channel{}, true, nil
		default:
			return visibility.Channel{}, false, err
		}
	})
}

func channelSight(ch *discordgo.Channel) visibility.Channel {
	var c visibility.Channel
	if isThreadType(ch.Type) {
		c.Parent = ch.ParentID
	}
	for _, o := range ch.PermissionOverwrites {
		if o == nil {
			continue
		}
		c.Overwrites = append(c.Overwrites, visibility.Overwrite{ID: o.ID, Member: o.Type == discordgo.PermissionOverwriteTypeMember,
			Allow: visibility.Permissions(o.Allow), Deny: visibility.Permissions(o.Deny)})
	}
	return c
}

// Guild is a server's owner and roles.
func (s *sight) Guild(ctx context.Context, id string) (visibility.Guild, error) {
	return fetchKept(s, &s.guilds, id, func() (visibility.Guild, bool, error) {
		g, err := s.discord.Guild(id, discordgo.WithContext(ctx))
		switch {
		case err == nil && g != nil:
			v := visibility.Guild{ID: g.ID, Owner: g.OwnerID}
			for _, r := range g.Roles {
				if r != nil {
					v.Roles = append(v.Roles, visibility.Role{ID: r.ID, Permissions: visibility.Permissions(r.Permissions)})
				}
			}
			return v, false, nil
		case err == nil || errCode(err) == discordgo.ErrCodeUnknownGuild || isForbidden(err):
			return visibility.Guild{}, true, nil
		default:
			return visibility.Guild{}, false, err
		}
	})
}

// forgetChannel and forgetGuild drop what changed in Discord.
func (s *sight) forgetChannel(id string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.channels, id)
}

func (s *sight) forgetGuild(id string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.guilds, id)
}

func (b *Bot) onChannelUpdate(_ *discordgo.Session, c *discordgo.ChannelUpdate) {
	if c.Channel != nil {
		b.sight.forgetChannel(c.ID)
	}
}

func (b *Bot) onChannelDelete(_ *discordgo.Session, c *discordgo.ChannelDelete) {
	if c.Channel != nil {
		b.sight.forgetChannel(c.ID)
	}
}

func (b *Bot) onRoleCreate(_ *discordgo.Session, r *discordgo.GuildRoleCreate) {
	if r.GuildRole != nil {
		b.sight.forgetGuild(r.GuildID)
	}
}

func (b *Bot) onRoleUpdate(_ *discordgo.Session, r *discordgo.GuildRoleUpdate) {
	if r.GuildRole != nil {
		b.sight.forgetGuild(r.GuildID)
	}
}

func (b *Bot) onRoleDelete(_ *discordgo.Session, r *discordgo.GuildRoleDelete) {
	b.sight.forgetGuild(r.GuildID)
}
