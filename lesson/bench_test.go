package lesson_test

import (
	"bytes"
	"testing"

	"github.com/iceagechess/iceage/exercise"
	"github.com/iceagechess/iceage/game"
	"github.com/iceagechess/iceage/i18n"
	"github.com/iceagechess/iceage/lesson"
	"github.com/iceagechess/iceage/render"
)

// The work of one click of /learn: a try answered by the engine, the
// attempt restored from its state (which checks the engine's reply
// again), and the step's picture.

func BenchmarkTryAnsweredByTheEngine(b *testing.B) {
	l, _ := lesson.ByID("take-ice")
	m, _ := game.ParseUCI("a1a4")
	for b.Loop() {
		a, _ := exercise.New(&l.Steps[0].Exercise)
		if r := a.Try(m); r.Verdict != exercise.Going {
			b.Fatal(r)
		}
	}
}

func BenchmarkRestoreAfterAReply(b *testing.B) {
	l, _ := lesson.ByID("take-ice")
	a, _ := exercise.New(&l.Steps[0].Exercise)
	m, _ := game.ParseUCI("a1a4")
	a.Try(m)
	state := a.State()
	for b.Loop() {
		if _, err := exercise.Restore(&l.Steps[0].Exercise, state); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkStepPicture(b *testing.B) {
	l, _ := lesson.ByID("ice-blocks")
	st := &l.Steps[0]
	pos, _ := game.ParseFEN(st.Exercise.FEN)
	from, _ := game.ParseSquare("e1")
	opt := render.Options{Size: 400, Words: i18n.BoardWords{Lang: i18n.English}, FastPNG: true}
	var buf bytes.Buffer
	for b.Loop() {
		buf.Reset()
		if err := st.Picture(&buf, &pos, from, nil, opt); err != nil {
			b.Fatal(err)
		}
	}
}
