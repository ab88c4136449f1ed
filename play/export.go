package play

import "context"

// Exporter is a Storage that can list all of its records, so that one
// storage can be copied into another (the migrate command copies a bbolt
// file into PostgreSQL and back).
type Exporter interface {
	// Export calls w's functions for every record, from one consistent
	// view, in no particular order; an error from one stops the export
	// and is returned.
	Export(ctx context.Context, w Walk) error
	// Renumber makes NextID return ids above last from now on.
	Renumber(ctx context.Context, last uint64) error
}

// Walk receives the records of an export. A nil function skips its kind.
type Walk struct {
	// LastID is called once with the last id NextID gave.
	LastID    func(uint64) error
	Game      func(Game) error
	Challenge func(Challenge) error
	Player    func(Player) error
	Stats     func(Stats) error
	Prefs     func(user string, p Prefs) error
	Server    func(guild string, s ServerSettings) error
	// Outbox receives the items of the outbox, pending or claimed, as
	// they are stored: a game waiting for the engine is one, so a copy
	// without them would leave it waiting.
	Outbox func(OutboxItem) error
}
