package fakediscord_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/iceagechess/iceage/internal/fakediscord"
)

// WaitResponse returns an interaction's first callback whether it came
// before or after the wait began, never a later refused one, and gives up
// with the calls so far when its context ends.
func TestWaitResponseFindsTheFirstCallbackBeforeOrAfter(t *testing.T) {
	w := newWorld(t)
	answer := func(i *discordgo.InteractionCreate, text string) error {
		return w.dg.InteractionRespond(i.Interaction, &discordgo.InteractionResponse{
			Type: discordgo.InteractionResponseChannelMessageWithSource,
			Data: &discordgo.InteractionResponseData{Content: text},
		})
	}
	before := w.interaction(t, w.srv.Command(w.alice.ID, w.chess.ID, "board"))
	if err := answer(before, "first"); err != nil {
		t.Fatal(err)
	}
	if err := answer(before, "second"); err == nil {
		t.Fatal("a second callback was accepted")
	}
	if c, err := w.srv.WaitResponse(ctx(t), before.ID); err != nil || c.Err != nil || c.Message.Content != "first" {
		t.Errorf("the callback given before the wait: %v, %+v", err, c)
	}

	after := w.interaction(t, w.srv.Command(w.bob.ID, w.chess.ID, "board"))
	got := make(chan fakediscord.Call, 1)
	go func() {
		c, err := w.srv.WaitResponse(ctx(t), after.ID)
		if err != nil {
			t.Error(err)
		}
		got <- c
	}()
	time.Sleep(20 * time.Millisecond) // the wait begins first, most often
	if err := answer(after, "later"); err != nil {
		t.Fatal(err)
	}
	if c := <-got; c.Message.Content != "later" || c.InteractionID != after.ID {
		t.Errorf("the callback given during the wait: %+v", c)
	}

	never := w.interaction(t, w.srv.Command(w.bob.ID, w.chess.ID, "board"))
	short, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	if _, err := w.srv.WaitResponse(short, never.ID); err == nil || !strings.Contains(err.Error(), "the calls so far") {
		t.Errorf("a wait for an interaction never answered: %v", err)
	}
}
