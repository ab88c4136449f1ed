package visibility

import (
	"context"
	"errors"
	"slices"
)

// Permissions are Discord's permission bits.
type Permissions uint64

// The permissions the rule reads, with Discord's numbers.
const (
	Administrator Permissions = 1 << 3
	ViewChannel   Permissions = 1 << 10
	// All is every permission, what an administrator or the owner has.
	All Permissions = ^Permissions(0)
)

// Asker is who asks to see a game, and where.
type Asker struct {
	User string
	// Guild is the server the asker asks in; "" in a DM or group DM.
	Guild string
	// Channel is the channel (or thread) the asker asks in.
	Channel string
	// Permissions are the asker's in Channel, as Discord computed and
	// sent them with the interaction (its member's permissions).
	Permissions Permissions
	// Roles are the asker's roles in Guild.
	Roles []string
}

// Game is what the rule needs of a game.
type Game struct {
	// Guild is the server it is played on; "" for a DM or group DM.
	Guild string
	// Channel is where it is played: a thread, or a channel.
	Channel string
	Players []string
}

// Channel is what the rule needs of a server's channel.
type Channel struct {
	// Parent is a thread's channel; "" for a channel.
	Parent     string
	Overwrites []Overwrite
}

// Overwrite is a channel's permission overwrite for a role (the
// server's id for @everyone) or a member.
type Overwrite struct {
	ID          string
	Member      bool // a member's; else a role's
	Allow, Deny Permissions
}

// Guild is what the rule needs of a server: its owner and roles.
type Guild struct {
	ID    string
	Owner string
	// Roles are the server's roles; @everyone's id is the server's.
	Roles []Role
}

// Role is a server's role and what it allows.
type Role struct {
	ID          string
	Permissions Permissions
}

// Server fetches what the rule needs from Discord; an implementation
// caches. An error of ErrGone means that there is no such channel or
// server, or none the fetcher may read: nobody but the players sees a
// game there.
type Server interface {
	Channel(ctx context.Context, id string) (Channel, error)
	Guild(ctx context.Context, id string) (Guild, error)
}

// ErrGone is what Server returns for a channel or server that is gone or
// hidden from the fetcher.
var ErrGone = errors.New("visibility: no such channel or server")

// CanSee reports whether a may see g. Its error is a Server's, other than
// ErrGone: the answer is unknown, and the caller should say it failed
// rather than refuse.
func CanSee(ctx context.Context, a Asker, g Game, s Server) (bool, error) {
	switch {
	case a.User != "" && slices.Contains(g.Players, a.User):
		return true, nil
	case g.Guild == "" || a.Guild != g.Guild || a.User == "":
		// A DM's game is its players'; a server's game is for members
		// asking in that server, where Discord says who they are.
		return false, nil
	case a.Permissions&Administrator != 0:
		return true, nil
	case a.Channel == g.Channel:
		return a.Permissions&ViewChannel != 0, nil
	}
	where := g.Channel
	c, err := s.Channel(ctx, where)
	if err != nil {
		return false, gone(err)
	}
	if c.Parent != "" {
		// A thread is seen by those who see its channel.
		where = c.Parent
		if a.Channel == where {
			return a.Permissions&ViewChannel != 0, nil
		}
		if c, err = s.Channel(ctx, where); err != nil {
			return false, gone(err)
		}
	}
	guild, err := s.Guild(ctx, g.Guild)
	if err != nil {
		return false, gone(err)
	}
	return InChannel(guild, a.User, a.Roles, c.Overwrites)&ViewChannel != 0, nil
}

// gone turns ErrGone into a plain no.
func gone(err error) error {
	if errors.Is(err, ErrGone) {
		return nil
	}
	return err
}

// Base is what a member with roles may do in guild before any channel's
// overwrites: everything for the owner and administrators, else what
// @everyone and their roles allow.
func Base(guild Guild, user string, roles []string) Permissions {
	if user != "" && user == guild.Owner {
		return All
	}
	var p Permissions
	for _, r := range guild.Roles {
		if r.ID == guild.ID || slices.Contains(roles, r.ID) {
			p |= r.Permissions
		}
	}
	if p&Administrator != 0 {
		return All
	}
	return p
}

// InChannel is what a member with roles may do in a channel with those
// overwrites, as Discord computes it: the base permissions, less and
// then plus @everyone's overwrite, then all their roles' overwrites
// together, then their own. Without View Channel they may do nothing
// there.
func InChannel(guild Guild, user string, roles []string, overwrites []Overwrite) Permissions {
	p := Base(guild, user, roles)
	if p == All {
		return All
	}
	apply := func(allow, deny Permissions) { p = p&^deny | allow }
	for _, o := range overwrites {
		if !o.Member && o.ID == guild.ID {
			apply(o.Allow, o.Deny)
		}
	}
	var allow, deny Permissions
	for _, o := range overwrites {
		if !o.Member && o.ID != guild.ID && slices.Contains(roles, o.ID) {
			allow, deny = allow|o.Allow, deny|o.Deny
		}
	}
	apply(allow, deny)
	for _, o := range overwrites {
		if o.Member && o.ID == user {
			apply(o.Allow, o.Deny)
		}
	}
	if p&ViewChannel == 0 {
		return 0
	}
	return p
}
