// Package visibility decides who may see a game: the one rule that every
// command, button, menu and page showing a game asks. It knows nothing
// of Discord's libraries: it takes ids and permission bits, numbered as
// Discord numbers them, and asks its caller for what it must fetch.
//
// # Basics
//
// A game played in a DM or group DM is its players' alone. A server's
// game is also for the server's members who can see the channel it is
// played in (a thread's parent channel), as Discord computes their
// permissions there (InChannel): their roles' permissions and
// @everyone's, then the channel's overwrites for @everyone, for all their
// roles together (an allow beats a deny), and for themselves.
// Administrators and the server's owner see every channel.
//
// CanSee takes the Asker (who, where, and the permissions and roles
// Discord sent with the interaction) and the Game, and asks a Server for
// the game's channel, the thread's parent and the server's roles, only
// when the cheaper facts do not decide: a player; a DM's game; a question
// from another server or a DM; Administrator; asking in the game's own
// channel or thread's parent, whose permissions came with the question.
//
// # Speed
//
// The longest way asks two channels and the server; from memory (a
// caching Server) it takes a few hundred nanoseconds (BenchmarkCanSee).
// The fetches are the cost: the bot keeps them a minute.
//
// # Caveats
//
// A member asking from a DM or from another server is not known as a
// member, so a server's game is then its players' alone. Private threads'
// members are not consulted: games are played in public threads or in
// the channel itself. A channel or server that is gone, or that the
// fetcher may not read (ErrGone), hides its games from all but their
// players. Channels' categories are not parents: Discord applies only a
// channel's own overwrites.
package visibility
