package fakediscord

import (
	"bytes"
	"net/http"
	"net/http/httptest"

	"github.com/bwmarrin/discordgo"
)

// HTTPCommand makes a slash command's interaction as Discord posts it to
// an application's Interactions Endpoint URL instead of the gateway: the
// test posts body, signed, to the bot's endpoint and gives the HTTP
// response to AnswerOverHTTP. Callbacks, edits and follow-ups of the
// interaction are then served as any other's.
func (s *Server) HTTPCommand(userID, channelID, name string, options ...*Option) (id string, body []byte) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.viaHTTP = true
	defer func() { s.viaHTTP, s.httpBody = false, nil }()
	id = s.commandLocked(discordgo.InteractionApplicationCommand, userID, channelID, name, options)
	return id, s.httpBody
}

// AnswerOverHTTP takes the HTTP response of the bot's endpoint to an
// interaction of HTTPCommand as its callback, as Discord does, recorded
// as a KindResponse call: a late one answers 10062 as a late callback
// would.
func (s *Server) AnswerOverHTTP(id, contentType string, body []byte) *Error {
	s.mu.Lock()
	it := s.interactions[id]
	s.mu.Unlock()
	if it == nil {
		s.tb.Errorf("fakediscord: AnswerOverHTTP: no interaction %q", id)
		return errUnknownInteraction
	}
	r := httptest.NewRequest(http.MethodPost, "/", bytes.NewReader(body))
	r.Header.Set("Content-Type", contentType)
	r.SetPathValue("interaction", id)
	r.SetPathValue("token", it.token)
	raw, files, err := readBody(httptest.NewRecorder(), r)
	if err != nil {
		return err
	}
	rep := &reply{raw: raw, files: files, status: http.StatusOK}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.callback(r, rep)
	return rep.err
}
