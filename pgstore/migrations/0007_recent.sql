-- Schema 7: what each user did lately that the caps count (play.Recent):
-- their latest public posts, their challenges that came to nothing. A
-- transaction that counts for a cap locks the user's row first, so that
-- processes sharing the database count one user's acts one at a time.
CREATE TABLE recent (
	user_id text  PRIMARY KEY,
	rec     jsonb NOT NULL
);
