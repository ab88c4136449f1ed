// Package game is the rules engine of Ice Age Chess (docs/rules.md): positions
// with ice, legal moves, playing them with the Ice Age, and the outcome.
//
// # Basics
//
// A Position is a small value (copy it freely) read from FEN with '*' for
// ice (ParseFEN) or taken from StartPosition. LegalMoves appends the legal
// moves to a caller's slice; Apply plays one and returns the new position,
// including the Ice Age when the move is Black's 20th, 40th, …;
// ApplyWithEvent also says what the Ice Age froze and filled. Outcome
// judges a position after a move: frozen kings, checkmate, stalemate, the
// fifty-move rule, in that order. Perft counts move paths, for checking
// the generator against other programs.
//
// Players' text goes through ParseMove, which reads SAN, UCI and the
// forms people really type; what is not a move is a *SyntaxError, what is
// not legal here a *MoveError whose Kind a front end can branch on and
// whose message says why in a player's terms; its Detail and data (the
// man, squares, blocker, attackers) let a front end say it in another
// language. SAN writes a move, SANs
// lists every legal move with its SAN (autocomplete) and Suggest proposes
// legal moves close to a failed one. A Match is the record of one game:
// moves, SANs, Ice Age events and outcome (End records one decided off the
// board, such as a resignation); it exports and imports PGN (docs/notation.md).
// Who may resign, offer a draw or lose on time is decided by package play.
//
// # Caveats
//
// The engine is pure: no I/O, no clock, no randomness, and nothing beyond
// the standard library. Apply trusts its move: check it with IsLegal (or
// take it from LegalMoves) first. Castling rights last while king and rook
// stand on their home squares; the en-passant square is set after every
// double push, as in PGN, and cleared by an Ice Age. The Ice-Age move is
// legal when Black's king is safe (or frozen) after the Ice Age, so
// LegalMoves on that move plays each candidate; every other move is
// generated legal directly, with check and pin masks.
package game
