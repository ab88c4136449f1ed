// Package web is the bot's public web listener (web.listen): every game
// has a live page, and every server a leaderboard page.
//
// # Basics
//
// A game's page, /g/ID/TOKEN, shows the board with its ice (our own SVG
// board, static/board.js; the men are the cburnett set of the bot's
// pictures), the last move, a king in check and the men that would
// freeze as the Ice Age nears; the players and their ratings; the
// deadline; the moves in SAN, as text; the Ice Age countdown and the
// result. It follows the game without a reload: /g/ID/TOKEN/events is a
// stream of server-sent events fed by the process's one stream.Hub, one
// event per revision, whose id is the revision, so that the browser's
// EventSource resumes after a drop with Last-Event-ID; /g/ID/TOKEN/view
// is the same view for a page that can only poll. The page goes back
// through the moves with their Ice Ages without asking the server: each
// view holds every position of the game. It speaks the viewer's
// language: their /settings language once signed in, else their
// browser's.
//
// A server's leaderboard, /lb/GUILD/TOKEN, is the one /leaderboard shows
// in Discord, where the bot links to it.
//
// A tournament's page, /t/ID/TOKEN, shows its standings (the words of
// tournament/standings) and every round's pairings with their results.
// It follows the tournament without a reload: /t/ID/TOKEN/events sends
// the page anew each time a commit writes the tournament (a result, a
// round paired, a withdrawal, the end), told by the storage's feed —
// every process's on PostgreSQL — through the hub; a followed
// tournament is read once a commit for all its pages, and its page made
// once a language. An event's id is a hash of the tournament as stored:
// a page that reconnects with it is sent nothing until it changes.
// /t/ID/TOKEN/view is the same for a page that can only poll; both
// pages follow by static/live.js.
//
// Other pages (the Discord Activity) join the listener with
// Server.Handle, under the same headers and limits.
//
// # Who sees what
//
// A token is an HMAC of the game's (or server's) id under the listener's
// secret (Keys): it cannot be guessed, it is checked in constant time
// before anything is read, and every process that shares the secret
// makes the same links. The bot posts a game's link only under its
// boards, where those who see the game in Discord see it. A game played
// in direct messages is also refused to anyone but its players, who
// sign in with Discord (OAuth2's authorization-code flow, auth.go); the
// rule is the visibility package's.
//
// # Caveats
//
// A link cannot be withdrawn alone: a new secret withdraws every link
// posted. Each watcher holds a connection; the listener's connection cap
// (web.connections) bounds them.
package web
