package fakediscord

import (
	"encoding/json"
	"fmt"
	"net/http"
	"slices"

	"github.com/bwmarrin/discordgo"
)

// Activities. An app with Activities enabled (EnableActivities) may
// answer an interaction with LAUNCH_ACTIVITY (callback type 12), which
// launches its Activity in the interaction's channel, or joins the user
// to the one running there; and it has one Entry Point command (command
// type 4), a global command that launches it from the app launcher. Its
// bot reads who is in an instance at GET
// /applications/{app}/activity-instances/{instance}.

// Callback type 12 and command type 4, which discordgo v0.29.0 lacks.
const (
	ResponseLaunchActivity discordgo.InteractionResponseType = 12
	EntryPointCommand      discordgo.ApplicationCommandType  = 4
)

// The Entry Point command's handlers: the app answers its interaction
// itself, or Discord launches the Activity without asking the app.
const (
	HandlerApp                   = 1
	HandlerDiscordLaunchActivity = 2
)

// errEntryPointRemoved is Discord's answer to a bulk overwrite of global
// commands that leaves out the app's Entry Point command.
var errEntryPointRemoved = &Error{Status: 400, Code: 50240, Message: "You cannot remove this app's Entry Point command in a bulk update operation. Please include the Entry Point command in your update request or delete it separately."}

// Instance is a running Activity: where it runs and who is in it.
type Instance struct {
	ID        string // i-{launch}-gc-{guild}-{channel}, or -pc-{channel} in a DM
	LaunchID  string
	ChannelID string
	GuildID   string // empty in a DM or group DM
	Users     []string
}

// EnableActivities turns on the app's Activities, as its developer does
// in the portal: LAUNCH_ACTIVITY and Entry Point commands are refused
// without them.
// Discord then gives the app its default Entry Point command ("launch",
// handler 2), which a bulk overwrite must keep (or replace by its own).
func (s *Server) EnableActivities() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.activities {
		return
	}
	s.activities = true
	s.commands[""] = append(s.commands[""], &discordgo.ApplicationCommand{
		ID: newID(), ApplicationID: s.appID, Type: EntryPointCommand, Name: "launch",
		Description: "Launch an activity", Version: newID(),
	})
	s.entryPoint = HandlerDiscordLaunchActivity
}

// LaunchActivity runs the app's Activity in a channel with these users
// in it, as when one of them launched it and the others joined, or joins
// them to the instance already running there. It returns the instance.
func (s *Server) LaunchActivity(channelID string, userIDs ...string) Instance {
	s.mu.Lock()
	defer s.mu.Unlock()
	in, err := s.launchLocked(channelID, userIDs...)
	if err != nil {
		s.tb.Errorf("fakediscord: LaunchActivity in %s: %v", channelID, err)
		return Instance{}
	}
	return copyInstance(in)
}

func (s *Server) launchLocked(channelID string, userIDs ...string) (*Instance, *Error) {
	c := s.channels[channelID]
	switch {
	case c == nil:
		return nil, errUnknownChannel
	case !s.activities:
		return nil, invalid("the application has no Activity: enable Activities in the developer portal")
	}
	for _, u := range userIDs {
		if s.users[u] == nil {
			return nil, errUnknownUser
		}
	}
	for _, in := range s.instances {
		if in.ChannelID == channelID {
			for _, u := range userIDs {
				if !slices.Contains(in.Users, u) {
					in.Users = append(in.Users, u)
				}
			}
			return in, nil
		}
	}
	launch := newID()
	in := &Instance{LaunchID: launch, ChannelID: channelID, GuildID: c.GuildID, Users: slices.Clone(userIDs)}
	in.ID = "i-" + launch + "-" + locationID(in)
	s.instances[in.ID] = in
	return in, nil
}

// locationID is Discord's id of where an instance runs: gc-{guild}-{channel}
// in a server, pc-{channel} elsewhere.
func locationID(in *Instance) string {
	if in.GuildID == "" {
		return "pc-" + in.ChannelID
	}
	return "gc-" + in.GuildID + "-" + in.ChannelID
}

// JoinActivity adds a user to a running instance.
func (s *Server) JoinActivity(instanceID, userID string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	in := s.instances[instanceID]
	switch {
	case in == nil:
		s.tb.Errorf("fakediscord: JoinActivity: no instance %q", instanceID)
	case s.users[userID] == nil:
		s.tb.Errorf("fakediscord: JoinActivity: no user %q", userID)
	case !slices.Contains(in.Users, userID):
		in.Users = append(in.Users, userID)
	}
}

// LeaveActivity takes a user out of an instance; the last to leave ends
// it, and its id is unknown from then on.
func (s *Server) LeaveActivity(instanceID, userID string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	in := s.instances[instanceID]
	if in == nil {
		s.tb.Errorf("fakediscord: LeaveActivity: no instance %q", instanceID)
		return
	}
	in.Users = slices.DeleteFunc(in.Users, func(u string) bool { return u == userID })
	if len(in.Users) == 0 {
		delete(s.instances, instanceID)
	}
}

// ActivityIn is the instance running in a channel, if any.
func (s *Server) ActivityIn(channelID string) (Instance, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, in := range s.instances {
		if in.ChannelID == channelID {
			return copyInstance(in), true
		}
	}
	return Instance{}, false
}

func copyInstance(in *Instance) Instance {
	c := *in
	c.Users = slices.Clone(in.Users)
	return c
}

// EntryPointHandler is the handler of the registered Entry Point
// command, 0 when there is none.
func (s *Server) EntryPointHandler() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.entryPoint
}

// LaunchFromEntryPoint is a user's launch of the app's Activity from its
// Entry Point command in a channel. With handler 2 Discord launches it
// and returns the instance's id, no interaction reaching the app; with
// handler 1 the app gets the command's interaction, whose id is
// returned, and launches the Activity by answering LAUNCH_ACTIVITY.
func (s *Server) LaunchFromEntryPoint(userID, channelID string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	c := s.channels[channelID]
	var name string
	for _, cmd := range s.commands[""] {
		if cmd.Type == EntryPointCommand {
			name = cmd.Name
		}
	}
	switch {
	case c == nil:
		s.tb.Errorf("fakediscord: LaunchFromEntryPoint: no channel %q", channelID)
		return ""
	case name == "":
		s.tb.Errorf("fakediscord: LaunchFromEntryPoint: the app registered no Entry Point command")
		return ""
	case s.entryPoint == HandlerDiscordLaunchActivity:
		in, err := s.launchLocked(channelID, userID)
		if err != nil {
			s.tb.Errorf("fakediscord: LaunchFromEntryPoint: %v", err)
			return ""
		}
		return in.ID
	}
	if !s.offerLocked(c, userID, name, EntryPointCommand) {
		return ""
	}
	data := map[string]any{"id": s.commandIDLocked("", name, EntryPointCommand), "name": name, "type": EntryPointCommand}
	return s.dispatchLocked(discordgo.InteractionApplicationCommand, discordgo.MessageTypeChatInputCommand, userID, c, data, nil)
}

// getInstance is GET /applications/{app}/activity-instances/{instance},
// with the bot's token.
func (s *Server) getInstance(r *http.Request, rep *reply) {
	in := s.instances[r.PathValue("instance")]
	switch {
	case r.PathValue("app") != s.appID:
		rep.err = errUnknownApplication
	case in == nil:
		rep.err = errNotFound
	default:
		loc := map[string]any{"id": locationID(in), "kind": "gc", "channel_id": in.ChannelID}
		if in.GuildID == "" {
			loc["kind"] = "pc"
		} else {
			loc["guild_id"] = in.GuildID
		}
		rep.body = map[string]any{
			"application_id": s.appID, "instance_id": in.ID, "launch_id": in.LaunchID,
			"location": loc, "users": slices.Clone(in.Users),
		}
	}
}

// launchActivityLocked answers an interaction with LAUNCH_ACTIVITY: only
// for an app with Activities, and only to a command, a component or a
// modal's submission, with no data.
func (s *Server) launchActivityLocked(it *interaction, data json.RawMessage, call *Call) *Error {
	switch {
	case it.kind == discordgo.InteractionApplicationCommandAutocomplete:
		return invalid(fmt.Sprintf("callback type %d does not answer a %v interaction", ResponseLaunchActivity, it.kind), "type")
	case !s.activities:
		return invalid("the application has no Activity to launch: enable Activities in the developer portal", "type")
	case len(data) > 0 && string(data) != "null" && string(data) != "{}":
		return invalid("LAUNCH_ACTIVITY takes no data", "data")
	}
	in, err := s.launchLocked(it.channelID, it.userID)
	if err != nil {
		return err
	}
	call.Instance = in.ID
	return nil
}

// checkEntryPoint checks an Entry Point command of a bulk overwrite
// (raw, its JSON as sent, for the handler that discordgo's struct lacks),
// and returns its handler.
func (s *Server) checkEntryPoint(c *discordgo.ApplicationCommand, raw json.RawMessage, guildID, at string) (int, *Error) {
	var h struct {
		Handler *int `json:"handler"`
	}
	json.Unmarshal(raw, &h)
	switch {
	case !s.activities:
		return 0, invalid("an Entry Point command needs the application's Activities enabled", at, "type")
	case guildID != "":
		return 0, invalid("an Entry Point command is global only", at, "type")
	case h.Handler == nil || *h.Handler != HandlerApp && *h.Handler != HandlerDiscordLaunchActivity:
		return 0, invalid("handler must be 1 (APP_HANDLER) or 2 (DISCORD_LAUNCH_ACTIVITY)", at, "handler")
	case len(c.Options) > 0:
		return 0, invalid("an Entry Point command has no options", at, "options")
	}
	return *h.Handler, checkNames(c.Name, deref(c.NameLocalizations), c.Description, deref(c.DescriptionLocalizations), at)
}
