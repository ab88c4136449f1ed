package ops

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"
)

// minToken is the shortest token a token file may hold, as for
// http.token.
const minToken = 16

// LoadToken returns the operators' token kept in the file at path,
// making one there first when there is none: 32 random bytes in hex, in
// a new file of mode 0600. created reports that it did. A file that
// others may read, or that holds less than 16 characters, is an error
// that says how to mend it.
func LoadToken(path string) (token string, created bool, err error) {
	token, err = ReadToken(path)
	if !errors.Is(err, fs.ErrNotExist) {
		return token, false, err
	}
	var b [32]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", false, err
	}
	token = hex.EncodeToString(b[:])
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600) // #nosec G304 -- the token file the configuration names
	if errors.Is(err, fs.ErrExist) {
		// Another process made it meanwhile: theirs is the token.
		token, err = ReadToken(path)
		return token, false, err
	}
	if err != nil {
		return "", false, fmt.Errorf("making the operators' token file %s: %w", path, err)
	}
	if _, err := f.WriteString(token + "\n"); err != nil {
		_ = f.Close() // the write's error is the one to tell
		_ = os.Remove(path)
		return "", false, fmt.Errorf("writing the operators' token file %s: %w", path, err)
	}
	if err := f.Close(); err != nil {
		_ = os.Remove(path)
		return "", false, fmt.Errorf("writing the operators' token file %s: %w", path, err)
	}
	return token, true, nil
}

// ReadToken returns the token kept in the file at path; the error wraps
// fs.ErrNotExist when there is no such file.
func ReadToken(path string) (string, error) {
	f, err := os.Open(path) // #nosec G304 -- the token file the configuration names
	if err != nil {
		return "", err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return "", err
	}
	if fi.Mode().Perm()&0o077 != 0 {
		return "", fmt.Errorf("the operators' token file %s may be read by others (mode %v): chmod 600 %s", path, fi.Mode().Perm(), path)
	}
	b := make([]byte, 1024)
	n, err := f.Read(b)
	if err != nil && n == 0 {
		return "", fmt.Errorf("reading the operators' token file %s: %w", path, err)
	}
	token := strings.TrimSpace(string(b[:n]))
	if len(token) < minToken {
		return "", fmt.Errorf("the operators' token file %s holds no token of %d characters or more: remove it, and the program makes a new one", path, minToken)
	}
	return token, nil
}
