-- Schema 6: each server's own settings (play.ServerSettings), chosen by
-- its admins with /server-settings.
CREATE TABLE servers (
	guild_id text  PRIMARY KEY,
	rec      jsonb NOT NULL
);
