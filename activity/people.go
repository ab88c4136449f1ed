package activity

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
)

// The people of an instance: Discord's instance endpoint gives their
// ids (instance.Users), whoever of them signed in here or not; their
// names are the ones they signed in with, else the ones the server
// shows for them (their nickname there, else their display name),
// asked of Discord with the bot's token and remembered as long.

// maxNamesAsked bounds the names one lobby answer asks of Discord: the
// others come with the next polls, so that a crowd arriving at once
// neither slows a poll much nor spends the bot's rate limit at once.
const maxNamesAsked = 4

// knownName is user's name in an instance in guild if it is known
// without asking Discord.
func (s *Server) knownName(guild, user string) (string, bool) {
	now := s.opts.Now()
	if name, ok := s.names.get(user, now); ok {
		return name, true
	}
	return s.discord.members.get(guild+"/"+user, now)
}

// personName is user's name in the lobby of an instance in guild ("" in
// a DM): ok false when it cannot be known now (Discord refused or is
// busy), and the person is left out until it can.
func (s *Server) personName(ctx context.Context, guild, user string) (string, bool) {
	if name, ok := s.knownName(guild, user); ok {
		return name, true
	}
	name, err := s.discord.memberName(ctx, guild, user)
	if err != nil {
		if !errors.Is(err, errBusy) {
			s.logUnless(err, "naming a person of an instance")
		}
		return "", false
	}
	return name, true
}

// memberName is the name guild shows for user, with the bot's token:
// their nickname there, else their display name, else their username.
func (d *discord) memberName(ctx context.Context, guild, user string) (string, error) {
	if !snowflake(user) || guild != "" && !snowflake(guild) {
		return "", fmt.Errorf("activity: no user %q in server %q", user, guild)
	}
	k := guild + "/" + user
	if name, ok := d.members.get(k, d.now()); ok {
		return name, nil
	}
	path := "api/v10/users/" + url.PathEscape(user)
	if guild != "" {
		path = "api/v10/guilds/" + url.PathEscape(guild) + "/members/" + url.PathEscape(user)
	}
	// #nosec G704 -- guild and user are snowflakes: digits only
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, d.base+path, nil)
	if err != nil {
		return "", err
	}
	req.Header.Set("Authorization", "Bot "+d.botToken)
	// A member is {nick, user}; a user, without a server, is the user.
	type discordUser struct {
		Username   string `json:"username"`
		GlobalName string `json:"global_name"`
	}
	var got struct {
		Nick string      `json:"nick"`
		User discordUser `json:"user"`
		discordUser
	}
	if err := d.ask(req, &got); err != nil {
		return "", err
	}
	if guild == "" {
		got.User = got.discordUser
	}
	name := got.Nick
	if name == "" {
		name = got.User.GlobalName
	}
	if name == "" {
		name = got.User.Username
	}
	if name == "" {
		return "", fmt.Errorf("activity: Discord gave no name for user %s in server %q", user, guild)
	}
	d.members.put(k, name, d.now().Add(nameLife))
	return name, nil
}
