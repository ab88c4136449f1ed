package bot

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/bwmarrin/discordgo"

	"github.com/iceagechess/iceage/engine"
	"github.com/iceagechess/iceage/game"
	"github.com/iceagechess/iceage/i18n"
	"github.com/iceagechess/iceage/play"
)

// Discord's limits on what a message carries, in characters.
const (
	limitContent     = 2000
	limitDescription = 4096
	limitField       = 1024
	limitEmbeds      = 6000
)

// checkLimits fails the test for any text of m over Discord's limits,
// and for a text cut inside a mention, a timestamp or bold.
func checkLimits(t *testing.T, what string, m *message) {
	t.Helper()
	if n := utf8.RuneCountInString(m.Content); n > limitContent {
		t.Errorf("%s: content of %d characters, more than %d", what, n, limitContent)
	}
	unbalanced(t, what, m.Content)
	total := 0
	for _, e := range m.Embeds {
		n := utf8.RuneCountInString(e.Description)
		if n > limitDescription {
			t.Errorf("%s: an embed's description of %d characters, more than %d", what, n, limitDescription)
		}
		unbalanced(t, what, e.Description)
		total += n + utf8.RuneCountInString(e.Title)
		if e.Footer != nil {
			total += utf8.RuneCountInString(e.Footer.Text)
		}
		for _, f := range e.Fields {
			if n := utf8.RuneCountInString(f.Value); n > limitField {
				t.Errorf("%s: a field of %d characters, more than %d", what, n, limitField)
			}
			unbalanced(t, what, f.Value)
			total += utf8.RuneCountInString(f.Name + f.Value)
		}
	}
	if total > limitEmbeds {
		t.Errorf("%s: embeds of %d characters, more than %d", what, total, limitEmbeds)
	}
}

// unbalanced fails for a text whose bold, mentions or timestamps are cut.
func unbalanced(t *testing.T, what, s string) {
	t.Helper()
	if strings.Count(s, "**")%2 != 0 || strings.Count(s, "<")-strings.Count(s, ">") > 0 {
		t.Errorf("%s: a text cut inside its markup: …%s", what, s[max(0, len(s)-80):])
	}
}

// longName is a display name of Discord's longest, 32 characters, wide
// ones.
var longName = strings.Repeat("Ж", 16) + strings.Repeat("ü", 16)

// fullQueue fills a game's queue of conditional moves to play's limits,
// choosing at each ply the legal move of the longest SAN.
func fullQueue(t *testing.T, g *play.Game) [][]string {
	t.Helper()
	start, err := g.Position()
	if err != nil {
		t.Fatal(err)
	}
	first := start.LegalMoves(nil)
	var lines [][]string
	for i := 0; i < play.MaxPremoveLines && i < len(first); i++ {
		pos := start
		line := []string{first[i].UCI()}
		pos = pos.Apply(first[i])
		for len(line) < play.MaxPremovePlies {
			legal := pos.LegalMoves(nil)
			if len(legal) == 0 {
				break
			}
			best := legal[0]
			for _, m := range legal {
				if len(pos.SAN(m)) > len(pos.SAN(best)) {
					best = m
				}
			}
			line = append(line, best.UCI())
			pos = pos.Apply(best)
		}
		lines = append(lines, line[:len(line)&^1])
	}
	return lines
}

func TestTextsFitDiscordsLimits(t *testing.T) {
	b, svc, now := offlineBot(t, play.Options{})
	ctx := context.Background()
	white, black := play.Seat{ID: "100000000000000001", Name: longName}, play.Seat{ID: "100000000000000002", Name: longName}
	r, err := svc.Start(ctx, play.NewGame{Guild: "g", Channel: "queue", White: white, Black: black, DaysPerMove: 3, At: *now})
	if err != nil {
		t.Fatal(err)
	}
	g := r.Game
	if r, err = svc.Move(ctx, play.Act{By: white.ID, Game: g.ID, Revision: g.Revision, At: *now}, "hxg3"); err != nil {
		t.Fatal(err)
	}
	g = r.Game
	lines := fullQueue(t, &g)
	r, err = svc.Premove(ctx, play.Act{By: white.ID, Game: g.ID, Revision: g.Revision, At: *now}, lines)
	if err != nil {
		t.Fatalf("a full queue (%d lines): %v", len(lines), err)
	}
	queued := r.Game

	// The longest game: moves until the end or 600 plies, each the legal
	// move of the longest SAN.
	long, err := svc.Start(ctx, play.NewGame{Guild: "g", Channel: "long", White: white, Black: black, DaysPerMove: 3, At: *now})
	if err != nil {
		t.Fatal(err)
	}
	lg := long.Game
	for lg.Ply() < 600 && !lg.Over() {
		pos, _ := lg.Position()
		legal := pos.LegalMoves(nil)
		best := legal[len(lg.Moves)%len(legal)]
		for _, m := range legal {
			if len(pos.SAN(m)) > len(pos.SAN(best)) {
				best = m
			}
		}
		by := white.ID
		if pos.Turn() == game.Black {
			by = black.ID
		}
		rr, err := svc.Move(ctx, play.Act{By: by, Game: lg.ID, Revision: lg.Revision, At: *now}, best.UCI())
		if err != nil {
			t.Fatalf("ply %d: %v", lg.Ply(), err)
		}
		lg = rr.Game
	}

	// Its analysis, every third move a mistake.
	start, err := game.ParseFEN(lg.StartFEN)
	if err != nil {
		t.Fatal(err)
	}
	var moves []game.Move
	var analysis engine.Analysis
	for i, m := range lg.Moves {
		mv, err := game.ParseUCI(m.UCI)
		if err != nil {
			t.Fatal(err)
		}
		moves = append(moves, mv)
		analysis.Scores = append(analysis.Scores, 0)
		analysis.Best = append(analysis.Best, game.NullMove)
		if i%3 == 0 {
			analysis.Mistakes = append(analysis.Mistakes, engine.Mistake{Ply: i, Move: mv, Drop: 400})
		}
	}
	analysis.Scores = append(analysis.Scores, 0)

	// Many games, each against a long name.
	var many []play.Game
	for i := range 40 {
		rr, err := svc.Start(ctx, play.NewGame{Guild: "g", Channel: fmt.Sprint("c", i), White: white, Black: play.Seat{ID: fmt.Sprint(200000000000000000 + i), Name: longName},
			DaysPerMove: 14, At: *now})
		if err != nil {
			t.Fatal(err)
		}
		many = append(many, rr.Game)
	}

	for _, lang := range i18n.Languages() {
		t.Run(string(lang), func(t *testing.T) {
			checkLimits(t, "the queue of conditional moves", &message{Content: premoveText(lang, &queued, white.ID)})
			if !strings.Contains(premoveText(lang, &queued, white.ID), "**") {
				t.Error("the queue shows no reply")
			}
			checkLimits(t, "/games", gamesMessage(lang, white.ID, many, play.Prefs{}, b.cfg.Now))
			board, err := b.boards.boardMessage(ctx, lang, view{g: &lg, headline: tr(lang, "game.moved", map[string]any{"Player": mention(white.ID), "Move": "**Nxf6**"}), buttons: true, ping: true})
			if err != nil {
				t.Fatal(err)
			}
			checkLimits(t, fmt.Sprintf("the board of a game of %d plies", lg.Ply()), board)
			for _, e := range board.Embeds {
				if strings.Contains(e.Description, "<t:") && !strings.Contains(e.Description, ">") {
					t.Error("a timestamp is cut")
				}
			}
			checkLimits(t, "the analysis of the longest game", analysisMessage(&interaction{lang: lang}, &lg, start, moves, &analysis))
			_ = discordgo.MessageFlagsEphemeral
		})
	}
}
