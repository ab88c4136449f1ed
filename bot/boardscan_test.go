package bot

import (
	"encoding/json"
	"fmt"
	"slices"
	"testing"

	"github.com/bwmarrin/discordgo"

	"github.com/iceagechess/iceage/i18n"
	"github.com/iceagechess/iceage/play"
)

// A scanned message tells a game's board as the whole message does: the
// same id, author, attachments and game buttons, for its game and for
// another.
func TestABoardScanTellsBoardsAsTheWholeMessage(t *testing.T) {
	g := play.Game{ID: 42, Revision: 7, White: play.Seat{ID: "1"}, Black: play.Seat{ID: "2"}}
	board := discordgo.Message{
		ID:          "900",
		Author:      &discordgo.User{ID: "77", Username: "iceage", Bot: true},
		Content:     "Nf3",
		Attachments: []*discordgo.MessageAttachment{{ID: "1", Filename: "board.png"}},
		Embeds:      []*discordgo.MessageEmbed{{Title: "a game", Image: &discordgo.MessageEmbedImage{URL: "attachment://board.png"}}},
		Components:  append(gameButtons(i18n.English, &g), rematchButtons(i18n.English, &g)...),
	}
	plain := discordgo.Message{ID: "901", Author: &discordgo.User{ID: "5"}, Content: "good move"}
	noRows := discordgo.Message{ID: "902", Author: &discordgo.User{ID: "77"}, Attachments: board.Attachments}
	for _, m := range []discordgo.Message{board, plain, noRows} {
		raw := messageJSON(t, m)
		var whole discordgo.Message
		var scan boardScan
		if err := json.Unmarshal(raw, &whole); err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(raw, &scan); err != nil {
			t.Fatal(err)
		}
		got := scan.message()
		if got.ID != whole.ID || got.Author.ID != whole.Author.ID || len(got.Attachments) != len(whole.Attachments) {
			t.Errorf("message %s: scanned %+v, whole %+v", m.ID, got, whole)
		}
		for _, id := range []uint64{g.ID, g.ID + 1} {
			if a, b := buttonTexts(got, id), buttonTexts(&whole, id); !slices.Equal(a, b) {
				t.Errorf("message %s, game %d: scanned buttons %q, whole %q", m.ID, id, a, b)
			}
		}
	}
	if len(buttonTexts(scanOf(t, board), g.ID)) == 0 {
		t.Error("the board's scan has no button of its game")
	}
}

func buttonTexts(m *discordgo.Message, id uint64) []string {
	var out []string
	for f := range buttonsOfGame(m, id) {
		out = append(out, fmt.Sprint(f.values))
	}
	return out
}

// messageJSON is m as Discord sends it: discordgo leaves a message's
// components out of its JSON.
func messageJSON(t testing.TB, m discordgo.Message) []byte {
	t.Helper()
	raw, err := json.Marshal(struct {
		discordgo.Message
		Components []discordgo.MessageComponent `json:"components"`
	}{m, m.Components})
	if err != nil {
		t.Fatal(err)
	}
	return raw
}

func scanOf(t *testing.T, m discordgo.Message) *discordgo.Message {
	var scan boardScan
	if err := json.Unmarshal(messageJSON(t, m), &scan); err != nil {
		t.Fatal(err)
	}
	return scan.message()
}

// BenchmarkBoardScan reads five boards as retireBoards does after every
// move: whole, as discordgo's ChannelMessages did, or scanned.
// Compare with: benchstat -col /decode.
func BenchmarkBoardScan(b *testing.B) {
	g := play.Game{ID: 42, Revision: 7, White: play.Seat{ID: "1"}, Black: play.Seat{ID: "2"}}
	board := discordgo.Message{
		ID:          "900",
		Author:      &discordgo.User{ID: "77", Username: "iceage", Bot: true},
		Content:     "Nf3\n<@1>, your move",
		Attachments: []*discordgo.MessageAttachment{{ID: "1", Filename: "board.png", URL: "https://example.invalid/board.png", Width: 512, Height: 512}},
		Embeds: []*discordgo.MessageEmbed{{Title: "Alice vs Bob", Description: "Black to move", Image: &discordgo.MessageEmbedImage{URL: "attachment://board.png"},
			Fields: []*discordgo.MessageEmbedField{{Name: "White", Value: "Alice (1500)", Inline: true}, {Name: "Black", Value: "Bob (1480)", Inline: true},
				{Name: "Moves", Value: "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6 5. O-O Be7"}}}},
		Components: gameButtons(i18n.English, &g),
	}
	list := append(append([]byte("["), messageJSON(b, board)...), ']')
	for range 4 {
		list = append(append(list[:len(list)-1], ','), append(messageJSON(b, board), ']')...)
	}
	b.Run("decode=discordgo", func(b *testing.B) {
		for b.Loop() {
			var msgs []*discordgo.Message
			if err := json.Unmarshal(list, &msgs); err != nil || len(msgs) != 5 {
				b.Fatal(err, len(msgs))
			}
		}
	})
	b.Run("decode=scan", func(b *testing.B) {
		for b.Loop() {
			var scans []boardScan
			if err := json.Unmarshal(list, &scans); err != nil || len(scans) != 5 {
				b.Fatal(err, len(scans))
			}
			for i := range scans {
				scans[i].message()
			}
		}
	})
}
