package lesson_test

import (
	"bytes"
	"fmt"
	"image/png"
	"os"
	"path/filepath"
	"testing"

	"github.com/iceagechess/iceage/exercise"
	"github.com/iceagechess/iceage/game"
	"github.com/iceagechess/iceage/i18n"
	"github.com/iceagechess/iceage/lesson"
	"github.com/iceagechess/iceage/render"
)

// Every step's picture draws, at a phone's width, from the solver's
// side; with ICEAGE_SHOTS set they are written there to be looked at:
// the start, the man of the first wrong try with its squares, and the
// try refused.
func TestEveryStepHasAPicture(t *testing.T) {
	dir := os.Getenv("ICEAGE_SHOTS")
	for _, l := range lesson.All() {
		for i, st := range l.Steps {
			a, _ := exercise.New(&st.Exercise)
			pos := a.Position()
			wrong, _ := game.ParseUCI(st.Wrong[0])
			r := a.Try(wrong)
			var refused *game.MoveError
			if me, ok := r.Err.(*game.MoveError); ok {
				refused = me
			}
			for k, pic := range []struct {
				from    game.Square
				refused *game.MoveError
			}{{game.NoSquare, nil}, {wrong.From(), nil}, {game.NoSquare, refused}} {
				var buf bytes.Buffer
				opt := render.Options{Size: 400, Words: i18n.BoardWords{Lang: i18n.English}}
				if err := st.Picture(&buf, &pos, pic.from, pic.refused, opt); err != nil {
					t.Fatalf("%s step %d: %v", l.ID, i+1, err)
				}
				img, err := png.Decode(bytes.NewReader(buf.Bytes()))
				if err != nil || img.Bounds().Dx() != 400 {
					t.Fatalf("%s step %d: a picture of %v, %v", l.ID, i+1, img.Bounds(), err)
				}
				if dir != "" {
					name := fmt.Sprintf("lesson-%02d-%s-%d-%d.png", lesson.Index(l.ID)+1, l.ID, i+1, k)
					if err := os.WriteFile(filepath.Join(dir, name), buf.Bytes(), 0o644); err != nil {
						t.Fatal(err)
					}
				}
			}
		}
	}
}
