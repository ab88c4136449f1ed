-- Schema 1: play's records as JSONB, with the columns their indexes need.
-- Times that indexes order by are Unix nanoseconds (bigint): exact, so a
-- due time compares as Go compares it (timestamptz keeps microseconds).

-- One sequence numbers games and challenges (play.Tx.NextID).
CREATE SEQUENCE ids AS bigint;

-- Every game, active or finished. An active game holds its channel;
-- deadline and remind_at are NULL when the game has none, and for every
-- finished game.
CREATE TABLE games (
	id        bigint  PRIMARY KEY,
	active    boolean NOT NULL,
	channel   text    NOT NULL,
	guild     text    NOT NULL,
	white     text    NOT NULL,
	black     text    NOT NULL,
	deadline  bigint,
	remind_at bigint,
	rec       jsonb   NOT NULL
);
-- At most one active game per channel (play.ErrChannelBusy).
CREATE UNIQUE INDEX games_channel ON games (channel) WHERE active;
-- Active games by player and by guild, oldest first.
CREATE INDEX games_white_active ON games (white, id) WHERE active;
CREATE INDEX games_black_active ON games (black, id) WHERE active;
CREATE INDEX games_guild_active ON games (guild, id) WHERE active;
-- Finished games newest first: all, by player, by guild.
CREATE INDEX games_finished ON games (id) WHERE NOT active;
CREATE INDEX games_white_finished ON games (white, id) WHERE NOT active;
CREATE INDEX games_black_finished ON games (black, id) WHERE NOT active;
CREATE INDEX games_guild_finished ON games (guild, id) WHERE NOT active;
-- The scheduler's time indexes (play.DueDeadline, play.DueReminder).
CREATE INDEX games_deadline ON games (deadline, id) WHERE active AND deadline IS NOT NULL;
CREATE INDEX games_remind ON games (remind_at, id) WHERE active AND remind_at IS NOT NULL;

-- Pending challenges, by user (from or to) and by expiry (play.DueExpiry).
CREATE TABLE challenges (
	id        bigint PRIMARY KEY,
	from_user text   NOT NULL,
	to_user   text   NOT NULL,
	expires   bigint NOT NULL,
	rec       jsonb  NOT NULL
);
CREATE INDEX challenges_from ON challenges (from_user, id);
CREATE INDEX challenges_to ON challenges (to_user, id) WHERE to_user <> '';
CREATE INDEX challenges_expires ON challenges (expires, id);

-- Players per scope (a guild id, or '' for everywhere); the primary key
-- serves the walk over a scope.
CREATE TABLE players (
	scope   text  NOT NULL,
	user_id text  NOT NULL,
	rec     jsonb NOT NULL,
	PRIMARY KEY (scope, user_id)
);

CREATE TABLE stats (
	scope text  PRIMARY KEY,
	rec   jsonb NOT NULL
);

CREATE TABLE prefs (
	user_id text  PRIMARY KEY,
	rec     jsonb NOT NULL
);

-- Claims of due items by schedulers (Store.Claim): an item (kind, id, at)
-- claimed until a time is left to its claimer; a claim that lapsed (its
-- process died) is taken over.
CREATE TABLE claims (
	kind    smallint    NOT NULL,
	id      bigint      NOT NULL,
	at      bigint      NOT NULL,
	owner   text        NOT NULL,
	until   timestamptz NOT NULL,
	PRIMARY KEY (kind, id, at)
);
CREATE INDEX claims_until ON claims (until);
