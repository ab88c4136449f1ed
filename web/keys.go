package web

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strconv"
	"strings"
)

// Keys sign what the listener hands out: the pages' addresses and the
// sign-in cookies. A page's token is an HMAC of the game's (or the
// server's) id under the secret, not a random value kept with the game:
// every process that shares the secret makes and checks the same token
// with no read of the database, so that a stranger's guess costs one
// HMAC and nothing else, and no record of the game changes shape. The
// price is that one page's link cannot be withdrawn alone: a new secret
// withdraws every link.
type Keys struct{ secret []byte }

// NewKeys returns the keys of secret.
func NewKeys(secret []byte) Keys { return Keys{secret: secret} }

// tokenLen is a token's length: 22 base64 characters, 132 bits of the
// HMAC, beyond guessing.
const tokenLen = 22

func (k Keys) mac(kind, id string) string {
	m := hmac.New(sha256.New, k.secret)
	m.Write([]byte(kind))
	m.Write([]byte{0})
	m.Write([]byte(id))
	return base64.RawURLEncoding.EncodeToString(m.Sum(nil))[:tokenLen]
}

// Game is the token of a game's page.
func (k Keys) Game(id uint64) string { return k.mac("game", strconv.FormatUint(id, 10)) }

// Guild is the token of a server's leaderboard page.
func (k Keys) Guild(id string) string { return k.mac("guild", id) }

// Tournament is the token of a tournament's page.
func (k Keys) Tournament(id uint64) string { return k.mac("tournament", strconv.FormatUint(id, 10)) }

// CheckTournament reports whether token is tournament id's, in constant
// time.
func (k Keys) CheckTournament(id uint64, token string) bool {
	return hmac.Equal([]byte(token), []byte(k.Tournament(id)))
}

// CheckGame reports whether token is game id's, in constant time.
func (k Keys) CheckGame(id uint64, token string) bool {
	return hmac.Equal([]byte(token), []byte(k.Game(id)))
}

// CheckGuild reports whether token is the server's, in constant time.
func (k Keys) CheckGuild(id, token string) bool {
	return hmac.Equal([]byte(token), []byte(k.Guild(id)))
}

// Sign returns value with its signature for purpose appended.
func (k Keys) Sign(purpose, value string) string { return value + "." + k.mac(purpose, value) }

// Open returns the value that signed carries if its signature for
// purpose holds, in constant time.
func (k Keys) Open(purpose, signed string) (string, bool) {
	i := strings.LastIndexByte(signed, '.')
	if i < 0 || len(signed)-i-1 != tokenLen {
		return "", false
	}
	value := signed[:i]
	return value, hmac.Equal([]byte(signed[i+1:]), []byte(k.mac(purpose, value)))
}

// ParseGameRef reads a game page's path values: the game's id (a
// number without sign or leading zero) and its token. ok is false for
// anything else, before any HMAC is computed on it.
func ParseGameRef(id, token string) (uint64, bool) {
	if len(id) == 0 || len(id) > 20 || id[0] == '0' || len(token) != tokenLen {
		return 0, false
	}
	n, err := strconv.ParseUint(id, 10, 64)
	return n, err == nil
}

// ParseGuildRef reads a leaderboard page's server id, a Discord
// snowflake; ok is false for anything else.
func ParseGuildRef(id, token string) bool {
	_, ok := ParseGameRef(id, token)
	return ok
}

// minSecret is the shortest secret the keys take.
const minSecret = 16

// LoadSecret returns the secret kept in the file at path, making one
// there first when there is none: 32 random bytes in hex, in a new file
// of mode 0600. created reports that it did. A file that others may
// read, or that holds less than 16 characters, is an error that says
// how to mend it.
func LoadSecret(path string) (secret []byte, created bool, err error) {
	secret, err = readSecret(path)
	if !errors.Is(err, fs.ErrNotExist) {
		return secret, false, err
	}
	var b [32]byte
	if _, err := rand.Read(b[:]); err != nil {
		return nil, false, err
	}
	text := hex.EncodeToString(b[:])
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600) // #nosec G304 -- the secret file the configuration names
	if errors.Is(err, fs.ErrExist) {
		// Another process made it meanwhile: theirs is the secret.
		secret, err = readSecret(path)
		return secret, false, err
	}
	if err != nil {
		return nil, false, fmt.Errorf("making the web listener's secret file %s: %w", path, err)
	}
	if _, err := f.WriteString(text + "\n"); err != nil {
		_ = f.Close() // the write's error is the one to tell
		_ = os.Remove(path)
		return nil, false, fmt.Errorf("writing the web listener's secret file %s: %w", path, err)
	}
	if err := f.Close(); err != nil {
		_ = os.Remove(path)
		return nil, false, fmt.Errorf("writing the web listener's secret file %s: %w", path, err)
	}
	return []byte(text), true, nil
}

func readSecret(path string) ([]byte, error) {
	f, err := os.Open(path) // #nosec G304 -- the secret file the configuration names
	if err != nil {
		return nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if fi.Mode().Perm()&0o077 != 0 {
		return nil, fmt.Errorf("the web listener's secret file %s may be read by others (mode %v): chmod 600 %s", path, fi.Mode().Perm(), path)
	}
	b := make([]byte, 1024)
	n, err := f.Read(b)
	if err != nil && n == 0 {
		return nil, fmt.Errorf("reading the web listener's secret file %s: %w", path, err)
	}
	text := strings.TrimSpace(string(b[:n]))
	if len(text) < minSecret {
		return nil, fmt.Errorf("the web listener's secret file %s holds no secret of %d characters or more: remove it, and the program makes a new one (every page's link changes)", path, minSecret)
	}
	return []byte(text), nil
}
