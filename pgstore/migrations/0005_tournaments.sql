-- Schema 5: tournaments (play.TournamentRecord). Package tournament
-- encodes body; the database indexes a tournament by guild and by the
-- games its rounds started, so that a game's end finds its tournament.
CREATE TABLE tournaments (
	id       bigint  PRIMARY KEY,
	guild    text    NOT NULL,
	finished boolean NOT NULL,
	body     bytea   NOT NULL
);
CREATE INDEX tournaments_guild ON tournaments (guild, id);
CREATE TABLE tournament_games (
	game       bigint PRIMARY KEY,
	tournament bigint NOT NULL REFERENCES tournaments (id)
);
