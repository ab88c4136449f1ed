-- Schema 9: puzzles. A player's puzzle record per scope (play.Puzzler),
-- each puzzle's rating and counts (play.PuzzleStats), each server's
-- daily puzzle (play.DailyPuzzle).
CREATE TABLE puzzlers (
	scope   text  NOT NULL,
	user_id text  NOT NULL,
	rec     jsonb NOT NULL,
	PRIMARY KEY (scope, user_id)
);
CREATE TABLE puzzle_stats (
	puzzle_id text  PRIMARY KEY,
	rec       jsonb NOT NULL
);
CREATE TABLE daily_puzzles (
	guild_id text  PRIMARY KEY,
	rec      jsonb NOT NULL
);
