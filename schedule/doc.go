// Package schedule keeps the time of games — correspondence deadlines
// and live games' flags alike, both a play.Game.Deadline: it wakes when a
// deadline, a reminder or a challenge's expiry falls due and hands it on:
// a deadline to package round, whose act writes the board that says so
// and whom to tell in the outbox, in its transaction; a reminder or an
// expiry to package play, which decides, and then to a Notifier (the
// bot). It knows nothing of Discord.
//
// # Basics
//
// New makes a Scheduler; Watch wraps the storage given to play.New so that
// every committed change wakes it; Run serves until its context ends:
//
//	sch := schedule.New(schedule.Options{})
//	svc := play.New(sch.Watch(st), play.Options{})
//	r, err := round.New(svc, round.Options{})
//	go sch.Run(ctx, r, notifier)
//
// Run first catches up with everything that fell due while the program
// was down, then sleeps until the earliest time in the storage's time
// indexes (play.DueDeadline, DueReminder, DueExpiry), or until Wake: it
// never polls. Due items are handled in this order: deadlines
// (round.Round.TimeOut: the game ends on time, or its opponent now
// chooses), expired challenges (Expire), reminders (Remind). A timeout
// found late is announced with the time it fell due (round.TimedOut's
// Due) and how late (Late), so players are told honestly that it
// happened while the program was down.
//
// All time comes from a Clock: System in the program, clocktest.Clock in
// tests, which move it by hand and can see every sleep.
//
// # Speed
//
// Finding the next due time reads the first key of three indexes; a
// catch-up reads the due entries in batches (Options.Batch) and handles
// them Options.Workers at a time, a transaction each, so that on bbolt
// their commits share fsyncs. With 10,000 active games (BenchmarkNextDue,
// BenchmarkCatchUp; AMD EPYC, two cores):
//
//	                                in memory    bbolt
//	NextDue                         0.7 ms       1.4 µs
//	a wake with nothing due         1.3 ms       4.3 µs
//	catch-up of 1,000 timeouts      14 ms        0.4–0.9 s
//
// The in-memory storage scans every game for each index; bbolt reads one
// key. A catch-up on bbolt is bound by its commits; the announcements to
// Discord that follow take longer still.
//
// # Caveats
//
// A timeout's announcement is in the outbox, written with the timeout:
// it is delivered at least once, even when the program stops at once or
// Discord refuses the first post. Play claims a reminder or an expiry in
// a transaction before the Notifier hears of it: each is announced at
// most once. If the program stops between the claim and the
// announcement, the announcement is lost, never doubled; the game itself
// is always right.
//
// Two Schedulers on one storage do no harm — play decides each item once,
// and the other one's attempt is refused and skipped — but without a
// Claimer they share the work unevenly and try items twice. On a storage
// that several processes share (PostgreSQL), give each process's
// Scheduler a Claimer (Options.Claimer): each due deadline and reminder
// is then claimed by one of them in a transaction (FOR UPDATE SKIP
// LOCKED), and the claims of a process that died lapse and are taken
// over. Expired challenges go out in play's batches, which play decides
// once whichever process runs them.
package schedule
