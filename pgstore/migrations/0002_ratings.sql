-- Schema 2: what leaderboards and players' statistics read.

-- The leaderboard's order (play.CompareStandings): rating, then rated
-- games, then user id, for the players with a rated game.
ALTER TABLE players
	ADD COLUMN rating      double precision NOT NULL DEFAULT 0,
	ADD COLUMN rated_games integer          NOT NULL DEFAULT 0;
UPDATE players SET
	rating = coalesce((rec->'rating'->>'r')::double precision, 0),
	rated_games = coalesce((rec->'ratedTally'->>'won')::integer, 0)
		+ coalesce((rec->'ratedTally'->>'lost')::integer, 0)
		+ coalesce((rec->'ratedTally'->>'drawn')::integer, 0);
CREATE INDEX players_standings ON players (scope, rating DESC, rated_games DESC, user_id)
	WHERE rated_games > 0;

-- Each player's finished games in a scope, in the order of their ids
-- (play.LogEntry): the rating history and the statistics.
CREATE TABLE player_log (
	scope   text   NOT NULL,
	user_id text   NOT NULL,
	game    bigint NOT NULL,
	rec     jsonb  NOT NULL,
	PRIMARY KEY (scope, user_id, game)
);
