package bot

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
)

// seals sign the state a button's custom id carries when the bot keeps
// it nowhere else (a lesson's attempt: its wrong tries and the moves
// played). A modified client can send any custom id; the seal makes a
// rewritten state one the bot did not make (errBadCustomID), without a
// read of the database. It is an HMAC under Config.Secret, which the
// processes that share a database share (the web listener's secret
// file), bound to the clicker, so that a state is good for its own
// message's user only.
type seals struct{ key []byte }

// newSeals returns the seals of secret; with none, of a secret made for
// this process (the sealed ids of an earlier process are then refused as
// ones the bot did not make: ephemeral messages, asked again).
func newSeals(secret []byte) *seals {
	if len(secret) == 0 {
		secret = make([]byte, 32)
		_, _ = rand.Read(secret) // crypto/rand.Read never fails
	}
	return &seals{key: secret}
}

// sealLen is a seal's length: 12 base64 characters, 72 bits of the
// HMAC. Each guess costs a click, which Discord rate-limits: beyond
// guessing, and short enough to leave a custom id room for its state.
const sealLen = 12

// seal returns the seal of a click's state for user: purpose names what
// the state is (the ids' family), so that no seal is good for another.
func (s *seals) seal(purpose, user string, state ...string) string {
	m := hmac.New(sha256.New, s.key)
	m.Write([]byte(purpose))
	for _, v := range append([]string{user}, state...) {
		m.Write([]byte{0})
		m.Write([]byte(v))
	}
	return base64.RawURLEncoding.EncodeToString(m.Sum(nil))[:sealLen]
}

// check reports whether sealed is the seal of the state for user, in
// constant time.
func (s *seals) check(sealed, purpose, user string, state ...string) bool {
	return len(sealed) == sealLen && hmac.Equal([]byte(sealed), []byte(s.seal(purpose, user, state...)))
}
