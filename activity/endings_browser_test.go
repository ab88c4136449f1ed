package activity_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/iceagechess/iceage/internal/browsertest"
	"github.com/iceagechess/iceage/internal/fakediscord"
	"github.com/iceagechess/iceage/play"
)

// TestADeclineIsToldInABrowser: Bob (French) declines Alice's 5+3 in
// his window, and Alice's window tells her so where the card was, until
// she closes the notice; Bob's own challenge, declined by Alice with the
// buttons of its message in the channel, is told in his window, in
// French.
func TestADeclineIsToldInABrowser(t *testing.T) {
	browser := browsertest.New(t, 1000, 900)
	x := newLive(t)
	ctx := context.Background()
	if _, err := x.svc.SetPrefs(ctx, x.bob.ID, play.Prefs{Language: "fr"}, time.Now()); err != nil {
		t.Fatal(err)
	}
	lobby := x.srv.AddChannel(fakediscord.Channel{GuildID: x.guild.ID, Name: "lobby"})
	in := x.srv.LaunchActivity(lobby.ID, x.alice.ID, x.bob.ID)
	alice := x.openLobby(t, browser, in, x.alice)
	bob := x.openLobby(t, browser, in, x.bob)

	press(t, alice, `.times button[data-time="5+3"]`)
	press(t, alice, "#send")
	x.wait(t, bob, `act().querySelector("#incoming .challenge.incoming .decline") !== null`)
	press(t, bob, "#incoming .challenge.incoming .decline")
	x.wait(t, alice, `act().querySelector("#ended .notice") !== null && act().querySelector("#incoming .challenge") === null`)
	if got := eval[string](t, alice, `act().getElementById("ended").textContent`); !strings.Contains(got, "Bob declined your challenge (5+3 blitz).") {
		t.Errorf("Alice's window tells %q", got)
	}
	if got := eval[string](t, bob, `act().getElementById("ended").textContent`); got != "" {
		t.Errorf("Bob, who declined, is told %q", got)
	}
	shoot(t, alice, "activity-declined-desktop.png", 1000, 800)
	shoot(t, alice, "activity-declined-phone.png", 400, 860)
	press(t, alice, "#ended .notice .close")
	x.wait(t, alice, `act().querySelector("#ended .notice") === null`)
	time.Sleep(2500 * time.Millisecond) // a poll, which offers the notice again
	if got := eval[string](t, alice, `act().getElementById("ended").textContent`); got != "" {
		t.Errorf("a closed notice came back: %q", got)
	}

	// Bob challenges Alice; she declines with the buttons in #lobby.
	press(t, bob, `.times button[data-time="3+2"]`)
	press(t, bob, "#send")
	posted, err := x.srv.WaitFor(x.ctx(t), func(c fakediscord.Call) bool {
		return c.Kind == fakediscord.KindMessage && c.Message.ChannelID == lobby.ID && len(c.Message.Buttons()) == 2 &&
			len(c.Message.Embeds) == 1 && strings.Contains(c.Message.Embeds[0].Description, "3+2")
	})
	if err != nil {
		t.Fatalf("Bob's challenge was not posted in #lobby: %v", err)
	}
	x.srv.Click(x.alice.ID, posted.Message.ID, buttonOf(t, posted.Message, "decline"))
	x.wait(t, bob, `act().querySelector("#ended .notice") !== null`)
	if got := eval[string](t, bob, `act().getElementById("ended").textContent`); !strings.Contains(got, "Alice a refusé ton défi (3+2 blitz).") {
		t.Errorf("Bob's window tells %q", got)
	}
	shoot(t, bob, "activity-declined-fr-phone.png", 400, 860)
}
