package activity

import (
	"encoding/json"
	"errors"
	"strconv"
	"strings"
	"time"

	"github.com/iceagechess/iceage/engine"
	"github.com/iceagechess/iceage/play"
)

// The parsers of what a stranger sends, each checked before anything is
// asked of Discord or the games: lengths, alphabets, shapes.

// maxBody is the most of a request body read: a code, or a move.
const maxBody = 1 << 10

// snowflake reports whether id looks like a Discord id: 1 to 20 digits.
func snowflake(id string) bool {
	if len(id) == 0 || len(id) > 20 {
		return false
	}
	for i := 0; i < len(id); i++ {
		if id[i] < '0' || id[i] > '9' {
			return false
		}
	}
	return true
}

// tokenLike reports whether s is made of 1 to max characters of the
// alphabet of Discord's codes and tokens: letters, digits, '.', '-', '_'
// and '~', nothing that means something in a header, a form or a path.
func tokenLike(s string, max int) bool {
	if len(s) == 0 || len(s) > max {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '.' || c == '-' || c == '_' || c == '~') {
			return false
		}
	}
	return true
}

// validCode reports whether s may be an authorization code.
func validCode(s string) bool { return tokenLike(s, 128) }

// validToken reports whether s may be an access token.
func validToken(s string) bool { return tokenLike(s, 256) }

// bearer is the access token of an "Authorization: Bearer" header.
func bearer(header string) (string, bool) {
	t, ok := strings.CutPrefix(header, "Bearer ")
	return t, ok && validToken(t)
}

// validInstance reports whether s is an Activity instance id as Discord
// makes them: "i-", the launch's snowflake, "-gc-" and the guild's and
// channel's, or "-pc-" and the channel's.
func validInstance(s string) bool {
	if len(s) > 100 {
		return false
	}
	rest, ok := strings.CutPrefix(s, "i-")
	if !ok {
		return false
	}
	launch, loc, ok := strings.Cut(rest, "-")
	if !ok || !snowflake(launch) {
		return false
	}
	if ch, ok := strings.CutPrefix(loc, "pc-"); ok {
		return snowflake(ch)
	}
	ids, ok := strings.CutPrefix(loc, "gc-")
	if !ok {
		return false
	}
	guild, ch, ok := strings.Cut(ids, "-")
	return ok && snowflake(guild) && snowflake(ch)
}

// tokenRequest is the body of POST /api/token.
type tokenRequest struct {
	Code string `json:"code"`
}

// parseTokenRequest reads POST /api/token's body.
func parseTokenRequest(body []byte) (tokenRequest, error) {
	var r tokenRequest
	if err := strictJSON(body, &r); err != nil {
		return r, err
	}
	if !validCode(r.Code) {
		return r, errors.New("code: want the code the SDK's authorize gave")
	}
	return r, nil
}

// moveRequest is the body of POST /api/activity/move: a move on a game at
// the revision the page showed, in the instance the page runs in.
type moveRequest struct {
	Instance string `json:"instance"`
	Game     uint64 `json:"game"`
	Revision int    `json:"rev"`
	// Move is from and to squares and a promotion, in UCI: "e2e4",
	// "e7e8q".
	Move string `json:"move"`
	// Zone is the page's time zone, for the times of a refusal.
	Zone string `json:"tz"`
}

// parseMoveRequest reads POST /api/activity/move's body.
func parseMoveRequest(body []byte) (moveRequest, error) {
	var r moveRequest
	if err := strictJSON(body, &r); err != nil {
		return r, err
	}
	switch {
	case !validInstance(r.Instance):
		return r, errors.New("instance: want the Activity's instance id")
	case r.Game == 0:
		return r, errors.New("game: want a game's number")
	case r.Revision < 0 || r.Revision > 1<<31-1:
		return r, errors.New("rev: want the revision the page showed")
	case !uciMove(r.Move):
		return r, errors.New("move: want from and to squares, as e2e4 or e7e8q")
	case !validZone(r.Zone):
		return r, errors.New("tz: want a time zone's name, as Europe/Oslo")
	}
	return r, nil
}

// uciMove reports whether s is a move in UCI's form: two squares and
// maybe a promotion.
func uciMove(s string) bool {
	if len(s) != 4 && len(s) != 5 {
		return false
	}
	for i := 0; i < 4; i += 2 {
		if s[i] < 'a' || s[i] > 'h' || s[i+1] < '1' || s[i+1] > '8' {
			return false
		}
	}
	return len(s) == 4 || strings.ContainsRune("qrbn", rune(s[4]))
}

// strictJSON decodes one JSON object with no unknown fields and nothing
// after it.
func strictJSON(body []byte, v any) error {
	dec := json.NewDecoder(strings.NewReader(string(body)))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return errors.New("the body is not the JSON object expected")
	}
	if dec.More() {
		return errors.New("the body holds more than one JSON value")
	}
	return nil
}

// challengeRequest is the body of POST /api/challenge: a challenge from
// the lobby to someone in the instance, or to anyone ("" To).
type challengeRequest struct {
	Instance string `json:"instance"`
	// To is the user challenged; "" for an open challenge.
	To string `json:"to"`
	// Time is a live time control as players write it, "5+3"; "" for
	// correspondence. Its words are checked by timeControl, so that a
	// bad one is refused in the asker's language.
	Time  string `json:"time"`
	Color string `json:"color"`
	Rated bool   `json:"rated"`
	// Engine: the challenge is to the engine at Level (0 for the
	// default), which starts the game at once; To is "".
	Engine bool `json:"engine"`
	Level  int  `json:"level"`
	// Zone is the page's time zone, for the times of a refusal.
	Zone string `json:"tz"`
}

// maxTimeText is the longest time control read: "180 + 180" and room.
const maxTimeText = 16

// parseChallengeRequest reads POST /api/challenge's body.
func parseChallengeRequest(body []byte) (challengeRequest, error) {
	var r challengeRequest
	if err := strictJSON(body, &r); err != nil {
		return r, err
	}
	switch {
	case !validInstance(r.Instance):
		return r, errors.New("instance: want the Activity's instance id")
	case r.To != "" && !snowflake(r.To):
		return r, errors.New("to: want a user's id, or nothing for anyone")
	case len(r.Time) > maxTimeText:
		return r, errors.New("time: want a time control, as 5+3")
	case r.Color != "random" && r.Color != "white" && r.Color != "black":
		return r, errors.New("color: want random, white or black")
	case !validZone(r.Zone):
		return r, errors.New("tz: want a time zone's name, as Europe/Oslo")
	case r.Engine && r.To != "":
		return r, errors.New("to: the engine is challenged alone")
	case r.Level < 0 || r.Level > engine.Levels || !r.Engine && r.Level != 0:
		return r, errors.New("level: want one of the engine's levels, for the engine")
	}
	return r, nil
}

// timeControl is the request's time control: correspondence for none.
func (r *challengeRequest) timeControl() (play.TimeControl, error) {
	if strings.TrimSpace(r.Time) == "" {
		return play.TimeControl{}, nil
	}
	return play.ParseTimeControl(r.Time)
}

// answerRequest is the body of POST /api/answer: the asker accepts or
// declines a challenge shown in the lobby (their own: withdraws it).
type answerRequest struct {
	Instance  string `json:"instance"`
	Challenge uint64 `json:"challenge"`
	Accept    bool   `json:"accept"`
	Zone      string `json:"tz"`
}

// parseAnswerRequest reads POST /api/answer's body.
func parseAnswerRequest(body []byte) (answerRequest, error) {
	var r answerRequest
	if err := strictJSON(body, &r); err != nil {
		return r, err
	}
	switch {
	case !validInstance(r.Instance):
		return r, errors.New("instance: want the Activity's instance id")
	case r.Challenge == 0:
		return r, errors.New("challenge: want a challenge's number")
	case !validZone(r.Zone):
		return r, errors.New("tz: want a time zone's name, as Europe/Oslo")
	}
	return r, nil
}

// validZone reports whether s may name a time zone of the IANA
// database ("" for none): letters, digits, '_', '-', '+' and '/', no
// path upwards, and not "Local", which is the server's.
func validZone(s string) bool {
	if s == "" {
		return true
	}
	if len(s) > 64 || s == "Local" || strings.Contains(s, "..") || s[0] == '/' {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '_' || c == '-' || c == '+' || c == '/') {
			return false
		}
	}
	return true
}

// zone is the location a valid zone names; nil for none or one the
// server does not know.
func zone(s string) *time.Location {
	if s == "" || !validZone(s) {
		return nil
	}
	loc, err := time.LoadLocation(s)
	if err != nil {
		return nil
	}
	return loc
}

// parseGameQuery reads the game a page asks to watch (api/game?game=):
// a game's number, digits only.
func parseGameQuery(q string) (uint64, bool) {
	if q == "" || len(q) > 20 || strings.Trim(q, "0123456789") != "" {
		return 0, false
	}
	id, err := strconv.ParseUint(q, 10, 64)
	return id, err == nil && id != 0
}

func (r moveRequest) instance() string { return r.Instance }

func (r challengeRequest) instance() string { return r.Instance }

func (r answerRequest) instance() string { return r.Instance }
