package play

import (
	"context"
	"errors"
	"slices"
	"time"
)

// ServerSettings are a server's own settings, chosen by its admins. The
// zero value follows the program's configuration in everything, so a
// server that never set anything keeps today's behaviour.
type ServerSettings struct {
	V int `json:"v"`
	// Language is the language of the server's public posts, thread
	// names and board descriptions (one of Languages); "" follows the
	// server's locale as Discord reports it.
	Language string `json:"language,omitempty"`
	// DefaultDays is the time control of a challenge that names none:
	// days per move (one of the allowed), NoLimitDays for no limit, or 0
	// for the program's default.
	DefaultDays int `json:"defaultDays,omitempty"`
	// OpponentChooses, when set, replaces Options.OpponentChooses for the
	// games that start on the server.
	OpponentChooses Toggle `json:"opponentChooses,omitempty"`
	// Threads, when Off, has games played in the channel of their
	// challenge instead of a thread of their own.
	Threads Toggle `json:"threads,omitempty"`
	// GamesChannel, when set, is the channel challenges made elsewhere
	// point to.
	GamesChannel string `json:"gamesChannel,omitempty"`
	// OrganiserRole, when set, is a role whose members may open and run
	// the server's tournaments, besides those with Manage Server.
	OrganiserRole string    `json:"organiserRole,omitempty"`
	Updated       time.Time `json:"updated,omitzero"`
	UpdatedBy     string    `json:"updatedBy,omitempty"`
}

// NoLimitDays is ServerSettings.DefaultDays for games without a time
// limit (a challenge's DaysPerMove of 0).
const NoLimitDays = -1

// Toggle is a yes-or-no setting that may be left to the default.
type Toggle int8

const (
	Default Toggle = 0
	On      Toggle = 1
	Off     Toggle = 2
)

// Or returns the toggle's value, or def when it is left to the default.
func (t Toggle) Or(def bool) bool {
	switch t {
	case On:
		return true
	case Off:
		return false
	}
	return def
}

func (s *ServerSettings) version() *int { return &s.V }

// Days returns the time control a challenge without one gets on the
// server: the server's choice, or def.
func (s *ServerSettings) Days(def int) int {
	switch {
	case s.DefaultDays == NoLimitDays:
		return 0
	case s.DefaultDays > 0:
		return s.DefaultDays
	}
	return def
}

// OpponentChooses is the program's rule on a timeout
// (Options.OpponentChooses), for a server that chose none.
func (s *Service) OpponentChooses() bool { return s.opts.OpponentChooses }

// ServerSettings returns a server's settings (the zero ServerSettings if
// its admins set none).
func (s *Service) ServerSettings(ctx context.Context, guild string) (ServerSettings, error) {
	var out ServerSettings
	err := s.st.View(ctx, func(tx ReadTx) (err error) {
		out, err = tx.ServerSettings(guild)
		return err
	})
	return out, err
}

// Settings returns a user's preferences and, when guild is set, that
// server's settings, read together: what an interaction needs to know
// before it runs (its languages), in one transaction instead of two (on
// PostgreSQL each is a round trip to begin, one to read, one to end).
func (s *Service) Settings(ctx context.Context, user, guild string) (Prefs, ServerSettings, error) {
	var p Prefs
	var set ServerSettings
	err := s.st.View(ctx, func(tx ReadTx) (err error) {
		if p, err = tx.Prefs(user); err != nil || guild == "" {
			return err
		}
		set, err = tx.ServerSettings(guild)
		return err
	})
	return p, set, err
}

// SetServerSettings stores a server's settings, checked first: a
// language play knows, an allowed time control, toggles and channel and
// role ids that are what they claim. by is the admin who changed them. A setting
// out of range is refused (BadSettings, BadTimeControl) and changes
// nothing.
func (s *Service) SetServerSettings(ctx context.Context, guild string, set ServerSettings, by string, at time.Time) (ServerSettings, error) {
	if err := CheckID("guild id", guild); err != nil || guild == "" {
		return ServerSettings{}, errors.New("play: server settings need a server")
	}
	switch {
	case set.Language != "" && !slices.Contains(Languages, set.Language),
		set.OpponentChooses < Default || set.OpponentChooses > Off,
		set.Threads < Default || set.Threads > Off,
		set.GamesChannel != "" && CheckID("channel id", set.GamesChannel) != nil,
		set.OrganiserRole != "" && CheckID("role id", set.OrganiserRole) != nil,
		set.DefaultDays < NoLimitDays:
		return ServerSettings{}, &Refusal{Kind: BadSettings}
	case set.DefaultDays > 0 && !s.validDays(set.DefaultDays):
		return ServerSettings{}, &Refusal{Kind: BadTimeControl, Days: set.DefaultDays, Allowed: slices.Clone(s.opts.AllowedDays)}
	}
	set.Updated, set.UpdatedBy = normTime(at), by
	err := s.st.Update(ctx, func(tx Tx) error { return tx.PutServerSettings(guild, set) })
	return set, err
}
