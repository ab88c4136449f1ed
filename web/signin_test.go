package web

import (
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/iceagechess/iceage/internal/fakediscord"
)

// TestAPlayerSignsInToWatchTheirDMGame: through the fake Discord's
// OAuth2, a player of a DM game signs in and sees its page; a stranger
// who signs in does not, and a callback with another state is refused.
func TestAPlayerSignsInToWatchTheirDMGame(t *testing.T) {
	fd := fakediscord.New(t)
	ann := fd.AddUser(fakediscord.User{Username: "ann"})
	eve := fd.AddUser(fakediscord.User{Username: "eve"})
	x := newSiteWith(t, "", Options{ClientID: fd.AppID(), ClientSecret: fd.ClientSecret(), DiscordURL: fd.URL()}, ann.ID)
	signIn := func(user string, tamper bool) map[string]string {
		t.Helper()
		resp, _ := x.get("/signin?next="+url.QueryEscape(x.path()), nil)
		loc, err := url.Parse(resp.Header.Get("Location"))
		if resp.StatusCode != http.StatusFound || err != nil || !strings.HasPrefix(loc.String(), fd.URL()+"oauth2/authorize?") {
			t.Fatalf("/signin: %d to %q, want a redirection to Discord's consent page", resp.StatusCode, loc)
		}
		q := loc.Query()
		if q.Get("client_id") != fd.AppID() || q.Get("response_type") != "code" || q.Get("scope") != "identify" {
			t.Errorf("the consent page's query %v", q)
		}
		state := q.Get("state")
		if tamper {
			state = strings.Repeat("0", 32)
		}
		var cookie string
		for _, c := range resp.Cookies() {
			if c.Name == stateCookie {
				cookie = c.Name + "=" + c.Value
				if !c.HttpOnly {
					t.Error("the sign-in state's cookie is readable by scripts")
				}
			}
		}
		back, _ := x.get("/signin/callback?"+url.Values{"code": {fd.Authorize(user)}, "state": {state}}.Encode(), map[string]string{"Cookie": cookie})
		if tamper {
			if back.StatusCode != http.StatusBadRequest {
				t.Errorf("a callback with another state: %d, want 400", back.StatusCode)
			}
			return nil
		}
		if back.StatusCode != http.StatusFound || back.Header.Get("Location") != x.path() {
			t.Fatalf("the callback: %d to %q, want back to the game's page", back.StatusCode, back.Header.Get("Location"))
		}
		for _, c := range back.Cookies() {
			if c.Name == sessionCookie {
				return map[string]string{"Cookie": c.Name + "=" + c.Value}
			}
		}
		t.Fatal("the callback set no sign-in cookie")
		return nil
	}
	signIn(ann.ID, true)
	if resp, _ := x.get(x.path(), signIn(eve.ID, false)); resp.StatusCode != http.StatusForbidden {
		t.Errorf("a stranger signed in: %d, want 403", resp.StatusCode)
	}
	if resp, body := x.get(x.path(), signIn(ann.ID, false)); resp.StatusCode != http.StatusOK {
		t.Errorf("the player signed in: %d, want 200: %s", resp.StatusCode, body)
	}
}
