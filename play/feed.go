package play

// Committed is a game as a committed transaction wrote it, or a
// tournament it wrote.
type Committed struct {
	Game     uint64
	Revision int
	// Record is the game's stored form (EncodeRecord), the receiver's
	// to keep; nil when the storage could not pass it on (a game too
	// large for PostgreSQL's notification): the receiver reads the game.
	Record []byte
	// Tournament, when not 0, is a tournament the transaction wrote
	// (Tx.PutTournament), told once a transaction however often it was
	// put; Game, Revision and Record are then empty: the receiver reads
	// the tournament, whose page follows its results and rounds.
	Tournament uint64
}

// Feed is a storage that tells what games its transactions wrote once
// they are committed, so that package stream can follow every game
// without asking each act. Every storage of this module implements it:
// store and memstore for the acts of this process, pgstore for those of
// every process on the database.
type Feed interface {
	// Feed calls fn with the games that each transaction committed from
	// now on wrote, in the order it wrote them, right after the commit;
	// a transaction rolled back is never told. A game's writes come in
	// the order of their revisions on one connection to PostgreSQL, and
	// nearly so in a process, where two commits' calls may cross: the
	// receiver puts them in order. A write that changes no revision (a
	// reminder, conditional moves) is told too, with its revision. A
	// tournament written is told as a Committed of its own, among the
	// games, in the order it was first written.
	//
	// lost is true, with no games, when writes may have gone untold
	// (PostgreSQL's listening connection broke and is back, or was
	// first opened): the receiver reads again what it follows.
	//
	// fn runs on the committing goroutine or the storage's listener: it
	// must not block, nor call the storage. stop ends the calls.
	Feed(fn func(games []Committed, lost bool)) (stop func())
}

// Feeders are the functions that a storage's Feed registered, for the
// storages to keep them alike: each has an id to take it away by, and
// List copies them for calls made without the storage's lock. The
// storage holds its own lock around every method.
type Feeders struct {
	next int
	fns  map[int]func([]Committed, bool)
}

// Add registers fn and returns its id, for Remove.
func (f *Feeders) Add(fn func(games []Committed, lost bool)) int {
	if f.fns == nil {
		f.fns = map[int]func([]Committed, bool){}
	}
	n := f.next
	f.next++
	f.fns[n] = fn
	return n
}

// Remove takes away the function of id, and returns how many are left.
func (f *Feeders) Remove(id int) int {
	delete(f.fns, id)
	return len(f.fns)
}

// List returns the functions registered, in no order.
func (f *Feeders) List() []func([]Committed, bool) {
	fns := make([]func([]Committed, bool), 0, len(f.fns))
	for _, fn := range f.fns {
		fns = append(fns, fn)
	}
	return fns
}

// NoteTournament adds the write of tournament id to a transaction's
// writes to tell (fed), unless it is among them already: the storages'
// one way of telling a tournament.
func NoteTournament(fed []Committed, id uint64) []Committed {
	for _, c := range fed {
		if c.Tournament == id {
			return fed
		}
	}
	return append(fed, Committed{Tournament: id})
}
