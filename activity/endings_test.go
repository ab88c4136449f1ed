package activity_test

import (
	"strings"
	"testing"

	"github.com/iceagechess/iceage/play/round"
)

// endedIn are the texts of a lobby's notices of ended challenges.
func endedIn(l map[string]any) []string {
	var out []string
	for _, n := range l["ended"].([]any) {
		out = append(out, n.(map[string]any)["text"].(string))
	}
	return out
}

// TestTheLobbyTellsTheOtherSide: a challenge that ends without a game is
// told to the side that did not end it, in their language: Bob (French)
// declines Alice's, and Alice reads that he did; Alice withdraws hers to
// Carol (Russian), and Carol reads it; a challenge that expired is told
// to both, and one declined with the buttons in the channel as well
// (ChallengeEnded). Whoever ended it is told nothing, nor is anyone
// else; after a while nothing is told any more.
func TestTheLobbyTellsTheOtherSide(t *testing.T) {
	w := newWorld(t)
	in := w.srv.LaunchActivity(w.lobby.ID, w.alice.ID, w.bob.ID, w.carol.ID).ID
	alice, bob, carol := w.signIn(t, w.alice), w.signIn(t, w.bob), w.signIn(t, w.carol)
	challenge := func(token, to, tc string) uint64 {
		t.Helper()
		status, got := w.call(t, "POST", "/api/challenge", token, challengeBody(in, to, tc, "white"))
		if status != 200 {
			t.Fatalf("a challenge: %d %v", status, got)
		}
		return uint64(got["challenge"].(float64))
	}
	answer := func(token string, id uint64) {
		t.Helper()
		if status, got := w.call(t, "POST", "/api/answer", token, answerBody(in, id, false)); status != 200 {
			t.Fatalf("an answer: %d %v", status, got)
		}
	}
	told := func(token string) string { return strings.Join(endedIn(w.lobbyOf(t, in, token)), " | ") }

	answer(bob, challenge(alice, w.bob.ID, "5+3"))
	if got := told(alice); got != "Bob declined your challenge (5+3 blitz)." {
		t.Errorf("Alice is told %q", got)
	}
	if got := told(bob); got != "" {
		t.Errorf("Bob, who declined, is told %q", got)
	}
	answer(alice, challenge(alice, w.carol.ID, "10+5"))
	if got := told(carol); got != "Alice отзывает свой вызов (10+5, рапид)." {
		t.Errorf("Carol is told %q", got)
	}
	if got := told(alice); strings.Contains(got, "withdrew") {
		t.Errorf("Alice, who withdrew, is told %q", got)
	}

	// Expired, and declined with the buttons in the channel: the bot
	// tells the Activity.
	expiring := challenge(bob, w.alice.ID, "3+2")
	c, err := w.round.Service().GetChallenge(t.Context(), expiring)
	if err != nil {
		t.Fatal(err)
	}
	w.act.ChallengeEnded(c, round.AnswerExpired)
	w.act.ChallengeEnded(c, round.AnswerExpired) // told once
	if got := told(alice); !strings.HasSuffix(got, "Bob's challenge (3+2 blitz) expired unanswered.") || strings.Count(got, "3+2") != 1 {
		t.Errorf("Alice is told %q", got)
	}
	if got := told(bob); !strings.Contains(got, "Ton défi à Alice (3+2 blitz) a expiré sans réponse.") {
		t.Errorf("Bob is told %q", got)
	}
	clicked := challenge(carol, w.bob.ID, "1+0")
	c, _ = w.round.Service().GetChallenge(t.Context(), clicked)
	w.act.ChallengeEnded(c, round.AnswerDeclined)
	if got := told(carol); !strings.Contains(got, "Bob отклоняет ваш вызов (1+0, пуля).") {
		t.Errorf("Carol is told %q", got)
	}
	// Dan, in none of them, is told nothing.
	w.srv.JoinActivity(in, w.dan.ID)
	w.now.Add(11)
	if got := told(w.signIn(t, w.dan)); got != "" {
		t.Errorf("Dan is told %q", got)
	}
	w.now.Add(120)
	for name, token := range map[string]string{"Alice": alice, "Bob": bob, "Carol": carol} {
		if got := told(token); got != "" {
			t.Errorf("two minutes on, %s is still told %q", name, got)
		}
	}
}
