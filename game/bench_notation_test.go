package game

import (
	"strings"
	"testing"
)

// benchMiddlegame is a position from the reference games after 15 moves,
// with 29 legal moves and ice on the board; White to move plays axb3.
const benchMiddlegame = "1nb2bn1/r1p1k2N/pppp*p2/***q1*1P/*P***2K/N*1**3/P1PP2PP/R1BQ1B1R w - - 0 16"

// The bot's whole per-move path: read what the user typed, check it, play
// it, and produce its SAN, the new FEN and the status.
func BenchmarkBotMovePath(b *testing.B) {
	for _, text := range []string{"axb3", "a2b3", "Nxf6"} {
		b.Run(text, func(b *testing.B) {
			start := positionOf(b, benchMiddlegame)
			m := NewMatch(start)
			b.ReportAllocs()
			for b.Loop() {
				m.pos, m.outcome = start, Outcome{}
				m.moves, m.sans, m.iceAges = m.moves[:0], m.sans[:0], m.iceAges[:0]
				pl, err := m.Play(text)
				if err != nil {
					b.Fatal(err)
				}
				if fen := m.FEN(); fen == "" || pl.SAN == "" || pl.Outcome.Over() {
					b.Fatal("no FEN, no SAN or a finished game")
				}
			}
		})
	}
}

// Explaining a move that is not legal, the bot's failure path.
func BenchmarkExplainIllegalMove(b *testing.B) {
	tests := []struct{ name, fen, text string }{
		{"blocked by a man", benchMiddlegame, "Qd3"},
		{"blocked by ice", "4k3/8/8/8/8/*7/8/R3K3 w - - 0 1", "Ra5"},
		{"pinned", "4k3/8/8/8/1b6/8/3N4/4K3 w - - 0 1", "Nf3"},
		{"ambiguous", "4k3/8/8/8/8/5N2/8/1N2K3 w - - 0 1", "Nd2"},
	}
	for _, tt := range tests {
		b.Run(tt.name, func(b *testing.B) {
			p := positionOf(b, tt.fen)
			b.ReportAllocs()
			for b.Loop() {
				if _, err := ParseMove(&p, tt.text); err == nil {
					b.Fatal("the move was accepted")
				}
			}
		})
	}
}

// Suggestions for a move that is not legal ("did you mean …").
func BenchmarkSuggest(b *testing.B) {
	p := positionOf(b, benchMiddlegame)
	b.ReportAllocs()
	for b.Loop() {
		if len(Suggest(&p, "Qd3", 5)) == 0 {
			b.Fatal("no suggestion")
		}
	}
}

// SAN of one move, and of every legal move (the bot's autocomplete).
func BenchmarkSAN(b *testing.B) {
	p := positionOf(b, benchMiddlegame)
	m, err := ParseMove(&p, "axb3")
	if err != nil {
		b.Fatal(err)
	}
	b.Run("one move", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			_ = p.SAN(m)
		}
	})
	b.Run("every legal move", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			_ = p.SANs()
		}
	})
}

// Reading a whole reference game of 160 plies in PGN.
func BenchmarkParsePGN(b *testing.B) {
	m, err := ReplayUCI(StartFEN, strings.Fields(readCases(b, "games.txt")[0][0]))
	if err != nil {
		b.Fatal(err)
	}
	text := m.PGN(Tags{})
	b.SetBytes(int64(len(text)))
	b.ReportAllocs()
	for b.Loop() {
		if _, _, err := ParsePGN(text); err != nil {
			b.Fatal(err)
		}
	}
}
