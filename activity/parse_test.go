package activity

import (
	"strconv"
	"strings"
	"testing"
)

func TestParsers(t *testing.T) {
	for s, want := range map[string]bool{
		"i-1276580072400224306-gc-912952092627435520-912954213460484116": true,
		"i-1276580072400224306-pc-912954213460484116":                    true,
		"i-1-gc-2-3":                    true,
		"i-1-gc-2":                      false,
		"i-1-dc-2-3":                    false,
		"i-x-gc-2-3":                    false,
		"1-gc-2-3":                      false,
		"i-1-gc-2-3-":                   false,
		"":                              false,
		"i-" + strings.Repeat("1", 120): false,
	} {
		if got := validInstance(s); got != want {
			t.Errorf("validInstance(%q) = %v", s, got)
		}
	}
	for s, want := range map[string]bool{"e2e4": true, "e7e8q": true, "a1h8": true, "e7e8k": false, "e2e": false, "i2e4": false, "e0e4": false, "e2e4qq": false} {
		if got := uciMove(s); got != want {
			t.Errorf("uciMove(%q) = %v", s, got)
		}
	}
	for h, want := range map[string]bool{"Bearer abc.DEF_-1": true, "Bearer ": false, "bearer abc": false, "Bot abc": false, "Bearer a b": false, "Bearer " + strings.Repeat("a", 300): false} {
		if _, got := bearer(h); got != want {
			t.Errorf("bearer(%q) = %v", h, got)
		}
	}
}

// FuzzParseMoveRequest: no input panics, and one accepted is one the
// rules' parser and the round may be handed: a UCI move, an instance of
// Discord's shape, a game and a revision in range.
func FuzzParseMoveRequest(f *testing.F) {
	f.Add([]byte(`{"instance":"i-1-gc-2-3","game":1,"rev":2,"move":"e2e4"}`))
	f.Add([]byte(`{"instance":"i-1-pc-3","game":18446744073709551615,"rev":2147483647,"move":"e7e8q"}`))
	f.Add([]byte(`{"game":-1}`))
	f.Add([]byte(`[]`))
	f.Fuzz(func(t *testing.T, body []byte) {
		r, err := parseMoveRequest(body)
		if err != nil {
			return
		}
		if !validInstance(r.Instance) || r.Game == 0 || r.Revision < 0 || !uciMove(r.Move) {
			t.Errorf("accepted %+v", r)
		}
	})
}

func FuzzParseTokenRequest(f *testing.F) {
	f.Add([]byte(`{"code":"abc"}`))
	f.Add([]byte(`{"code":"a\u0000b"}`))
	f.Add([]byte(`{"code":1}`))
	f.Fuzz(func(t *testing.T, body []byte) {
		r, err := parseTokenRequest(body)
		if err == nil && (!validCode(r.Code) || strings.ContainsAny(r.Code, "\"\\ \x00&=?#")) {
			t.Errorf("accepted code %q", r.Code)
		}
	})
}

func FuzzValidInstance(f *testing.F) {
	f.Add("i-1-gc-2-3")
	f.Add("i-1-pc-3")
	f.Fuzz(func(t *testing.T, s string) {
		if validInstance(s) && (len(s) > 100 || strings.ContainsAny(s, "/?#%. ")) {
			t.Errorf("accepted %q, which would change the path it is put in", s)
		}
	})
}

// FuzzParseGameQuery: no input panics, and one accepted is a game's
// number written as it is read back.
func FuzzParseGameQuery(f *testing.F) {
	for _, s := range []string{"1", "18446744073709551615", "18446744073709551616", "0", "+1", "-1", " 1", "1e3", "0x10", "007"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, q string) {
		id, ok := parseGameQuery(q)
		if ok && (id == 0 || strings.TrimLeft(q, "0") != strconv.FormatUint(id, 10)) {
			t.Errorf("%q read as game %d", q, id)
		}
	})
}
