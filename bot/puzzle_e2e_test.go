package bot_test

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/iceagechess/iceage/game"
	"github.com/iceagechess/iceage/i18n"
	"github.com/iceagechess/iceage/internal/fakediscord"
	"github.com/iceagechess/iceage/play"
	"github.com/iceagechess/iceage/play/memstore"
	"github.com/iceagechess/iceage/puzzle"
)

// shippedPuzzle returns the first shipped puzzle that match accepts.
func shippedPuzzle(t testing.TB, match func(pz *puzzle.Puzzle) bool) puzzle.Puzzle {
	t.Helper()
	for _, pz := range puzzle.Set() {
		if match(&pz) {
			return pz
		}
	}
	t.Fatal("no shipped puzzle of that kind")
	return puzzle.Puzzle{}
}

// puzzleButton finds a puzzle message's button by the start of its
// custom id.
func puzzleButton(t testing.TB, m fakediscord.Message, prefix string) discordgo.Button {
	t.Helper()
	for _, b := range m.Buttons() {
		if strings.HasPrefix(b.CustomID, prefix) {
			return b
		}
	}
	t.Fatalf("no %q button on %q (buttons %v)", prefix, m.Content, m.Buttons())
	return discordgo.Button{}
}

// puzzleMove plays a puzzle's move in two clicks: the man in the men's
// menu, then the move in the man's menu; it returns the answer.
func (w *world) puzzleMove(by fakediscord.User, msg fakediscord.Message, pos *game.Position, uci string) fakediscord.Message {
	w.t.Helper()
	mv, err := game.ParseUCI(uci)
	if err != nil {
		w.t.Fatal(err)
	}
	men := menu(w.t, msg)
	if !strings.HasPrefix(men.CustomID, "pz:man:") {
		w.t.Fatalf("the puzzle's menu is %s", men.CustomID)
	}
	label := i18n.ManOn(i18n.English, pos.PieceAt(mv.From()), mv.From())
	moves := w.answer(w.srv.Select(by.ID, msg.ID, men.CustomID, option(w.t, men, label).Value)) // click one
	if !moves.Ephemeral() || moves.ID != msg.ID {
		w.t.Fatalf("the moves of %s came as %q (ephemeral %v, message %s, was %s)", label, moves.Content, moves.Ephemeral(), moves.ID, msg.ID)
	}
	mm := menu(w.t, moves)
	return w.answer(w.srv.Select(by.ID, moves.ID, mm.CustomID, option(w.t, mm, pos.SAN(mv)).Value)) // click two
}

func (w *world) puzzler(scope, user string) play.Puzzler {
	w.t.Helper()
	var p play.Puzzler
	err := w.st.View(context.Background(), func(tx play.ReadTx) error {
		var err error
		p, err = tx.Puzzler(scope, user)
		return err
	})
	if err != nil && !errors.Is(err, play.ErrNotFound) {
		w.t.Fatal(err)
	}
	return p
}

func TestAPuzzleSolvedInTwoClicksAMoveIsRatedOnce(t *testing.T) {
	w := newWorld(t, memstore.New(), "en-US")
	pz := shippedPuzzle(t, func(pz *puzzle.Puzzle) bool { return pz.Goal == puzzle.Mate && pz.SolverMoves() == 2 })
	line, err := pz.Line()
	if err != nil {
		t.Fatal(err)
	}

	msg := w.command(w.alice, w.chess.ID, "puzzle", fakediscord.StringOption("id", pz.ID))
	if !msg.Ephemeral() || len(msg.Files) != 1 || len(msg.Embeds) != 1 || !strings.Contains(msg.Embeds[0].Description, "mate in 2") {
		t.Fatalf("/puzzle answered %q, ephemeral %v, embeds %+v", msg.Content, msg.Ephemeral(), msg.Embeds)
	}
	writeShot(t, "puzzle-start.png", msg.Files[0].Data)
	for ply := 0; ply < pz.SolverMoves(); ply++ {
		pos, _, err := pz.At(ply)
		if err != nil {
			t.Fatal(err)
		}
		msg = w.puzzleMove(w.alice, msg, &pos, line[2*ply].UCI())
		if ply == 0 {
			// The reply comes at once, in the same answer.
			reply := pos.Apply(line[0])
			if !strings.Contains(msg.Content, "is right") || !strings.Contains(msg.Content, reply.SAN(line[1])) {
				t.Fatalf("after the first move: %q", msg.Content)
			}
		}
	}
	if !strings.Contains(msg.Content, "solved!") || !strings.Contains(msg.Content, "Puzzle rating:") {
		t.Fatalf("the last move answered %q", msg.Content)
	}
	writeShot(t, "puzzle-solved.png", msg.Files[0].Data)
	p := w.puzzler(w.guild.ID, w.alice.ID)
	if p.Rated != 1 || p.Solved != 1 || p.Streak != 1 || p.Rating.Rating <= play.DefaultRating {
		t.Fatalf("after the solve: %+v", p)
	}

	// Solved again, for practice: not rated a second time.
	again := w.command(w.alice, w.chess.ID, "puzzle", fakediscord.StringOption("id", pz.ID))
	if !strings.Contains(again.Content, "practice") {
		t.Errorf("a puzzle tried before opens as %q", again.Content)
	}
	for ply := 0; ply < pz.SolverMoves(); ply++ {
		pos, _, _ := pz.At(ply)
		again = w.puzzleMove(w.alice, again, &pos, line[2*ply].UCI())
	}
	if !strings.Contains(again.Content, "not rated") {
		t.Errorf("a practice solve answered %q", again.Content)
	}
	if q := w.puzzler(w.guild.ID, w.alice.ID); q.Rated != 1 || q.Rating != p.Rating {
		t.Fatalf("a practice solve changed the record: %+v, was %+v", q, p)
	}

	// The next puzzle is another one, near the rating.
	next := w.answer(w.srv.Click(w.alice.ID, again.ID, puzzleButton(t, again, "pz:next").CustomID))
	if !next.Ephemeral() || strings.Contains(next.Embeds[0].Title, pz.ID) {
		t.Fatalf("the next puzzle is %q", next.Embeds[0].Title)
	}

	// The leaderboard of puzzles shows Alice.
	lb := w.command(w.bob, w.chess.ID, "leaderboard", fakediscord.StringOption("board", "puzzles"))
	if len(lb.Embeds) != 1 || !strings.Contains(lb.Embeds[0].Description, "<@"+w.alice.ID+">") {
		t.Fatalf("the puzzle leaderboard: %+v", lb.Embeds)
	}
}

func TestAWrongTryEndsTheRatedTryAndTheSolutionIsShown(t *testing.T) {
	w := newWorld(t, memstore.New(), "en-US")
	pz := shippedPuzzle(t, func(pz *puzzle.Puzzle) bool { return pz.Goal == puzzle.Mate && pz.SolverMoves() == 1 })
	pos, _ := pz.Position()
	right, _ := pz.Line()
	var wrong game.Move
	for _, ms := range pos.SANs() {
		if ms.Move != right[0] && !puzzle.Reaches(&pos, ms.Move, pz.Goal) {
			wrong = ms.Move
			break
		}
	}
	msg := w.command(w.alice, w.chess.ID, "puzzle", fakediscord.StringOption("id", pz.ID))
	// A stranger's click on Alice's menu is refused, privately.
	men := menu(t, msg)
	refused := w.answer(w.srv.Select(w.carol.ID, msg.ID, men.CustomID, men.Options[0].Value))
	if !refused.Ephemeral() || refused.ID == msg.ID || len(refused.Files) != 0 || refused.Content == "" {
		t.Fatalf("Carol's click on Alice's puzzle answered %q", refused.Content)
	}

	msg = w.puzzleMove(w.alice, msg, &pos, wrong.UCI())
	if !strings.Contains(msg.Content, "is not the move") || !strings.Contains(msg.Content, "Puzzle rating:") {
		t.Fatalf("a wrong move answered %q", msg.Content)
	}
	writeShot(t, "puzzle-wrong.png", msg.Files[0].Data)
	p := w.puzzler(w.guild.ID, w.alice.ID)
	if p.Rated != 1 || p.Solved != 0 || p.Rating.Rating >= play.DefaultRating {
		t.Fatalf("after a wrong move: %+v", p)
	}
	shown := w.answer(w.srv.Click(w.alice.ID, msg.ID, puzzleButton(t, msg, "pz:show:").CustomID))
	if !strings.Contains(shown.Content, "Solution: ") || !strings.Contains(shown.Content, pos.SAN(right[0])) || !strings.Contains(shown.Content, "not rated") {
		t.Fatalf("the solution: %q", shown.Content)
	}
	if q := w.puzzler(w.guild.ID, w.alice.ID); q.Rated != 1 || q.Rating != p.Rating {
		t.Fatalf("the solution shown after the miss rated again: %+v", q)
	}
}

func TestTheDailyPuzzleIsPostedOnceAndCountsItsSolvers(t *testing.T) {
	w := newWorld(t, memstore.New(), "en-US")
	w.srv.AllowCommand(w.guild.ID, "server-settings")
	w.srv.SetMemberPermissions(w.guild.ID, w.dan.ID, discordgo.PermissionManageGuild)
	hour := (w.clock.Now().Hour() + 1) % 24
	set := w.command(w.dan, w.chess.ID, "server-settings", fakediscord.ChannelOption("puzzle_channel", w.chess.ID), fakediscord.IntOption("puzzle_hour", int64(hour)))
	if !strings.Contains(set.Content, "Puzzle of the day: in <#"+w.chess.ID+">") {
		t.Fatalf("/server-settings answered %q", set.Content)
	}
	w.clock.Add(time.Hour)
	post := w.waitMessage(w.chess.ID, func(m fakediscord.Message) bool { return strings.Contains(m.Content, "🧩 **Puzzle of the day**") })
	if !strings.Contains(post.Content, "Solved by 0 members so far.") || len(post.Files) != 1 {
		t.Fatalf("the daily post: %q", post.Content)
	}
	writeShot(t, "puzzle-daily.png", post.Files[0].Data)
	day := play.DayOf(w.clock.Now())
	pz, _ := puzzle.Daily(puzzle.Set(), day)
	if strings.Contains(post.Content, pz.Moves[0]) {
		t.Fatalf("the daily post spoils the answer: %q", post.Content)
	}

	// Alice opens it privately and solves it; the post counts her.
	msg := w.answer(w.srv.Click(w.alice.ID, post.ID, puzzleButton(t, post, "pz:daily:").CustomID))
	if !msg.Ephemeral() || !strings.Contains(msg.Content, "puzzle of the day") {
		t.Fatalf("the daily puzzle opened as %q", msg.Content)
	}
	line, _ := pz.Line()
	for ply := 0; ply < pz.SolverMoves(); ply++ {
		pos, _, _ := pz.At(ply)
		msg = w.puzzleMove(w.alice, msg, &pos, line[2*ply].UCI())
	}
	if !strings.Contains(msg.Content, "solved") {
		t.Fatalf("the daily puzzle's last move answered %q", msg.Content)
	}
	if _, err := w.srv.WaitFor(w.ctx(), func(c fakediscord.Call) bool {
		return c.Kind == fakediscord.KindMessageEdit && c.Message.ID == post.ID && strings.Contains(c.Message.Content, "Solved by 1 member so far.")
	}); err != nil {
		t.Fatalf("the post's count did not become 1: %v", err)
	}

	// A restart the same day posts nothing more; the next day posts again.
	w.restart()
	w.clock.Add(time.Hour)
	time.Sleep(patience(1500 * time.Millisecond)) // three polls of the outbox
	if n := w.count(w.chess.ID, "🧩 **Puzzle of the day**"); n != 1 {
		t.Fatalf("%d daily posts the first day", n)
	}
	w.clock.Add(23 * time.Hour)
	w.waitMessage(w.chess.ID, func(m fakediscord.Message) bool {
		return strings.Contains(m.Content, "🧩 **Puzzle of the day**") && m.ID != post.ID
	})
}

// /puzzle goes by the ratings the tries gave the puzzles: when every
// puzzle but the five easiest-looking ones was found hard (rated 3000 by
// its tries) and those five were moved to 1500, a new player (1500) gets
// one of them, never a puzzle whose first rating is 1500.
func TestPuzzleOpensOneNearestByTheRatingItsTriesGave(t *testing.T) {
	st := memstore.New()
	set := slices.SortedFunc(slices.Values(puzzle.Set()), func(a, b puzzle.Puzzle) int { return cmp.Compare(a.Rating, b.Rating) })
	easiest := map[string]bool{}
	for _, pz := range set[:5] {
		easiest[pz.ID] = true
	}
	if set[4].Rating > 1300 {
		t.Fatalf("the fifth easiest shipped puzzle is rated %d: the test needs them far from 1500", set[4].Rating)
	}
	err := st.Update(context.Background(), func(tx play.Tx) error {
		for _, pz := range set {
			s := play.NewPuzzleStats(pz.ID, pz.Rating)
			s.Rating.Rating, s.Tries = 3000, 9
			if easiest[pz.ID] {
				s.Rating.Rating = play.DefaultRating
			}
			if err := tx.PutPuzzleStats(s); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	w := newWorld(t, st, "en-US")
	msg := w.command(w.alice, w.chess.ID, "puzzle")
	if got := w.puzzler(w.guild.ID, w.alice.ID).Current; !msg.Ephemeral() || len(msg.Embeds) != 1 || !easiest[got] {
		t.Fatalf("/puzzle opened %q (%q), want one of %v", got, msg.Content, easiest)
	}
}

// The puzzle leaderboard turns its pages with the other leaderboards'
// buttons: twelve solvers make two pages, the second ranks 11 and 12.
func TestThePuzzleLeaderboardHasPages(t *testing.T) {
	st := memstore.New()
	w := newWorld(t, st, "en-US")
	err := st.Update(context.Background(), func(tx play.Tx) error {
		for i := range 12 {
			p := play.NewPuzzler(w.guild.ID, fmt.Sprintf("%d", 900000000000000000+i))
			p.Rated, p.Rating.Rating = 1, float64(2000-10*i)
			if err := tx.PutPuzzler(p); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	lb := w.command(w.bob, w.chess.ID, "leaderboard", fakediscord.StringOption("board", "puzzles"))
	if len(lb.Embeds) != 1 || strings.Count(lb.Embeds[0].Description, "\n") != 9 || !strings.Contains(lb.Embeds[0].Description, "<@900000000000000009>") ||
		strings.Contains(lb.Embeds[0].Description, "<@900000000000000010>") {
		t.Fatalf("the first page: %+v", lb.Embeds)
	}
	next := puzzleButton(t, lb, "lb:puzzles:2")
	if next.Disabled || !puzzleButton(t, lb, "lb:puzzles:0").Disabled {
		t.Fatalf("the first page's buttons: %+v", lb.Buttons())
	}
	two := w.answer(w.srv.Click(w.alice.ID, lb.ID, next.CustomID))
	d := two.Embeds[0].Description
	if two.ID != lb.ID || strings.Count(d, "\n") != 1 || !strings.Contains(d, "11") || !strings.Contains(d, "<@900000000000000011>") || strings.Contains(d, "<@900000000000000009>") {
		t.Fatalf("the second page: %q", d)
	}
	if !puzzleButton(t, two, "lb:puzzles:3").Disabled {
		t.Fatalf("the last page's next button: %+v", two.Buttons())
	}
}

// TestEveryStepOfAnOlderPuzzleMessageIsStale: each step a puzzle's
// message offers — another man, a man, a move, a hint, the solution —
// clicked where the try has moved on (a second window, an older render
// of the message) is answered as stale, in one place for all of them,
// and changes nothing of the try.
func TestEveryStepOfAnOlderPuzzleMessageIsStale(t *testing.T) {
	w := newWorld(t, memstore.New(), "en-US")
	pz := shippedPuzzle(t, func(pz *puzzle.Puzzle) bool { return pz.SolverMoves() >= 2 })
	line, err := pz.Line()
	if err != nil {
		t.Fatal(err)
	}
	pos, _, err := pz.At(0)
	if err != nil {
		t.Fatal(err)
	}
	msg := w.command(w.alice, w.chess.ID, "puzzle", fakediscord.StringOption("id", pz.ID))
	men := menu(t, msg)
	man := option(t, men, i18n.ManOn(i18n.English, pos.PieceAt(line[0].From()), line[0].From())).Value
	moves := w.answer(w.srv.Select(w.alice.ID, msg.ID, men.CustomID, man))
	to := menu(t, moves)
	move := option(t, to, pos.SAN(line[0])).Value
	steps := []struct {
		name, id string
		value    string // a menu's choice; "" for a button
	}{
		{"another man", puzzleButton(t, moves, "pz:men:").CustomID, ""},
		{"a man", men.CustomID, man},
		{"a move", to.CustomID, move},
		{"a hint", puzzleButton(t, moves, "pz:hint:").CustomID, ""},
		{"the solution", puzzleButton(t, moves, "pz:show:").CustomID, ""},
	}
	// The right move: the try goes on to the solver's second move.
	w.answer(w.srv.Select(w.alice.ID, moves.ID, to.CustomID, move))
	before := w.puzzler(w.guild.ID, w.alice.ID)
	if before.Current != pz.ID || before.Ply != 1 {
		t.Fatalf("after the first move: %+v", before)
	}
	want := i18n.T(i18n.English, "puzzle.stale", nil)
	for _, s := range steps {
		var id string
		if s.value != "" {
			id = w.srv.ForgedSelect(w.alice.ID, msg.ID, s.id, s.value)
		} else {
			id = w.srv.ForgedClick(w.alice.ID, msg.ID, s.id)
		}
		if got := w.answer(id); got.Content != want || !got.Ephemeral() {
			t.Errorf("%s on the older step answered %q (ephemeral %v), want %q", s.name, got.Content, got.Ephemeral(), want)
		}
	}
	if after := w.puzzler(w.guild.ID, w.alice.ID); after.Ply != before.Ply || after.Hinted || after.Spoiled || after.Rated != before.Rated {
		t.Errorf("stale clicks changed the try: %+v, was %+v", after, before)
	}
}
