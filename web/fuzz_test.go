package web

import (
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/iceagechess/iceage/i18n"
)

func FuzzParseGameRef(f *testing.F) {
	keys := NewKeys([]byte("0123456789abcdef0123456789abcdef"))
	f.Add("42", keys.Game(42))
	f.Add("042", keys.Game(42))
	f.Add("18446744073709551616", strings.Repeat("A", tokenLen))
	f.Add("-1", "")
	f.Add("", "x")
	f.Fuzz(func(t *testing.T, id, token string) {
		n, ok := ParseGameRef(id, token)
		if !ok {
			return
		}
		if strconv.FormatUint(n, 10) != id || len(token) != tokenLen {
			t.Fatalf("ParseGameRef(%q, %q) = %d: not the id written plainly", id, token, n)
		}
		if keys.CheckGame(n, token) != (token == keys.Game(n)) {
			t.Fatalf("CheckGame(%d, %q) disagrees with the token", n, token)
		}
	})
}

func FuzzAcceptLanguage(f *testing.F) {
	for _, s := range []string{"ru-RU,ru;q=0.9,en;q=0.5", "fr;q=0", "*", "nb-NO", "no", "es-419;q=0.3,nl;q=0.4", "en;q=NaN", "de, fr;q=1e400", ";;,,", "ru;q=-1"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, header string) {
		l, ok := AcceptLanguage(header)
		if ok != (l != "") || ok && !slices.Contains(i18n.Languages(), l) {
			t.Fatalf("AcceptLanguage(%q) = %q, %v", header, l, ok)
		}
	})
}

func FuzzParseLastEventID(f *testing.F) {
	for _, s := range []string{"", "0", "12", "-1", "2147483648", "99999999999", "1e3", " 1"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, v string) {
		n, ok := ParseLastEventID(v)
		if ok && (n < 0 || v != "" && strconv.Itoa(n) != strings.TrimLeft(v, "0") && n != 0) {
			t.Fatalf("ParseLastEventID(%q) = %d", v, n)
		}
	})
}

func FuzzParseTourVersion(f *testing.F) {
	for _, s := range []string{"", "0", "6e041bc454eeb3d0", "6E041BC454EEB3D0", "6e041bc454eeb3d01", "-1", " 1", "g"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, v string) {
		got, ok := ParseTourVersion(v)
		if !ok {
			return
		}
		if got != v || len(v) > 16 {
			t.Fatalf("ParseTourVersion(%q) = %q", v, got)
		}
		if _, err := strconv.ParseUint("0"+v, 16, 64); err != nil || strings.ToLower(v) != v {
			t.Fatalf("ParseTourVersion(%q) takes what is no version: %v", v, err)
		}
	})
}

func FuzzParsePage(f *testing.F) {
	for _, s := range []string{"", "1", "0", "100000", "100001", "-3", "+2", "02"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, v string) {
		if n, ok := ParsePage(v); ok && (n < 1 || n > 100_000) {
			t.Fatalf("ParsePage(%q) = %d", v, n)
		}
	})
}

func FuzzSession(f *testing.F) {
	s := &Server{keys: NewKeys([]byte("0123456789abcdef0123456789abcdef")), opts: Options{Now: func() time.Time { return t0 }}}
	f.Add(s.keys.Sign("session", "1001|"+strconv.FormatInt(t0.Unix()+60, 10)))
	f.Add("1001|99999999999." + strings.Repeat("A", tokenLen))
	f.Add(s.keys.Sign("signin", "1001|99999999999"))
	f.Add(".")
	f.Fuzz(func(t *testing.T, v string) {
		user, ok := s.openSession(v)
		if !ok {
			return
		}
		value, signed := s.keys.Open("session", v)
		if !signed || !strings.HasPrefix(value, user+"|") || !snowflake(user) {
			t.Fatalf("openSession(%q) = %q without a signature of ours", v, user)
		}
	})
}

func FuzzLocalNext(f *testing.F) {
	for _, s := range []string{"/g/1/abc", "//evil.example", "/\\evil.example", "https://evil.example/", "/a\r\nSet-Cookie: x", "", "/%2F%2Fevil", "/?next=//x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, next string) {
		got := localNext(next)
		u, err := url.Parse(got)
		if err != nil || !strings.HasPrefix(got, "/") || strings.HasPrefix(got, "//") || strings.ContainsAny(got, "\\\r\n") || u.Host != "" || u.Scheme != "" {
			t.Fatalf("localNext(%q) = %q: not a path on this listener", next, got)
		}
	})
}

// FuzzRequests sends the listener whatever a stranger may: no request
// makes it fail (5xx) or panic, and none without a game's token reads
// one.
func FuzzRequests(f *testing.F) {
	x := newSite(f, "g1", Options{ClientID: "42", ClientSecret: "s"})
	id := strconv.FormatUint(x.g.ID, 10)
	for _, s := range [][4]string{
		{"GET", "/g/" + id + "/" + strings.Repeat("A", tokenLen), "", ""},
		{"GET", "/g/" + id + "/x/events", "after=-1", ""},
		{"GET", "/lb/g1/" + strings.Repeat("B", tokenLen), "page=0", "ru"},
		{"GET", "/signin", "next=//evil", ""},
		{"GET", "/t/1/" + strings.Repeat("C", tokenLen), "", "fr"},
		{"GET", "/signin/callback", "code=a&state=" + strings.Repeat("0", 32), ""},
		{"POST", "/signout", "", ""},
		{"GET", "/static/../web.go", "", ""},
		{"GET", "/static/", "", ""},
		{"GET", "/", "", "*;q=2"},
	} {
		f.Add(s[0], s[1], s[2], s[3])
	}
	f.Fuzz(func(t *testing.T, method, path, query, lang string) {
		if !strings.HasPrefix(path, "/") || strings.ContainsAny(method, " \r\n\t") || method == "" {
			return
		}
		r := &http.Request{Method: method, URL: &url.URL{Path: path, RawQuery: query}, Header: http.Header{"Accept-Language": {lang},
			"Cookie": {sessionCookie + "=" + query}}, Host: "127.0.0.1", RequestURI: path}
		r = r.WithContext(t.Context())
		w := httptest.NewRecorder()
		x.s.ServeHTTP(w, r)
		if w.Code >= 500 {
			t.Fatalf("%s %s?%s: %d", method, path, query, w.Code)
		}
		if w.Header().Get("Content-Security-Policy") == "" {
			t.Fatalf("%s %s: no Content-Security-Policy", method, path)
		}
	})
}
