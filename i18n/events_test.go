package i18n

import (
	"strings"
	"testing"

	"github.com/iceagechess/iceage/game"
	"github.com/iceagechess/iceage/play/round"
)

// A side called by its colour alone is a plural noun in some languages:
// the verb, and the case it takes, agree with it.
func TestASideCalledByItsColourAgrees(t *testing.T) {
	strict(t)
	named := func(lang Lang) EventMarks {
		return EventMarks{Player: func(id string) string { return map[string]string{"w": "Alice", "b": "Boris"}[id] }, Move: func(s string) string { return s }}
	}
	sides := func(lang Lang) EventMarks {
		color := map[string]game.Color{"w": game.White, "b": game.Black}
		return EventMarks{Player: func(id string) string { return ColorName(lang, color[id]) }, Move: func(s string) string { return s },
			Side: func(id string) (game.Color, bool) { return color[id], true }}
	}
	events := []struct {
		e   round.Event
		act round.Kind
	}{
		{round.Moved{By: "b", SAN: "Nf6"}, round.Move}, {round.Moved{By: "b", SAN: "Nf6", Reply: true}, round.Move},
		{round.Offered{Offer: round.Draw, By: "b", To: "w"}, round.OfferDraw}, {round.Offered{Offer: round.Takeback, By: "b", To: "w"}, round.Move},
		{round.Declined{Offer: round.Draw, By: "b"}, round.DeclineDraw}, {round.Declined{Offer: round.Takeback, By: "b"}, round.Move},
		{round.Lapsed{Offer: round.Draw, By: "b"}, round.Move}, {round.Lapsed{Offer: round.Takeback, By: "b"}, round.Move},
		{round.Ended{By: "b"}, round.Resign}, {round.Ended{By: "b"}, round.Abort}, {round.Ended{By: "b"}, round.ClaimWin}, {round.Ended{By: "b"}, round.ClaimDraw},
	}
	want := map[Lang][]string{
		Russian: {"Чёрные сыграли Nf6.", "Чёрные сразу ответили Nf6", "Чёрные предлагают ничью. Белые, вы согласны?", "Чёрные просят вернуть",
			"Чёрные отклоняют ничью.", "Чёрные не разрешают", "Предложение ничьей от чёрных снято", "Просьба чёрных вернуть ход",
			"Чёрные сдаются.", "Чёрные отменяют партию.", "Чёрные объявляют победу", "Чёрные предпочитают ничью"},
		French: {"Les Noirs ont joué Nf6.", "Les Noirs ont répondu aussitôt", "Les Noirs proposent la nulle.", "Les Noirs demandent à reprendre leur dernier coup.",
			"Les Noirs ont refusé la nulle.", "Les Noirs ont refusé de laisser", "La proposition de nulle des Noirs tombe", "La demande de reprise des Noirs tombe",
			"Les Noirs ont abandonné.", "Les Noirs ont annulé la partie.", "Les Noirs revendiquent", "Les Noirs préfèrent"},
		Spanish: {"Las negras jugaron Nf6.", "Las negras respondieron al instante", "Las negras ofrecen tablas.", "Las negras piden deshacer",
			"Las negras rechazaron las tablas.", "Las negras no permitieron", "La oferta de tablas de las negras decae", "La petición de las negras de deshacer",
			"Las negras abandonaron.", "Las negras anularon la partida.", "Las negras reclamaron", "Las negras prefirieron"},
		English: {"Black played Nf6.", "", "Black offers a draw.", "Black asks", "Black declined the draw.", "", "", "", "Black resigned.", "", "", ""},
	}
	for _, lang := range Languages() {
		for k, ev := range events {
			side := Event(lang, ev.e, ev.act, sides(lang))
			name := Event(lang, ev.e, ev.act, named(lang))
			for _, got := range []string{side, name} {
				if got == "" || strings.Contains(got, "<no value>") || strings.Contains(got, "{{") {
					t.Errorf("%s: event %d reads %q", lang, k, got)
				}
			}
			if w := want[lang]; w != nil && !strings.Contains(side, w[k]) {
				t.Errorf("%s: event %d reads %q, want %q", lang, k, side, w[k])
			}
			if !strings.Contains(name, "Boris") {
				t.Errorf("%s: event %d of a named player reads %q", lang, k, name)
			}
		}
	}
}

// A board's line of a pending offer agrees with a side too.
func TestABoardsOfferAgreesWithASide(t *testing.T) {
	strict(t)
	m := EventMarks{Player: func(string) string { return ColorName(Russian, game.Black) }, Side: func(string) (game.Color, bool) { return game.Black, true }}
	if got := T(Russian, "board.draw_offered", m.PlayerData(Russian, "b")); got != "Чёрные предлагают ничью" {
		t.Errorf("a side's draw offer reads %q", got)
	}
	if got := T(French, "board.takeback_requested", EventMarks{Player: func(string) string { return "Noirs" },
		Side: func(string) (game.Color, bool) { return game.Black, true }}.PlayerData(French, "b")); got != "Les Noirs demandent à reprendre un coup" {
		t.Errorf("a side's takeback request reads %q", got)
	}
	if got := T(Russian, "board.draw_offered", map[string]any{"Player": "<@1>"}); got != "<@1> предлагает ничью" {
		t.Errorf("a player's draw offer reads %q", got)
	}
}
