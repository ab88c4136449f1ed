-- Schema 8: each user's progress in the lessons (play.LessonProgress):
-- the best stars of every step of /learn.
CREATE TABLE lessons (
	user_id text  PRIMARY KEY,
	rec     jsonb NOT NULL
);
