-- Schema 4: game records in play's compact binary form (record version
-- 4: the moves a few bits each, gamerecord.go in package play), as bytea.
-- SQL cannot write that form (it replays the moves), so this file only
-- makes room for it: the program then converts every row in the same
-- transaction (convertGameRows, migrate.go), and drops the JSON.
ALTER TABLE games RENAME COLUMN rec TO rec_json;
ALTER TABLE games ADD COLUMN rec bytea;
