package bot_test

import (
	"context"
	"strings"
	"testing"

	"github.com/bwmarrin/discordgo"

	"github.com/iceagechess/iceage/internal/fakediscord"
	"github.com/iceagechess/iceage/play"
	"github.com/iceagechess/iceage/play/memstore"
)

// learnButton finds a lesson message's button whose custom id starts so.
func learnButton(t testing.TB, m fakediscord.Message, prefix string) discordgo.Button {
	t.Helper()
	for _, b := range m.Buttons() {
		if strings.HasPrefix(b.CustomID, prefix) {
			return b
		}
	}
	t.Fatalf("no %q button on %q (buttons %v)", prefix, m.Content, m.Buttons())
	return discordgo.Button{}
}

// learnChoose chooses an option by its label in the one menu of a
// lesson's message, and returns the message as the click left it.
func (w *world) learnChoose(m fakediscord.Message, label string) fakediscord.Message {
	w.t.Helper()
	sm := menu(w.t, m)
	got := w.answer(w.srv.Select(w.alice.ID, m.ID, sm.CustomID, option(w.t, sm, label).Value))
	if !got.Ephemeral() {
		w.t.Fatalf("a lesson's answer is public: %q", got.Content)
	}
	return got
}

// learnTry plays a move of a lesson in two clicks: the man, then the
// square.
func (w *world) learnTry(m fakediscord.Message, man, square string) fakediscord.Message {
	w.t.Helper()
	targets := w.learnChoose(m, man)
	if !strings.HasPrefix(menu(w.t, targets).CustomID, "ln:to:") || len(targets.Files) != 1 {
		w.t.Fatalf("the squares of %s come with menu %s and %d files", man, menu(w.t, targets).CustomID, len(targets.Files))
	}
	return w.learnChoose(targets, square)
}

func TestALessonIsCompletedWithTheTwoClickMenusAndItsStarsAreKept(t *testing.T) {
	st := memstore.New()
	w := newWorld(t, st, "en-US")

	list := w.command(w.alice, w.chess.ID, "learn")
	if !list.Ephemeral() || len(list.Embeds) != 1 || list.Embeds[0].Title != "Learn Ice Age Chess" {
		t.Fatalf("/learn answered %+v", list.Embeds)
	}
	if lessons := menu(t, list).Options; len(lessons) != 10 || lessons[0].Label != "1. Ice blocks every man but the knight" {
		t.Fatalf("the lessons offered: %+v", lessons)
	}
	if f := list.Embeds[0].Footer; f == nil || f.Text != "0 of 57 stars" {
		t.Errorf("a newcomer's progress reads %+v", f)
	}

	// Step 1: the rook is barred by ice, the knight jumps.
	step := w.learnChoose(list, "1. Ice blocks every man but the knight")
	if len(step.Files) != 1 || step.Embeds[0].Footer.Text != "Step 1 of 2" || !strings.Contains(step.Embeds[0].Description, "Put a man on e5 in one move.") {
		t.Fatalf("step 1 shows %d files and %+v", len(step.Files), step.Embeds[0])
	}
	writeShot(t, "learn-step.png", step.Files[0].Data)
	men := menu(t, step)
	if len(men.Options) != 4 || men.Options[0].Label != "♔ King g1" {
		t.Errorf("the men offered: %+v", men.Options)
	}
	step = w.learnTry(step, "♖ Rook e1", "e5")
	if !strings.Contains(step.Content, "The rook on e1 cannot reach e5: ice on e3 blocks it.") && !strings.Contains(step.Content, "The rook on e1 cannot reach e5: ice on e3 blocks it") {
		t.Fatalf("a barred rook is told %q", step.Content)
	}
	writeShot(t, "learn-refused.png", step.Files[0].Data)
	// The hint, on request.
	step = w.answer(w.srv.Click(w.alice.ID, step.ID, learnButton(t, step, "ln:hint:").CustomID))
	if len(step.Embeds[0].Fields) != 1 || !strings.Contains(step.Embeds[0].Fields[0].Value, "Which man jumps?") {
		t.Fatalf("the hint shows %+v", step.Embeds[0].Fields)
	}
	solved := w.learnTry(step, "♘ Knight f3", "e5")
	if !strings.Contains(solved.Content, "Ne5: solved! Stars: ★★☆") {
		t.Fatalf("the knight's jump is answered %q", solved.Content)
	}

	// Step 2, without a wrong try: three stars, and the lesson is done.
	step = w.answer(w.srv.Click(w.alice.ID, solved.ID, learnButton(t, solved, "ln:go:ice-blocks:1").CustomID))
	if step.Embeds[0].Footer.Text != "Step 2 of 2" {
		t.Fatalf("Next step shows %+v", step.Embeds[0].Footer)
	}
	solved = w.learnTry(step, "♘ Knight c3", "d5")
	if !strings.Contains(solved.Content, "Nxd5: solved! Stars: ★★★") || !strings.Contains(solved.Content, "Lesson complete! 5 of 6 stars") {
		t.Fatalf("the last step is answered %q", solved.Content)
	}
	learnButton(t, solved, "ln:go:take-ice:0")

	// Kept: the list shows the stars, and the storage holds them.
	var p play.LessonProgress
	if err := st.View(context.Background(), func(tx play.ReadTx) (err error) { p, err = tx.LessonProgress(w.alice.ID); return err }); err != nil {
		t.Fatal(err)
	}
	if p.Best("ice-blocks", 0) != 2 || p.Best("ice-blocks", 1) != 3 {
		t.Fatalf("the stored progress is %+v", p)
	}
	list = w.answer(w.srv.Click(w.alice.ID, solved.ID, learnButton(t, solved, "ln:list").CustomID))
	if !strings.Contains(list.Embeds[0].Description, "1. Ice blocks every man but the knight · ★★★★★☆") || list.Embeds[0].Footer.Text != "5 of 57 stars" {
		t.Fatalf("the list after the lesson: %q, %+v", list.Embeds[0].Description, list.Embeds[0].Footer)
	}
	if len(list.Files) != 0 {
		t.Errorf("the list kept %d pictures of the lesson", len(list.Files))
	}
}

// A step where the opponent answers, and one where a try misses: the
// reply is shown, and a miss says why and sets the position up again.
func TestALessonAnswersAndExplainsAMiss(t *testing.T) {
	w := newWorld(t, memstore.New(), "en-US")
	list := w.command(w.alice, w.chess.ID, "learn")
	step := w.learnChoose(list, "2. Either side takes ice")
	step = w.learnTry(step, "♖ Rook a1", "a4")
	if !strings.HasPrefix(step.Content, "✅ Rxa4: good. Reply: ") {
		t.Fatalf("Rxa4 is answered %q", step.Content)
	}
	solved := w.learnTry(step, "♖ Rook a4", "a8")
	if !strings.Contains(solved.Content, "solved! Stars: ★★★") {
		t.Fatalf("Ra8 is answered %q", solved.Content)
	}

	list = w.command(w.alice, w.chess.ID, "learn")
	step = w.learnChoose(list, "9. Save your king before the Ice Age")
	step = w.learnTry(step, "♔ King g4", "g3")
	if !strings.Contains(step.Content, "Your king froze in the Ice Age, and a frozen king loses. The position is set up again") ||
		len(step.Files) != 2 || !strings.Contains(step.Content, "Ice Age!") {
		t.Fatalf("Kg3 is answered %q with %d files", step.Content, len(step.Files))
	}
	writeShot(t, "learn-missed.png", step.Files[1].Data)
	solved = w.learnTry(step, "♔ King g4", "f3")
	if !strings.Contains(solved.Content, "Kf3: solved! Stars: ★★☆") {
		t.Fatalf("Kf3 is answered %q", solved.Content)
	}
}

// A forged state in a lesson's id is refused with the friendly answer
// and changes nothing: a garbled one, and a wrong try forgotten under a
// seal of another state, or of another user's.
func TestALessonsForgedStateIsRefused(t *testing.T) {
	st := memstore.New()
	w := newWorld(t, st, "en-US")
	const refused = "This button is out of date, or was not made by me: nothing was changed."
	list := w.command(w.alice, w.chess.ID, "learn")
	step := w.learnChoose(list, "1. Ice blocks every man but the knight")
	for _, id := range []string{"ln:hint:ice-blocks:0:0.f3e5:AAAAAAAAAAAA", "ln:hint:nope:0:0:AAAAAAAAAAAA", "ln:hint:ice-blocks:7:0:AAAAAAAAAAAA",
		"ln:go:ice-blocks:x", "ln:to:ice-blocks:0:0:AAAAAAAAAAAA", "ln:hint:ice-blocks:0:0", "ln:hint:ice-blocks:0:0:"} {
		got := w.answer(w.srv.ForgedClick(w.alice.ID, step.ID, id))
		if !got.Ephemeral() || len(got.Files) != 0 || !strings.Contains(got.Content, refused) {
			t.Errorf("%s was answered %q with %d files", id, got.Content, len(got.Files))
		}
	}

	// One wrong try: the state says so, under its seal.
	step = w.learnTry(step, "♖ Rook e1", "e5")
	to := w.learnChoose(step, "♘ Knight f3")
	honest := menu(t, to).CustomID
	parts := strings.Split(honest, ":")
	if len(parts) != 6 || parts[4] != "1" {
		t.Fatalf("the squares' menu after a wrong try is %q", honest)
	}
	// The wrong try forgotten, the seal kept: refused.
	parts[4] = "0"
	got := w.answer(w.srv.ForgedSelect(w.alice.ID, to.ID, strings.Join(parts, ":"), "f3e5"))
	if !got.Ephemeral() || len(got.Files) != 0 || !strings.Contains(got.Content, refused) {
		t.Fatalf("a forgotten wrong try was answered %q", got.Content)
	}
	// Another user's own seal of that state: refused too.
	bob := w.command(w.bob, w.chess.ID, "learn")
	bob = w.answer(w.srv.Select(w.bob.ID, bob.ID, menu(t, bob).CustomID, "ice-blocks"))
	clean := menu(t, w.answer(w.srv.Select(w.bob.ID, bob.ID, menu(t, bob).CustomID, "f3"))).CustomID
	got = w.answer(w.srv.ForgedSelect(w.alice.ID, to.ID, clean, "f3e5"))
	if !strings.Contains(got.Content, refused) {
		t.Fatalf("Bob's seal in Alice's click was answered %q", got.Content)
	}
	var p play.LessonProgress
	if err := st.View(context.Background(), func(tx play.ReadTx) (err error) { p, err = tx.LessonProgress(w.alice.ID); return err }); err != nil {
		t.Fatal(err)
	}
	if p.Total("ice-blocks") != 0 {
		t.Fatalf("forged clicks earned %d stars", p.Total("ice-blocks"))
	}
	// The honest menu still counts the wrong try.
	solved := w.answer(w.srv.Select(w.alice.ID, to.ID, honest, "f3e5"))
	if !strings.Contains(solved.Content, "Ne5: solved! Stars: ★★☆") {
		t.Fatalf("the honest click is answered %q", solved.Content)
	}
}

// The lessons speak the player's language, and a lesson picked again
// opens at its first step not solved yet.
func TestALessonInFrenchResumesAtItsFirstUnsolvedStep(t *testing.T) {
	w := newWorld(t, memstore.New(), "en-US")
	zoe := w.srv.AddUser(fakediscord.User{Username: "zoe", GlobalName: "Zoé", Locale: "fr"})
	w.alice = zoe // learnChoose and learnTry click as Alice
	list := w.command(zoe, w.chess.ID, "learn")
	if list.Embeds[0].Title != "Apprendre les Échecs de l'Âge de Glace" {
		t.Fatalf("/learn in French: %q", list.Embeds[0].Title)
	}
	step := w.learnChoose(list, "3. Les pions et la glace")
	step = w.learnTry(step, "♙ Pion e4", "e5")
	if !strings.Contains(step.Content, "Le pion en e4 ne peut pas avancer sur la glace en e5") {
		t.Fatalf("a push onto ice is told %q", step.Content)
	}
	solved := w.learnTry(step, "♙ Pion e4", "d5")
	if !strings.Contains(solved.Content, "exd5\u00a0: réussi\u00a0! Étoiles\u00a0: ★★☆") {
		t.Fatalf("exd5 is answered %q", solved.Content)
	}
	list = w.answer(w.srv.Click(zoe.ID, solved.ID, learnButton(t, solved, "ln:list").CustomID))
	step = w.learnChoose(list, "3. Les pions et la glace")
	if step.Embeds[0].Footer.Text != "Étape 2 sur 2" {
		t.Fatalf("the lesson picked again opens at %q", step.Embeds[0].Footer.Text)
	}
}
