// Package bot plays Ice Age Chess in Discord: slash commands, buttons and
// autocomplete over package play, boards drawn by package render, texts in
// six languages from package i18n. It adapts github.com/bwmarrin/discordgo
// and holds no game state of its own: a restart resumes every game from the
// storage, and buttons on old messages keep working while they are current.
//
// # Basics
//
// New connects nothing; Run opens the gateway session (intents: guilds
// only, no privileged intent), registers the commands with one bulk
// overwrite when READY arrives (in the configured guilds, or globally),
// and answers interactions until its context ends, then waits for the
// interactions in flight and closes the session.
//
// Every interaction goes through one dispatcher: it recovers a panicking
// handler, answers the user politely, and logs one line per interaction
// with its id, command, latency and outcome. Handlers are parse → call
// play → reply. Refusals from play become ephemeral answers in the user's
// language; anything unexpected is logged with the interaction id and
// answered with a short apology, never with internal error text.
//
// Each command is declared once, as data beside its handler, in an init
// of the file that answers it (addCommand, commands.go): its declaration
// for Discord, its handler, its autocomplete and its place in /help. One
// table routes commands by name; a new command is one file.
//
// # Who owns what
//
// A new command stays one file; its state is a small type of its own.
// The few dependencies every feature shares — the configuration, the
// play service and its round, the Discord session, the logger, the
// metrics — are one struct, shared, which the bot and every feature's
// handlers hold by pointer. A feature's state that lives beyond an
// interaction is a type declared in that feature's file (the outbox's
// delivery, the threads' parents, the visibility rule's cache, the
// cooldowns, …), with the lock and the caches it needs; only its methods
// touch its fields, so what a feature keeps is read and changed in one
// file.
//
// A handler reaches only what it owns. Commands, autocompletes and
// clicks are answered by methods of their feature's handlers: a small
// type in the feature's file (puzzleDesk, tables, records, …) that holds
// shared and the few features it uses, given to it explicitly in New,
// never the *Bot. What several features' handlers use — the boards, the
// games' threads, the outcomes that show an act — are such types too,
// which keep nothing of their own and may answer from several files. The
// command table and the click router bind each command and click to its
// handlers' method through the field of the bot that holds them (runBy,
// completeBy, clickBy, gameAct), and an interaction reaches of the bot
// only the way its answers go (answers, send.go). *Bot keeps the
// lifecycle, the dispatcher, the outbox's loop, the gateway's events and
// the wiring: a new command is its own file, and two lines in bot.go, its
// handlers' field and their wiring in New.
//
// TestBotIsSplitByOwnership (ownership_test.go) fails on a field of *Bot
// that is no feature's type, on a field of shared that is no shared
// dependency, on any type that holds the *Bot, on code that reaches into
// a feature's state from outside its methods, on locks, sync.Maps and
// atomics at package level, which every *Bot would share, and on a
// command, autocomplete or click bound to a method of *Bot;
// TestEveryFeatureIsWired, on handlers wired before what they hold.
//
// Custom ids of buttons and menus have one grammar (customid.go): each is
// a pattern such as "g:resign:{game}:{rev}" that both builds the id and
// routes the click. They carry what a click needs — the game's id and the
// revision the message showed — so play refuses a click from an older
// message, or from a finished game, and never applies it to another game.
// A posted pattern never changes, so buttons on old boards keep working.
//
// The commands of results (records.go) read play's queries: /leaderboard
// pages with buttons that update its message ("lb:scope:page"); /stats
// attaches the rating chart; /pgn and /gif attach a game, found by number,
// as the last against an opponent, or as the channel's game (a thread
// keeps its game after the end), and treat games of other servers as
// unknown to those who did not play them; /history answers privately with
// menus of its games ("rec:pgn", "rec:gif") and a button for older ones.
// PGN's Site is the server's name, from the gateway's guild events.
//
// Tournaments (tournament.go) are package tournament's, run on play: a
// sign-up post whose Join and Withdraw buttons ("tn:join:{t}") update
// it, /tournament start for its organisers (the creator, Manage Server,
// or the role it names), each round's pairings posted with links to the
// games' threads, and the standings as an embed with the table drawn by
// render. A game's end records its result in the game's transaction
// (tournament.OnEnd, a play hook) and leaves a task in the outbox that
// the delivery loop runs: pair the next round, start its games, post
// it — or the podium after the last. Starts at a time and rounds that
// close on a date are tasks due then.
//
// Correspondence runs through schedule: the bot is its Notifier (turn
// notifications by mention or direct message, reminders, timeouts,
// expired challenges). A challenge to the bot itself starts a game
// against the engine at once; the engine plays through package round,
// its moves computed by a small pool of workers (engine.go, pool.go), off
// the interactions' goroutines, and a player whose move waits is told
// how many games are ahead. /analyze marks a finished game's mistakes
// with the engine's scores, in the same pool behind a bounded queue, on
// the games /pgn would show, and says when its time ran out before the
// end. Results — /leaderboard, /stats, /variantstats, /pgn, /gif,
// /history — read play's ratings and statistics.
//
// Acts on a game are parse → round → answer (game.go, playRound): the
// round plays the act and what follows from it and writes, in the act's
// transaction, what is left to do to play's outbox; the interaction is
// answered with the first board at once, and the outbox delivers the
// rest (deliver.go): a delivery loop claims due items, posts the boards
// an answer could not show (Discord refused it: a 429 past the window, an
// outage, a restart in between) in the game's channel, mentioning whoever
// must be told, sends the direct messages, and hands the engine's turns
// to the pool — a game waiting for the engine is an outbox item, so any
// process picks it up after any crash, with no search of the games at
// start. Every post the outbox makes carries the item's key as Discord's
// message nonce with enforce_nonce, so a retry after a lost response
// never posts twice; items are marked done in batches, and retried with
// backoff.
//
// Users may install the bot to their own account (installs.go). Each
// command's reach in the table says where it works: the commands that
// play are registered for user installs and for DMs and group DMs, the
// server's own for servers. In a DM or group DM between users the bot is
// no member: a game there is play.Game.Private, its challenge and boards
// are answers and follow-ups of the players' interactions (publish), and
// turns, reminders and timeouts go by direct message (round.Decide). In
// a server that did not add the bot, every command answers how to add it.
//
// Abuse (limits.go, replay.go): each user has caps on waiting
// challenges, engine games and public posts a minute, and a wait before
// challenging again someone who declined, which play checks in the
// act's transaction (play.Caps); cooldowns on /analyze and /gif; each
// answered with when to try again; over
// HTTP, a request signed minutes off the clock, or an interaction id
// already seen, is refused before anything runs.
//
// Moves can be played by clicking alone (clickmove.go): a board's Move
// button, a menu of men, a menu of that man's moves. A finished game's
// board has Rematch (rematch.go). A server's admins choose its language,
// default time control, threads and games channel with /server-settings
// (serversettings.go), read from play on every interaction that needs
// them, so that a change takes effect at once.
//
// # Caveats
//
// Games live for weeks in their threads (threads.go): a challenge inside
// a thread starts its game in a new thread of the parent channel (Discord
// starts no thread in a thread), and where no thread can be had the game
// is played in the channel, with a note. The bot unarchives the thread of
// a game that goes on when Discord archives it, adds both players to it,
// and moves the game to a new thread when a moderator locks or deletes
// its own (play.Service.Rehome), posting the board there. /challenge reads
// app_permissions first and refuses privately, naming what is missing.
//
// The bot's own requests go through discordgo's rate limiter under a
// bucket per route (send.go), not per URL: discordgo never forgets a
// bucket, and an interaction's URL carries its token. Errors never show a
// token in the logs.
//
// Discord wants an answer within three seconds. Moves, boards and
// refusals answer at once (a board renders in milliseconds); accepting a
// challenge, which opens a thread, and drawing a replay with /gif defer
// first and edit afterwards.
// discordgo's REST client has no way to give an uploaded file a
// description, so messages with images are sent as multipart requests
// built here (send.go), through discordgo's own request path and rate
// limiter.
package bot
