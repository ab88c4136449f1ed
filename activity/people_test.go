package activity_test

import (
	"fmt"
	"testing"

	"github.com/iceagechess/iceage/internal/fakediscord"
)

// TestTheLobbyNamesEveryoneInTheInstance: the lobby lists everyone
// Discord's instance endpoint says is in the Activity, also those who
// never opened it here since the server started (Carol, Dan): their
// names are the server's for them, asked of Discord (Dan has no display
// name: his username). Alice may challenge Dan, whom she could not
// name before; someone outside the instance is still refused.
func TestTheLobbyNamesEveryoneInTheInstance(t *testing.T) {
	w := newWorld(t)
	in := w.srv.LaunchActivity(w.lobby.ID, w.alice.ID, w.bob.ID, w.carol.ID, w.dan.ID).ID
	alice := w.signIn(t, w.alice)
	l := w.lobbyOf(t, in, alice)
	var names []string
	for _, p := range l["people"].([]any) {
		names = append(names, p.(map[string]any)["name"].(string))
	}
	if got := fmt.Sprint(names); got != "[Bob Carol dan]" {
		t.Errorf("Alice's lobby lists %s, want [Bob Carol dan]: everyone in the instance but her, by name", got)
	}
	status, got := w.call(t, "POST", "/api/challenge", alice, challengeBody(in, w.dan.ID, "3+2", "white"))
	if status != 200 {
		t.Fatalf("Alice's challenge to Dan, who never opened the Activity: %d %v", status, got)
	}
	cs := w.outboxChallenges(t)
	if len(cs) != 1 || cs[0].To.ID != w.dan.ID || cs[0].To.Name != "dan" {
		t.Errorf("the challenge made is %+v, want one to Dan, named", cs)
	}
	w.srv.LeaveActivity(in, w.carol.ID)
	w.now.Add(11) // the instance is asked again
	if status, got := w.call(t, "POST", "/api/challenge", alice, challengeBody(in, w.carol.ID, "3+2", "white")); status != 409 {
		t.Errorf("a challenge to Carol, who left: %d %v, want refused", status, got)
	}
}

// TestACrowdIsNamedOverAFewPolls: a poll asks Discord for four names at
// most; the others come with the next polls.
func TestACrowdIsNamedOverAFewPolls(t *testing.T) {
	w := newWorld(t)
	ids := []string{w.alice.ID}
	for i := range 6 {
		ids = append(ids, w.srv.AddUser(fakediscord.User{Username: fmt.Sprintf("player%d", i)}).ID)
	}
	in := w.srv.LaunchActivity(w.lobby.ID, ids...).ID
	alice := w.signIn(t, w.alice)
	for i, want := range []int{4, 6, 6} {
		if got := len(w.lobbyOf(t, in, alice)["people"].([]any)); got != want {
			t.Errorf("poll %d lists %d people, want %d", i+1, got, want)
		}
	}
}
