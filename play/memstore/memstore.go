// Package memstore keeps play's records in memory: for tests, for the
// one-off games of the play subcommand, and as the reference that
// playtest.RunStorageSuite checks every storage against.
package memstore

import (
	"cmp"
	"context"
	"fmt"
	"maps"
	"slices"
	"sync"
	"time"

	"github.com/iceagechess/iceage/play"
)

// Memory is a play.Storage in memory: transactions are serialised by one
// lock and see their own writes; a failed one leaves nothing behind.
type Memory struct {
	mu         sync.Mutex
	seq        uint64
	games      map[uint64]play.Game
	challenges map[uint64]play.Challenge
	players    map[[2]string]play.Player
	stats      map[string]play.Stats
	prefs      map[string]play.Prefs
	servers    map[string]play.ServerSettings
	lessons    map[string]play.LessonProgress
	recent     map[string]play.Recent
	// logs are the players' logs by scope and user, each sorted by game.
	logs map[[2]string][]play.LogEntry
	// standings are the sorted standings of the scopes asked for, dropped
	// when a player of the scope changes.
	standings map[string][]play.Standing
	// outbox holds the pending outbox items by key (outbox.go).
	outbox map[string]play.OutboxItem
	// tournaments and their games' index (tournament.go).
	tournaments  map[uint64]play.TournamentRecord
	tournamentOf map[uint64]uint64
	// feeds are told of the games each commit wrote (feed.go).
	feeds feeds
	// pz are the puzzle records (puzzles.go).
	pz puzzleMaps
}

// New returns an empty in-memory storage.
func New() *Memory {
	return &Memory{
		games: map[uint64]play.Game{}, challenges: map[uint64]play.Challenge{},
		players: map[[2]string]play.Player{}, stats: map[string]play.Stats{}, prefs: map[string]play.Prefs{},
		servers: map[string]play.ServerSettings{}, recent: map[string]play.Recent{}, lessons: map[string]play.LessonProgress{},
		logs: map[[2]string][]play.LogEntry{}, standings: map[string][]play.Standing{},
		outbox:      map[string]play.OutboxItem{},
		tournaments: map[uint64]play.TournamentRecord{}, tournamentOf: map[uint64]uint64{},
		pz: newPuzzleMaps(),
	}
}

// Update runs fn on a transaction and applies its writes if fn succeeds.
func (m *Memory) Update(ctx context.Context, fn func(play.Tx) error) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	tx := &memTx{m: m, seq: m.seq, games: map[uint64]play.Game{}, challenges: map[uint64]*play.Challenge{},
		players: map[[2]string]play.Player{}, stats: map[string]play.Stats{}, prefs: map[string]play.Prefs{},
		servers: map[string]play.ServerSettings{}, recent: map[string]play.Recent{}, lessons: map[string]play.LessonProgress{}, logs: map[[2]string]map[uint64]play.LogEntry{}, tournaments: map[uint64]play.TournamentRecord{},
		pz: newPuzzleMaps()}
	if err := fn(tx); err != nil {
		return err
	}
	m.seq = tx.seq
	maps.Copy(m.games, tx.games)
	for id, c := range tx.challenges {
		if c == nil {
			delete(m.challenges, id)
		} else {
			m.challenges[id] = *c
		}
	}
	for k, p := range tx.players {
		m.players[k] = p
		delete(m.standings, k[0])
	}
	maps.Copy(m.stats, tx.stats)
	maps.Copy(m.prefs, tx.prefs)
	maps.Copy(m.servers, tx.servers)
	maps.Copy(m.lessons, tx.lessons)
	for user, r := range tx.recent {
		if r.Empty() {
			delete(m.recent, user)
		} else {
			m.recent[user] = r
		}
	}
	for k, es := range tx.logs {
		m.logs[k] = mergeLog(m.logs[k], es)
	}
	m.addOutbox(tx.outbox)
	m.addTournaments(tx.tournaments)
	m.pz.commit(&tx.pz)
	m.feeds.tell(tx.fed)
	return nil
}

// View runs fn on a read-only transaction.
func (m *Memory) View(ctx context.Context, fn func(play.ReadTx) error) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	return fn(&memTx{m: m, readOnly: true})
}

// memTx overlays a transaction's writes on the committed state.
type memTx struct {
	m           *Memory
	readOnly    bool
	seq         uint64
	games       map[uint64]play.Game
	challenges  map[uint64]*play.Challenge // nil: deleted
	players     map[[2]string]play.Player
	stats       map[string]play.Stats
	prefs       map[string]play.Prefs
	servers     map[string]play.ServerSettings
	lessons     map[string]play.LessonProgress
	recent      map[string]play.Recent
	logs        map[[2]string]map[uint64]play.LogEntry // by scope and user, then game
	outbox      []play.OutboxItem                      // put, in order
	tournaments map[uint64]play.TournamentRecord
	fed         []play.Committed // the games put, in order, when a feed listens
	pz          puzzleMaps
}

func notFound(format string, args ...any) error {
	return fmt.Errorf("%w: "+format, append([]any{play.ErrNotFound}, args...)...)
}

func (t *memTx) game(id uint64) (play.Game, bool) {
	if g, ok := t.games[id]; ok {
		return g, true
	}
	g, ok := t.m.games[id]
	return g, ok
}

// allGames returns every game by id, sharing their moves with the
// storage: callers clone only what they return, so that a scan copies no
// moves.
func (t *memTx) allGames() []play.Game {
	var out []play.Game
	for id, g := range t.m.games {
		if _, over := t.games[id]; !over {
			out = append(out, g)
		}
	}
	for _, g := range t.games {
		out = append(out, g)
	}
	slices.SortFunc(out, func(a, b play.Game) int { return cmp.Compare(a.ID, b.ID) })
	return out
}

func (t *memTx) Game(id uint64) (play.Game, error) {
	if g, ok := t.game(id); ok {
		return g.Clone(), nil
	}
	return play.Game{}, notFound("no game has id %d", id)
}

func (t *memTx) GameIn(channel string) (play.Game, error) {
	// A scan without sorting or copying: PutGame asks on every move.
	for _, g := range t.games {
		if !g.Over() && g.Channel == channel {
			return g.Clone(), nil
		}
	}
	for id, g := range t.m.games {
		if _, changed := t.games[id]; !changed && !g.Over() && g.Channel == channel {
			return g.Clone(), nil
		}
	}
	return play.Game{}, notFound("no game is going on in channel %s", channel)
}

func (t *memTx) active(keep func(*play.Game) bool) ([]play.Game, error) {
	var out []play.Game
	for _, g := range t.allGames() {
		if !g.Over() && keep(&g) {
			out = append(out, g.Clone())
		}
	}
	return out, nil
}

func (t *memTx) ActiveGames(user string) ([]play.Game, error) {
	return t.active(func(g *play.Game) bool { return g.White.ID == user || g.Black.ID == user })
}

func (t *memTx) GuildGames(guild string) ([]play.Game, error) {
	return t.active(func(g *play.Game) bool { return g.Guild == guild })
}

func (t *memTx) Finished(user, guild string, before uint64, limit int) ([]play.Game, error) {
	var out []play.Game
	all := t.allGames()
	for i := len(all) - 1; i >= 0 && len(out) < limit; i-- {
		g := all[i]
		switch {
		case !g.Over(), before != 0 && g.ID >= before:
		case user != "" && g.White.ID != user && g.Black.ID != user:
		case user == "" && guild != "" && g.Guild != guild:
		default:
			out = append(out, g.Clone())
		}
	}
	return out, nil
}

func (t *memTx) challenge(id uint64) (play.Challenge, bool) {
	if c, ok := t.challenges[id]; ok {
		if c == nil {
			return play.Challenge{}, false
		}
		return *c, true
	}
	c, ok := t.m.challenges[id]
	return c, ok
}

func (t *memTx) Challenge(id uint64) (play.Challenge, error) {
	if c, ok := t.challenge(id); ok {
		return c, nil
	}
	return play.Challenge{}, notFound("no challenge has id %d", id)
}

func (t *memTx) allChallenges() []play.Challenge {
	ids := slices.Collect(maps.Keys(t.m.challenges))
	for id := range t.challenges {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	ids = slices.Compact(ids)
	var out []play.Challenge
	for _, id := range ids {
		if c, ok := t.challenge(id); ok {
			out = append(out, c)
		}
	}
	return out
}

func (t *memTx) Challenges(user string) ([]play.Challenge, error) {
	var out []play.Challenge
	for _, c := range t.allChallenges() {
		if c.From.ID == user || c.To.ID == user {
			out = append(out, c)
		}
	}
	return out, nil
}

func (t *memTx) Player(scope, user string) (play.Player, error) {
	k := [2]string{scope, user}
	if p, ok := t.players[k]; ok {
		return p, nil
	}
	if p, ok := t.m.players[k]; ok {
		return p, nil
	}
	return play.Player{}, notFound("user %s has no record in scope %q", user, scope)
}

func (t *memTx) Players(scope string, fn func(play.Player) error) error {
	call := fn
	var later []play.Player
	if !t.readOnly {
		// fn may write: read first, so that its writes do not change the
		// maps being walked.
		call = func(p play.Player) error { later = append(later, p); return nil }
	}
	// The transaction's own records first, then the stored ones it has
	// not replaced, without copying the map: a leaderboard walks them all.
	for k, p := range t.players {
		if k[0] == scope {
			if err := call(p); err != nil {
				return err
			}
		}
	}
	for k, p := range t.m.players {
		if _, mine := t.players[k]; !mine && k[0] == scope {
			if err := call(p); err != nil {
				return err
			}
		}
	}
	for _, p := range later {
		if err := fn(p); err != nil {
			return err
		}
	}
	return nil
}

// Standings walks the rated players of scope in play.CompareStandings'
// order. The committed standings of a scope are sorted once and kept
// until a player of the scope changes; a transaction that changed one
// sorts its own.
func (t *memTx) Standings(scope string, fn func(play.Standing) error) error {
	rows, ok := t.m.standings[scope]
	mine := false
	for k := range t.players {
		if k[0] == scope {
			mine = true
			break
		}
	}
	if mine || !ok {
		rows = t.sortStandings(scope)
		if !mine {
			t.m.standings[scope] = rows
		}
	}
	for _, r := range rows {
		if err := fn(r); err != nil {
			return err
		}
	}
	return nil
}

// sortStandings sorts small keys and looks a row up only for a tie,
// much faster than sorting Standings.
func (t *memTx) sortStandings(scope string) []play.Standing {
	type key struct {
		rating float64
		games  int
		row    int
	}
	var (
		keys []key
		rows []play.Standing
	)
	add := func(p *play.Player) {
		if p.RatedGames > 0 {
			keys = append(keys, key{p.Rating.Rating, p.RatedTally.Games(), len(rows)})
			rows = append(rows, play.StandingOf(p))
		}
	}
	for k, p := range t.players {
		if k[0] == scope {
			add(&p)
		}
	}
	for k, p := range t.m.players {
		if _, mine := t.players[k]; !mine && k[0] == scope {
			add(&p)
		}
	}
	slices.SortFunc(keys, func(a, b key) int {
		switch {
		case a.rating > b.rating:
			return -1
		case a.rating < b.rating:
			return 1
		case a.games != b.games:
			return cmp.Compare(b.games, a.games)
		}
		return cmp.Compare(rows[a.row].User, rows[b.row].User)
	})
	sorted := make([]play.Standing, len(keys))
	for i, k := range keys {
		sorted[i] = rows[k.row]
	}
	return sorted
}

func (t *memTx) Stats(scope string) (play.Stats, error) {
	st, ok := t.stats[scope]
	if !ok {
		st = t.m.stats[scope]
	}
	st.ByReason = maps.Clone(st.ByReason)
	return st, nil
}

func (t *memTx) Prefs(user string) (play.Prefs, error) {
	p, ok := t.prefs[user]
	if !ok {
		p = t.m.prefs[user]
	}
	p.Reminders = slices.Clone(p.Reminders)
	return p, nil
}

func (t *memTx) LessonProgress(user string) (play.LessonProgress, error) {
	p, ok := t.lessons[user]
	if !ok {
		p = t.m.lessons[user]
	}
	return p.Clone(), nil
}

func (t *memTx) PutLessonProgress(user string, p play.LessonProgress) error {
	if err := t.writable(); err != nil {
		return err
	}
	if err := play.CheckID("user id", user); err != nil {
		return err
	}
	t.lessons[user] = p.Clone()
	return nil
}

func (t *memTx) ServerSettings(guild string) (play.ServerSettings, error) {
	s, ok := t.servers[guild]
	if !ok {
		s = t.m.servers[guild]
	}
	return s, nil
}

func (t *memTx) PutServerSettings(guild string, s play.ServerSettings) error {
	if err := t.writable(); err != nil {
		return err
	}
	if err := play.CheckID("guild id", guild); err != nil {
		return err
	}
	t.servers[guild] = s
	return nil
}

func (t *memTx) PlayerLog(scope, user string, fn func(play.LogEntry) error) error {
	k := [2]string{scope, user}
	log := t.m.logs[k]
	if pending := t.logs[k]; len(pending) > 0 {
		log = mergeLog(slices.Clone(log), pending)
	}
	for _, e := range log {
		if err := fn(e); err != nil {
			return err
		}
	}
	return nil
}

// mergeLog puts entries into a log sorted by game, replacing those of the
// same games, and returns it.
func mergeLog(log []play.LogEntry, entries map[uint64]play.LogEntry) []play.LogEntry {
	for _, id := range slices.Sorted(maps.Keys(entries)) {
		i, found := slices.BinarySearchFunc(log, id, func(e play.LogEntry, id uint64) int { return cmp.Compare(e.Game, id) })
		if found {
			log[i] = entries[id]
		} else {
			log = slices.Insert(log, i, entries[id])
		}
	}
	return log
}

func (t *memTx) Due(kind play.DueKind, now time.Time, limit int) ([]play.Due, error) {
	var out []play.Due
	t.eachDue(kind, func(d play.Due) {
		if !d.At.After(now) {
			out = append(out, d)
		}
	})
	slices.SortFunc(out, func(a, b play.Due) int {
		return cmp.Or(a.At.Compare(b.At), cmp.Compare(a.ID, b.ID))
	})
	return out[:min(len(out), max(limit, 0))], nil
}

func (t *memTx) NextDue(kind play.DueKind) (time.Time, bool, error) {
	var next time.Time
	t.eachDue(kind, func(d play.Due) {
		if next.IsZero() || d.At.Before(next) {
			next = d.At
		}
	})
	return next, !next.IsZero(), nil
}

// eachDue calls fn for every entry of a time index, in no order. It
// scans the records without copying them, so that a scheduler's look at
// thousands of games stays cheap: fine for tests and benchmarks.
func (t *memTx) eachDue(kind play.DueKind, fn func(play.Due)) {
	if kind == play.DueExpiry {
		for _, c := range t.allChallenges() {
			fn(play.Due{At: c.Expires, ID: c.ID})
		}
		return
	}
	visit := func(g *play.Game) {
		at := g.Deadline
		if kind == play.DueReminder {
			at = g.RemindAt
		}
		if !g.Over() && !at.IsZero() {
			fn(play.Due{At: at, ID: g.ID})
		}
	}
	for id, g := range t.m.games {
		if _, changed := t.games[id]; !changed {
			visit(&g)
		}
	}
	for _, g := range t.games {
		visit(&g)
	}
}

func (t *memTx) writable() error {
	if t.readOnly {
		return fmt.Errorf("memstore: write in a read-only transaction")
	}
	return nil
}

func (t *memTx) NextID() (uint64, error) {
	if err := t.writable(); err != nil {
		return 0, err
	}
	t.seq++
	return t.seq, nil
}

func (t *memTx) PutGame(g play.Game) error {
	if err := t.writable(); err != nil {
		return err
	}
	if err := g.CheckIDs(); err != nil {
		return fmt.Errorf("memstore: %w", err)
	}
	if !g.Over() {
		if other, err := t.GameIn(g.Channel); err == nil && other.ID != g.ID {
			return fmt.Errorf("%w: channel %s has game %d", play.ErrChannelBusy, g.Channel, other.ID)
		}
	}
	t.games[g.ID] = g.Clone()
	return t.feed(g)
}

func (t *memTx) PutChallenge(c play.Challenge) error {
	if err := t.writable(); err != nil {
		return err
	}
	if err := c.CheckIDs(); err != nil {
		return fmt.Errorf("memstore: %w", err)
	}
	t.challenges[c.ID] = &c
	return nil
}

func (t *memTx) DeleteChallenge(id uint64) error {
	if err := t.writable(); err != nil {
		return err
	}
	if _, ok := t.challenge(id); !ok {
		return notFound("no challenge has id %d", id)
	}
	t.challenges[id] = nil
	return nil
}

func (t *memTx) PutPlayer(p play.Player) error {
	if err := t.writable(); err != nil {
		return err
	}
	t.players[[2]string{p.Scope, p.User}] = p
	return nil
}

func (t *memTx) PutLogEntry(e play.LogEntry) error {
	if err := t.writable(); err != nil {
		return err
	}
	if e.User == "" || e.Game == 0 {
		return fmt.Errorf("memstore: a log entry needs a user and a game")
	}
	k := [2]string{e.Scope, e.User}
	if t.logs[k] == nil {
		t.logs[k] = map[uint64]play.LogEntry{}
	}
	t.logs[k][e.Game] = e
	return nil
}

func (t *memTx) PutStats(s play.Stats) error {
	if err := t.writable(); err != nil {
		return err
	}
	s.ByReason = maps.Clone(s.ByReason)
	t.stats[s.Scope] = s
	return nil
}

func (t *memTx) PutPrefs(user string, p play.Prefs) error {
	if err := t.writable(); err != nil {
		return err
	}
	p.Reminders = slices.Clone(p.Reminders)
	t.prefs[user] = p
	return nil
}
