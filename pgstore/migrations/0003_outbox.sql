-- Schema 3: the outbox (play.Outbox), what front ends must still do
-- because of acts committed: posts to deliver, engine moves to make.
-- due is Unix nanoseconds, as in schema 1; a claim moves it to the end of
-- the claim's lease, so an item whose claimer died is due again then.
CREATE TABLE outbox (
	key     text    PRIMARY KEY,
	game    bigint  NOT NULL,
	kind    text    NOT NULL,
	body    bytea   NOT NULL,
	due     bigint  NOT NULL,
	created bigint  NOT NULL,
	tries   integer NOT NULL DEFAULT 0,
	owner   text    NOT NULL DEFAULT ''
);
CREATE INDEX outbox_due ON outbox (due, key);
