// Package activity serves the Discord Activity: a page that Discord's
// client opens in a channel (from a board's Play here button, or the app's
// Entry Point command) where the channel's game is shown live and its
// players move by dragging the men.
//
// # Basics
//
// The page (page.html, static/activity.js bundled from js/ with the
// Embedded App SDK) signs its user in: the SDK's authorize gives a code,
// POST /api/token trades it with Discord's OAuth2 token endpoint (client
// secret, authorization_code) for an access token, and the SDK's
// authenticate takes it. GET /api/game names the game the Activity shows
// (the one its Play here named, else the user's game in the instance's
// channel or in one of its threads, where a /challenge accepted in the
// channel is played, else the channel's) and a signed ticket with which the page
// follows it (api/watch/TICKET/view and /events: the live page's view and
// event stream, served as to the user signed in, since an event stream
// sends no Authorization header and the frame keeps no cookie). POST
// /api/move plays a move through the round as that user: play's
// refusals, in their language, the revision check, and the outbox that
// posts the board in the thread.
//
// # The lobby
//
// Where no game goes on in a server's channel, or once the game shown
// ends, GET /api/game also answers the lobby (lobby.go): the others in
// the instance, whom Discord's instance endpoint names by id, by the
// names the server shows for them; the challenges waiting in the
// channel that the asker made or may take; the usual time controls; the
// engine, when it can play; the games going on in the channel's
// threads, to watch (threads.go: Discord names the threads, and the
// visibility package decides, the asker seeing the channel); and the
// Rematch of the asker's game. The
// page asks again every two seconds while it shows it. POST
// /api/challenge makes a challenge through the round (round.Challenge),
// which writes, in its transaction, the item with which the bot posts it
// in the channel as /challenge's, buttons and all; it is played in the
// channel itself (play.Challenge.InChannel), whoever accepts it and
// wherever, so that the Activity shows it. Against the engine the game
// starts at once (round.Start), as /challenge's does. POST /api/answer
// accepts (round.AcceptAnswered), declines or withdraws
// (round.Decline) a challenge, and the bot edits its message as a click
// would. A challenge that ends without a game — declined or withdrawn
// here or with its buttons in the channel, or expired — is told to the
// other side in their lobby, in their language, for two minutes
// (endings.go; the bot tells the Activity through
// bot.ActivityConfig.ChallengeEnded). Refusals — a time control out of range, oneself, someone not in
// the instance, a game going on, and play's own — are sentences in the
// asker's language; times in them are read in the page's time zone.
//
// Before anything is done for a request, its bearer token names the user
// (/users/@me, remembered five minutes by the token's hash) and the
// Activity's instance, read with the bot's token, must hold them
// (remembered ten seconds). Nothing a stranger sends is asked of Discord
// before its shape is checked; bodies are read up to 1 KiB; requests to
// Discord in flight are bounded.
//
// # Discord's proxy
//
// Inside Discord the page is served through discordsays.com, whose root
// URL mapping points at the listener's Prefix (/activity): every path the
// page uses is relative, and the listener's own pages are served under
// Prefix too (Mount). CSP lets nothing but the page's own origin serve
// it, and any client frame it (see CSP).
//
// # Building the script
//
// static/activity.js is committed: run `npm ci && npm run build` in js/
// after changing js/src or the pinned packages (package-lock.json); CI
// checks that a rebuild gives the same files.
package activity
