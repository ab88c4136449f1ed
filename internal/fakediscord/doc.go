// Package fakediscord is a fake Discord for end-to-end tests of a bot built
// on github.com/bwmarrin/discordgo: the real library connects to it exactly
// as to Discord, REST and gateway, all on 127.0.0.1.
//
// # Basics
//
// New starts a fake for a test. Give it guilds, channels and users, connect
// the bot with the fake's token, then act as users do and check what the
// bot did:
//
//	srv := fakediscord.New(t)
//	g := srv.AddGuild(fakediscord.Guild{Name: "Club", Locale: "fr"})
//	ch := srv.AddChannel(fakediscord.Channel{GuildID: g.ID, Name: "chess"})
//	alice := srv.AddUser(fakediscord.User{Username: "alice", Locale: "ru"})
//
//	dg, _ := discordgo.New("Bot " + srv.Token())
//	dg.AddHandler(onInteraction)
//	if err := dg.Open(); err != nil { ... } // READY, then a GUILD_CREATE per guild
//	t.Cleanup(func() { dg.Close() })        // after New, so it runs first
//
//	id := srv.Command(alice.ID, ch.ID, "move", fakediscord.StringOption("move", "e4"))
//	resp, err := srv.WaitResponse(ctx, id)  // the interaction's callback
//	// resp.ResponseType, resp.Message.Content, resp.Message.Files[0].Data ...
//
// The fake serves what a bot needs: the gateway (HELLO, IDENTIFY, READY,
// GUILD_CREATE, heartbeats, RESUME with replay, INTERACTION_CREATE,
// THREAD_CREATE, THREAD_UPDATE, THREAD_DELETE, THREAD_MEMBERS_UPDATE,
// CHANNEL_UPDATE, CHANNEL_DELETE; a guild's GUILD_CREATE and
// interactions go to its shard alone, direct messages' to shard 0, as
// Discord routes them), interaction callbacks, edits and
// deletes of @original, follow-ups and their edits, channel messages and
// their edits, threads from a message or on their own, changes to threads
// (PATCH: name, archive time, archived), thread members, DM channels,
// application command bulk overwrites, and reads of users, members,
// guilds, channels and messages, one by one or a channel's newest first
// (limit, before; none without Read Message History).
// Files sent as multipart payload_json plus files[n] become attachments
// with their bytes; an attachments entry of the payload ({"id": n,
// "description": ...}) gives file n its description, the alt text.
//
// HTTPCommand makes an interaction as Discord posts it to an
// Interactions Endpoint URL, for a bot that serves one: the test posts its
// JSON to the bot and hands the bot's HTTP response to AnswerOverHTTP,
// which takes it as the callback.
//
// Everything the bot does is recorded as a Call (Calls, WaitFor,
// WaitResponse); Message, Messages and Channel show the state now. Command,
// Autocomplete, UserCommand, Click and Select dispatch interactions as
// Discord builds them: fresh snowflake and token, member with its user,
// locale and guild_locale, resolved users and members, the message a
// component is on. Disconnect drops the bot's gateway connections so that
// discordgo reconnects; a close by the bot is recorded as KindClose with its
// code (1000 when discordgo's Session.Close is called).
//
// The fake refuses what Discord refuses, with Discord's status and JSON
// error, which discordgo returns as *discordgo.RESTError: a thread in a
// channel with NoThreads (403, 50013), a message to a user with DMsClosed
// (403, 50007) or NoMutualGuild (403, 50278), a second callback for an interaction (400, 40060), a first
// callback later than SetResponseDeadline allows (404, 10062: after
// ResponseWindow by default, Discord's 3 seconds, scaled by Slowdown under
// the race detector), a follow-up
// before the callback, an empty or oversized message, duplicate or
// malformed components, invalid command names, descriptions, locales or
// option order, a message over Discord's text limits (content 2,000
// characters, embed title 256, description 4,096, field 1,024, footer
// 2,048, all of a message's embeds 6,000), an auto_archive_duration other
// than 60, 1440, 4320 or 10080 (400, 50035), and so on. Each refusal is
// logged through the test.
//
// # Threads over weeks and permissions
//
// A thread cannot be started in a thread, a forum post or a voice
// channel's chat (AddChannel with those types; 400, 50024;
// ThreadStartsInThreads counts the attempts inside threads), nor twice
// from one message (400, 160004), nor past the guild's ActiveThreadLimit
// (400, 160006; unarchiving counts too). The bot is its threads' first
// member; PUT thread-members adds others (ThreadMembers lists them).
//
// Pass moves the fake's clock for threads: a thread with no message for
// its auto_archive_duration is archived, as Discord does; Archive archives
// one at once. In an archived thread Discord offers no commands and greys
// out buttons, so Command, Click and the like dispatch nothing there and
// return "" (logged, not a test error); edits and deletes of its messages
// and new members answer 400 (50083); the bot's message, or its PATCH
// archived: false, unarchives it (THREAD_UPDATE). Lock locks a thread, and
// may archive it too, as a moderator does; the bot has no Manage Threads,
// so it may neither post there (403, 160005; a private answer to an
// interaction still works) nor unlock or unarchive it (403, 50013). In a
// locked and archived thread interactions still come, and their callbacks
// answer 400 (50083). DeleteChannel deletes a thread or channel:
// THREAD_DELETE (CHANNEL_DELETE), its messages gone, and 404 (10003) for
// everything on it, callbacks of interactions from it included.
//
// Each channel's Deny takes permissions from the bot there (SetPermissions
// changes them later), and a thread loses its parent's too: the
// interactions' app_permissions show what is left, and REST enforces it
// (see Channel.Deny). Interaction callbacks and follow-ups need none of
// them, as on Discord.
//
// Members' permissions follow the guild's roles (AddRole, User.Roles),
// its owner (SetOwner) and each channel's overwrites (SetOverwrites), as
// Discord computes them (members.go): interactions carry them, and no one
// uses a command or a component in a channel they may not view.
// ForgedClick sends a click with a custom id that its message lacks.
//
// Users may install the app to their own account (User.Installed,
// InstallApp). Then its commands that allow it are theirs in DMs and group
// DMs between users (AddPrivateChannel) and in servers that did not add
// the bot (Guild.WithoutBot): those interactions come with context 2 (or 0
// in such a server) and authorizing_integration_owners naming the user's
// install only, and the bot is no member there — its own posts, thread
// starts and reads of those channels and servers answer 403 Missing Access
// (50001), as Discord answers them, so answers and follow-ups are all it
// has — five follow-ups per interaction at most (400). Discord offers a
// command only where its registered contexts and integration_types allow,
// and a user's install only to that user: Command and UserCommand report a
// test error for any other.
//
// # Activities and OAuth2
//
// EnableActivities gives the app an Activity, and Discord's default Entry
// Point command (type 4, handler 2), which a bulk overwrite of global
// commands must keep or replace (400, 50240); there is one at most, global
// only, with a handler of 1 or 2 and no options. An interaction answered
// with LAUNCH_ACTIVITY (callback type 12, ResponseLaunchActivity; refused
// without Activities, and to autocompletes) launches the Activity in its
// channel, or joins its user to the instance running there (Call.Instance,
// ActivityIn); LaunchFromEntryPoint is a launch from the Entry Point.
// LaunchActivity, JoinActivity and LeaveActivity set who is in an instance,
// which the bot reads at GET /applications/{app}/activity-instances/{id}.
//
// Authorize is a user's consent to the Embedded App SDK's authorize: it
// gives the code, good for one exchange at POST /oauth2/token (form-encoded
// only; the app's id and ClientSecret in the form or as HTTP Basic;
// authorization_code only), with RFC 6749's errors (invalid_client 401,
// invalid_grant, invalid_request, unsupported_grant_type 400). The access
// token reads GET /users/@me (with the identify scope) and nothing else;
// RevokeTokens revokes a user's. Exchanges counts both, for tests of
// caching.
//
// # Caveats
//
// discordgo keeps Discord's addresses in package variables (endpoints.go).
// The first New in a test binary points all of them, once and for good, at
// a router on 127.0.0.1 that hands each request to the Server whose token
// it carries; they are never restored, since a goroutine of an earlier
// discordgo session may still read them. So no request of any discordgo
// session in the binary leaves loopback, and tests with their own Servers
// may run in parallel, as long as each session uses its own Server's token.
// The gateway address each Server gives is its own listener.
//
// discordgo v0.29.0 speaks API v9 (discordgo.APIVersion); the fake answers
// under /api/v{any}/. Its MessageAttachment has no description field, so a
// bot that wants alt text must send its own payload struct (with
// discordgo.MultipartBodyWithJSON and Session.RequestRaw, say).
//
// Edits follow Discord's rules: an absent field is kept and null clears it,
// which matters for discordgo's InteractionResponseData, whose content,
// embeds and components are never absent; new files are added to the
// attachments unless the payload's attachments list those to keep.
//
// # Faults, limits and latency
//
// Discord does not always answer at once, or yes. SetLatency makes every
// REST request wait. Refuse answers the next requests on a route (a Route
// constant, say RouteThreads), or only those whose path names a given
// channel or interaction, with a 429 and its Retry-After in seconds, a
// 5xx, or any Error; RefuseCallback does so for one interaction's
// callback, so that a 429 whose wait outlasts the response window shows
// what discordgo does (it sleeps, retries, and gets 10062). A refusal
// AfterServing does what was asked and then answers the error, as when
// Discord's answer is lost: the bot retries something already done.
// SetRateLimit counts a route's requests per channel, guild or webhook,
// with Discord's X-RateLimit headers (which discordgo obeys by waiting)
// or Hidden, as thread creation's limits are, seen only in the 429. Such
// calls are recorded with Refused set.
//
// A message posted with a nonce and enforce_nonce: true that repeats the
// nonce of a message posted in the same channel in the last 5 minutes
// ("the past few minutes", Discord says) answers that first message and
// posts nothing: its Call has Repeated set. discordgo's MessageSend has no
// nonce; send one with Session.RequestWithBucketID.
//
// Not faked: voice, presences, gateway compression, intents
// (every event goes to every session), member lists, roles as objects
// (a user's Roles only show in the member of their interactions), Manage
// Threads for the bot, messages that users write, and any endpoint not
// listed above, which answers 404 and is logged.
//
// Close every discordgo session before the test ends: a session left open
// keeps trying to reconnect to a fake that is gone, logging errors. So may
// one closed right after Open returned: discordgo v0.29.0's heartbeat
// goroutine, not yet run, finds the connection closed and reconnects.
// discordgo's Close takes a second.
package fakediscord
