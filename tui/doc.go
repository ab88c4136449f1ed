// Package tui plays Ice Age Chess in a terminal between two players at one
// keyboard, through the same play.Service as the Discord bot.
//
// # Basics
//
// A Session is one such game and everything the players may type into
// it: a move in any notation game.ParseMove reads, or a command (resign,
// draw, takeback, flip, png FILE, moves, new, help, quit). Do carries out
// one typed line and returns Notes, the sentences to show: the move's SAN,
// an Ice Age and the men it froze, the explanation of an illegal move with
// suggestions, the end of the game. The Session's accessors give what a
// screen draws: the position, the last move, the move list, the Ice Age
// countdown, who is asked to act (Prompt).
//
// Two front ends drive the same Session. Model is a bubbletea model (Run
// starts it on a terminal): a board of Unicode men on coloured squares
// with the ice drawn in, the move list, an input line with Tab completion
// of the legal moves' SAN. RunPlain is a line mode for scripts and pipes:
// it reads one move or command per line and prints the board as text
// after every move.
//
// # Caveats
//
// Both players act through the same keyboard, so the Session acts for
// whoever is asked: a move, resign and draw for the side to move,
// takeback for the side that moved last, and an answer to an offer for
// the offer's opponent. While an offer waits, only its answer (and the
// commands that change nothing, such as png) is accepted.
package tui
