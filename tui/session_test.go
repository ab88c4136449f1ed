package tui

import (
	"context"
	"image/png"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/iceagechess/iceage/game"
	"github.com/iceagechess/iceage/i18n"
	"github.com/iceagechess/iceage/play"
	"github.com/iceagechess/iceage/play/memstore"
)

var h4 = game.SquareAt(7, 3)

// iceAgeFEN has Black's 20th move due: the black rook on h4 stands alone.
const iceAgeFEN = "4k3/3pb3/8/8/7r/8/P4P2/K3R3 b - - 0 20"

// newSession starts a game on a fresh in-memory storage with a clock that
// ticks a second an act.
func newSession(t *testing.T, opt Options) *Session {
	t.Helper()
	clock := time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC)
	opt.Now = func() time.Time { clock = clock.Add(time.Second); return clock }
	s, err := NewSession(context.Background(), play.New(memstore.New(), play.Options{}), opt)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// do runs the lines and returns the notes of the last one.
func do(t *testing.T, s *Session, lines ...string) []Note {
	t.Helper()
	var r Reply
	for _, l := range lines {
		r = s.Do(l)
	}
	return r.Notes
}

func wantNotes(t *testing.T, got []Note, want ...Note) {
	t.Helper()
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("notes:\n%q\nwant:\n%q", got, want)
	}
}

func TestSessionPlaysMovesInAnyNotation(t *testing.T) {
	s := newSession(t, Options{White: "Alice"})
	wantNotes(t, do(t, s, "h2g3"), Note{Moved, "1. hxg3"})
	wantNotes(t, do(t, s, "nf6"), Note{Moved, "1… Nxf6"})
	wantNotes(t, do(t, s, "g3-h4"), Note{Moved, "2. gxh4"})
	if got, want := s.m.FEN(), "rnbqkb1r/pppppppp/*****n**/********/*******P/******1*/PPPPPPP1/RNBQKBNR b KQkq - 0 2"; got != want {
		t.Errorf("FEN %s, want %s", got, want)
	}
	var labels []string
	for _, p := range s.History() {
		labels = append(labels, p.Label())
	}
	if want := []string{"1. hxg3", "1… Nxf6", "2. gxh4"}; !reflect.DeepEqual(labels, want) {
		t.Errorf("history %q, want %q", labels, want)
	}
	if m, ok := s.LastMove(); !ok || m.UCI() != "g3h4" {
		t.Errorf("last move %v %v, want g3h4", m, ok)
	}
	if got := s.Status(); got != "Black to move" {
		t.Errorf("status %q", got)
	}
	if got := s.Countdown(); got != "Ice Age in 19 Black moves" {
		t.Errorf("countdown %q", got)
	}
	g := s.Game()
	if g.Ply() != 3 || g.White.Name != "Alice" || g.Black.Name != "Black" {
		t.Errorf("stored game: %d plies, %+v against %+v", g.Ply(), g.White, g.Black)
	}
}

func TestSessionExplainsIllegalMoves(t *testing.T) {
	s := newSession(t, Options{FEN: "4k3/8/8/8/8/*7/8/R3K3 w - - 0 1"})
	wantNotes(t, do(t, s, "Ra5"),
		Note{Refused, "1. Ra5: the rook on a1 cannot reach a5: ice on a3 blocks it."},
		Note{Suggested, "Legal moves like it: Rxa3, Ra2, Rb1, Rc1, Rd1"})
	got := do(t, s, "resing")
	if len(got) != 2 || got[0].Kind != Refused || !strings.HasPrefix(got[0].Text, "“resing” is not a move") ||
		got[1].Text != "Moves are typed like Nxf3, hxg3 or g1f3; help lists the commands." {
		t.Errorf("a typo of a command: %q", got)
	}
	if s.g.Ply() != 0 {
		t.Error("a refused move was played")
	}
}

func TestSessionIceAge(t *testing.T) {
	s := newSession(t, Options{FEN: iceAgeFEN})
	if got := s.Countdown(); got != "Ice Age after this move!" {
		t.Errorf("countdown %q", got)
	}
	if got := s.WouldFreeze(); got != game.Bit(h4) {
		t.Errorf("would freeze %v, want h4", got.Squares())
	}
	if got, want := s.FreezeText(), "Would freeze now: the black rook on h4."; got != want {
		t.Errorf("freeze text %q", got)
	}
	wantNotes(t, do(t, s, "Bd6"),
		Note{Moved, "20… Bd6"},
		Note{IceAgeCame, "Ice Age! 1 man froze: the black rook on h4."})
	p := s.Position()
	if !p.IsIce(h4) || p.PieceAt(h4) != game.NoPiece {
		t.Error("h4 is not ice after the Ice Age")
	}
	if h := s.History(); len(h) != 1 || h[0].IceAge == nil {
		t.Errorf("history %+v: the Ice Age is not recorded", h)
	}
	if got := s.Countdown(); got != "Ice Age in 20 Black moves" {
		t.Errorf("countdown after %q", got)
	}
	if s.WouldFreeze() != 0 {
		t.Error("men marked to freeze on White's move")
	}
}

func TestSessionKingFreezes(t *testing.T) {
	s := newSession(t, Options{FEN: "4k3/4p3/8/8/8/8/8/K7 b - - 0 20", Black: "Bob"})
	wantNotes(t, do(t, s, "Kd8"),
		Note{Moved, "20… Kd8"},
		Note{IceAgeCame, "Ice Age! 1 man froze: the white king on a1.\nA king froze: the game is over."},
		Note{Ended, "Black wins: White's king froze in the Ice Age, 0-1."})
	if !s.Over() || s.Outcome().Reason != game.KingFrozen {
		t.Fatalf("outcome %+v", s.Outcome())
	}
	if got := s.Prompt(); got != "" {
		t.Errorf("prompt after the end %q", got)
	}
	wantNotes(t, do(t, s, "a2"), Note{Refused, "The game is over: Black wins: White's king froze in the Ice Age, 0-1. Type new for another game, or quit."})
	wantNotes(t, do(t, s, "new"), Note{Info, "A new game: White against Bob (Black)."})
	if s.Over() || s.g.Ply() != 0 || s.m.FEN() != "4k3/4p3/8/8/8/8/8/K7 b - - 0 20" {
		t.Errorf("the new game: over %v, FEN %s", s.Over(), s.m.FEN())
	}
}

func TestSessionDrawOffer(t *testing.T) {
	s := newSession(t, Options{White: "Alice", Black: "Bob"})
	wantNotes(t, do(t, s, "no"), Note{Refused, "There is nothing to answer: no draw or takeback is offered."})
	wantNotes(t, do(t, s, "draw"), Note{Asked, "Alice (White) offers a draw. Bob (Black), do you accept?"})
	if got := s.Prompt(); got != "Bob (Black): accept the draw? Type draw to accept, no to decline." {
		t.Errorf("prompt %q", got)
	}
	wantNotes(t, do(t, s, "hxg3"), Note{Refused, "Bob (Black), answer the draw offer first: type draw to accept or no to decline."})
	wantNotes(t, do(t, s, "no"), Note{Info, "Bob (Black) declined the draw. Play on!"})
	wantNotes(t, do(t, s, "draw"), Note{Refused, "You already offered a draw in this position. Play on, and offer again later."})
	do(t, s, "hxg3")
	wantNotes(t, do(t, s, "draw"), Note{Asked, "Bob (Black) offers a draw. Alice (White), do you accept?"})
	if png := do(t, s, "fen"); len(png) != 1 || png[0].Kind != Info {
		t.Errorf("a command that changes nothing is refused while an offer waits: %q", png)
	}
	wantNotes(t, do(t, s, "yes"), Note{Ended, "Draw by agreement, 1/2-1/2."})
	if o := s.Outcome(); o.Result != game.Draw || o.Reason != game.DrawAgreed {
		t.Errorf("outcome %+v", o)
	}
}

func TestSessionTakeback(t *testing.T) {
	s := newSession(t, Options{})
	wantNotes(t, do(t, s, "takeback"), Note{Refused, "There is no move to take back."})
	do(t, s, "hxg3", "Nxf6")
	wantNotes(t, do(t, s, "takeback"), Note{Asked, "Black asks to take back their last move. White, do you allow it?"})
	if got := s.Prompt(); got != "White: allow the takeback? Type takeback to allow, no to refuse." {
		t.Errorf("prompt %q", got)
	}
	wantNotes(t, do(t, s, "gxf6"), Note{Refused, "White, answer the takeback request first: type takeback to allow or no to refuse."})
	wantNotes(t, do(t, s, "no"), Note{Info, "White refused the takeback."})
	do(t, s, "undo")
	wantNotes(t, do(t, s, "takeback"), Note{Info, "One move was taken back."})
	if got := s.turn(); got != game.Black || s.g.Ply() != 1 {
		t.Errorf("after the takeback: %v to move, %d plies", got, s.g.Ply())
	}
}

func TestSessionResign(t *testing.T) {
	s := newSession(t, Options{White: "Alice", Black: "Bob"})
	do(t, s, "hxg3")
	wantNotes(t, do(t, s, "new"), Note{Refused, "This game goes on: resign or agree a draw before starting a new one."})
	wantNotes(t, do(t, s, "resign"), Note{Ended, "White wins: Black resigned, 1-0."})
	if got := s.Game(); got.Outcome.Reason != game.Resignation || got.Ended.IsZero() {
		t.Errorf("stored game %+v", got.Outcome)
	}
}

func TestSessionCommands(t *testing.T) {
	s := newSession(t, Options{})
	r := s.Do("flip")
	if !r.Changed || !s.Flipped() || r.Notes[0].Text != "The board is turned: Black at the bottom." {
		t.Errorf("flip: %+v, flipped %v", r, s.Flipped())
	}
	if r := s.Do("  QUIT "); !r.Quit {
		t.Error("quit does not quit")
	}
	if r := s.Do(""); len(r.Notes) != 0 || r.Changed {
		t.Errorf("an empty line did something: %+v", r)
	}
	if got := do(t, s, "help"); len(got) != len(Help(i18n.English)) {
		t.Errorf("help: %q", got)
	}
	wantNotes(t, do(t, s, "moves"), Note{Info, "18 legal moves: Nxa3 Nxc3 Nxf3 Nxh3 axb3 bxa3 bxc3 cxb3 cxd3 dxc3 dxe3 exd3 exf3 fxe3 fxg3 gxf3 gxh3 hxg3"})
	wantNotes(t, do(t, s, "fen"), Note{Info, "FEN: " + game.StartFEN})
	wantNotes(t, do(t, s, "png"), Note{Refused, "Say where to write the picture, e.g. png board.png"})

	path := filepath.Join(t.TempDir(), "board.png")
	do(t, s, "hxg3")
	wantNotes(t, do(t, s, "png "+path), Note{Info, "The board is written to " + path + "."})
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if cfg, err := png.DecodeConfig(f); err != nil || cfg.Width != 512 {
		t.Errorf("the picture: %+v, %v", cfg, err)
	}
	got := do(t, s, "png "+filepath.Join(t.TempDir(), "no", "such", "dir.png"))
	if len(got) != 1 || got[0].Kind != Refused || !strings.HasPrefix(got[0].Text, "The picture was not written: ") {
		t.Errorf("png into a missing folder: %q", got)
	}
}

func TestNewSessionRefusesBadStarts(t *testing.T) {
	svc := play.New(memstore.New(), play.Options{})
	ctx := context.Background()
	if _, err := NewSession(ctx, svc, Options{FEN: "8/8 w"}); err == nil || !strings.HasPrefix(err.Error(), "invalid FEN") {
		t.Errorf("a bad FEN: %v", err)
	}
	mate := "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3"
	if _, err := NewSession(ctx, svc, Options{FEN: mate}); err == nil || err.Error() != "the position is already decided (checkmate): start from one where the game goes on" {
		t.Errorf("a decided position: %v", err)
	}
	if _, err := NewSession(ctx, svc, Options{}); err != nil {
		t.Fatal(err)
	}
	if _, err := NewSession(ctx, svc, Options{}); err == nil || !strings.Contains(err.Error(), "already going on") {
		t.Errorf("a second game on the same storage: %v", err)
	}
}

func TestComplete(t *testing.T) {
	s := newSession(t, Options{})
	tests := []struct {
		typed string
		want  []string
	}{
		{"N", []string{"Nxa3", "Nxc3", "Nxf3", "Nxh3"}},
		{"nf", []string{"Nxf3"}},
		{"Nf3", []string{"Nxf3"}},
		{"hx", []string{"hxg3"}},
		{"b", []string{"bxa3", "bxc3", "Nxa3", "Nxc3"}}, // pawns, then the men on b1 by UCI
		{"g1", []string{"Nxf3", "Nxh3"}},
		{"gh", []string{"gxh3"}},
		{"re", []string{"resign"}},
		{"p", []string{"png "}},
		{"Q", nil},
		{"Re", nil},
		{"quit", nil},
	}
	for _, tt := range tests {
		if got := s.Complete(tt.typed); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("Complete(%q) = %q, want %q", tt.typed, got, tt.want)
		}
	}
	if got := s.Complete(""); len(got) != 18 {
		t.Errorf("Complete(\"\") gives %d moves, want the 18 legal ones", len(got))
	}
	// In SAN as typed first, then forgiving forms.
	c := newSession(t, Options{FEN: "r3k2r/1P6/8/8/8/8/8/R3K2R w KQkq - 0 1"})
	if got, want := c.Complete("0-0"), []string{"O-O", "O-O-O"}; !reflect.DeepEqual(got, want) {
		t.Errorf("Complete(0-0) = %q, want %q", got, want)
	}
	if got, want := c.Complete("bxa8q"), []string{"bxa8=Q+"}; !reflect.DeepEqual(got, want) {
		t.Errorf("Complete(bxa8q) = %q, want %q", got, want)
	}
}

// TestSessionSpeaksItsLanguage: the terminal's words of a game come from
// i18n, as the bot's do.
func TestSessionSpeaksItsLanguage(t *testing.T) {
	s, err := NewSession(context.Background(), play.New(memstore.New(), play.Options{}), Options{Lang: i18n.French})
	if err != nil {
		t.Fatal(err)
	}
	if got := s.Name(game.White); got != "Blancs" {
		t.Errorf("White is %q", got)
	}
	if got := s.Countdown(); got != "Âge de Glace dans 20 coups des Noirs" {
		t.Errorf("countdown %q", got)
	}
	got := do(t, s, "Ra5")
	if len(got) == 0 || !strings.Contains(got[0].Text, "la tour en a1 ne peut pas") {
		t.Errorf("an illegal move: %q", got)
	}
	do(t, s, "resign")
	if got := s.EndText(); got != "Les Noirs gagnent\u00a0: les Blancs abandonnent, 0-1." {
		t.Errorf("end %q", got)
	}
}

// A side without a name is called by its colour, a plural noun in
// Russian: the sentences agree with it; a named player's stay singular.
func TestASideCalledByItsColourAgreesInRussian(t *testing.T) {
	s := newSession(t, Options{Lang: i18n.Russian})
	if got := s.Status(); got != "Ход белых" {
		t.Errorf("the status reads %q", got)
	}
	if notes := do(t, s, "hxg3", "draw"); len(notes) == 0 || !strings.HasPrefix(notes[len(notes)-1].Text, "Чёрные предлагают ничью. Белые, вы согласны?") {
		t.Errorf("a draw offered reads %q", notes)
	}
	if notes := do(t, s, "no"); len(notes) == 0 || !strings.HasPrefix(notes[0].Text, "Белые отклоняют ничью.") {
		t.Errorf("a draw declined reads %q", notes)
	}
	named := newSession(t, Options{Lang: i18n.Russian, White: "Алиса"})
	if notes := do(t, named, "draw"); len(notes) == 0 || !strings.HasPrefix(notes[len(notes)-1].Text, "Алиса (Белые) предлагает ничью.") {
		t.Errorf("a named player's offer reads %q", notes)
	}
}
