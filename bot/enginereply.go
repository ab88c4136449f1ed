package bot

import (
	"context"
	"iter"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/iceagechess/iceage/i18n"
	"github.com/iceagechess/iceage/play/round"
)

// One board per engine reply: the board of a player's move against the
// engine says "The engine is thinking…", and the engine answers in
// milliseconds; a second board right under the first would show the same
// game twice. So the engine's board, when it is delivered, becomes that
// board: it is edited in place, and names both moves. Only when the
// thinking board is still the newest message of the game's channel,
// though: an edit notifies nobody, and a board lost above newer messages
// would go unseen; then, and whenever the edit fails, the engine's board
// is posted, as any other.

// thinkingWait is the longest the engine's board waits for the answer
// that shows the thinking board: Discord's three seconds to answer.
const thinkingWait = 3 * time.Second

// answering are the channels where an act's answer is on its way, each
// with a channel closed when it is given: the engine's board, which may
// come first, waits for it there.
type answering struct {
	byChannel sync.Map // channel id → chan struct{}, closed when answered
}

// start notes that an answer in channel is on its way; done notes that
// it was given, or failed.
func (a *answering) start(channel string) (done func()) {
	ch := make(chan struct{})
	a.byChannel.Store(channel, ch)
	return func() {
		a.byChannel.CompareAndDelete(channel, ch)
		close(ch)
	}
}

// wait waits, at most thinkingWait, for the answer on its way in
// channel, if one is.
func (a *answering) wait(ctx context.Context, channel string) {
	v, ok := a.byChannel.Load(channel)
	if !ok {
		return
	}
	t := time.NewTimer(thinkingWait)
	defer t.Stop()
	select {
	case <-v.(chan struct{}):
	case <-t.C:
	case <-ctx.Done():
	}
}

// answerInFlight notes that an act's answer in a channel is on its way;
// the function returned notes that it was given, or failed.
func (oc *outcomes) answerInFlight(channel string) func() { return oc.answering.start(channel) }

// editThinking edits the thinking board of d's game into the board of
// the engine's move that d delivers; false when d is no engine move, or
// no thinking board can take it, and the board is to be posted.
func (oc *outcomes) editThinking(ctx context.Context, d *round.Delivery) bool {
	g := &d.Game
	if g.Private || len(g.Moves) < 1 {
		return false
	}
	engineMoved := false
	for _, e := range d.Events {
		if m, ok := e.(round.Moved); ok && oc.self.isEngine(m.By) && m.Ply == g.Ply() {
			engineMoved = true
		}
	}
	if !engineMoved {
		return false
	}
	channel := g.Channel
	if cur, err := oc.play.Game(ctx, g.ID); err == nil {
		channel = cur.Channel
	}
	// The engine may answer before the player's move is: Do hands it the
	// turn at once. Its board waits for the thinking board, a moment.
	oc.answering.wait(ctx, channel)
	msgs, err := oc.s.ChannelMessages(channel, 1, "", "", "", discordgo.WithContext(ctx))
	if err != nil || len(msgs) == 0 || !oc.threads.isBoardOf(msgs[0], g.ID) {
		return false
	}
	// Not the board of the move the engine answered: nor is the engine's
	// own board, should an earlier try have posted it, whose post again
	// is answered by Discord with the first (its nonce).
	if rev, ok := boardRevision(msgs[0], g.ID); !ok || rev != g.Revision-1 {
		return false
	}
	lang := oc.locales.guildLang(ctx, g.Guild)
	m, err := oc.boards.deliveryMessage(ctx, lang, d)
	if err != nil {
		return false
	}
	if g.Ply() == 1 {
		// The engine opened: the start board's words stay.
		lines := []string{tr(lang, "game.started", nil), m.Content}
		if oc.boards.firstGame(ctx, g) {
			lines = append(lines, "♟️ "+tr(lang, "clickmove.how_to", nil))
		}
		m.Content = strings.Join(lines, "\n")
	} else {
		// The player's move the board showed stays named above the
		// engine's; the picture of an Ice Age it brought stays too, on
		// its own board.
		// Told as the moves carry it: nothing replays the game.
		before, iceAge, ok := round.Said(g, g.Ply()-1)
		if !ok || iceAge {
			return false
		}
		m.Content = i18n.Event(lang, before, d.Act, discordMarks) + "\n" + m.Content
	}
	if _, err := oc.request(ctx, http.MethodPatch, discordgo.EndpointChannelMessage(channel, msgs[0].ID), m, m); err != nil {
		oc.log.Warn("editing the thinking board into the engine's; posting it instead", "game", g.ID, "err", err)
		return false
	}
	oc.threads.windDown(g, channel)
	return true
}

// boardRevision is the revision of game id that board m shows, read from
// its buttons' ids.
func boardRevision(m *discordgo.Message, id uint64) (int, bool) {
	for f := range buttonsOfGame(m, id) {
		if rev, err := f.num("rev"); err == nil {
			return int(rev), true
		}
	}
	return 0, false
}

// buttonsOfGame yields the fields of m's buttons that act on game id.
func buttonsOfGame(m *discordgo.Message, id uint64) iter.Seq[idFields] {
	return func(yield func(idFields) bool) {
		for _, row := range m.Components {
			r, ok := row.(*discordgo.ActionsRow)
			if !ok {
				continue
			}
			for _, c := range r.Components {
				btn, ok := c.(*discordgo.Button)
				if !ok || btn.CustomID == "" {
					continue
				}
				_, f, ok := clicks.match(btn.CustomID)
				if !ok {
					continue
				}
				if n, err := f.num("game"); err != nil || n != id {
					continue
				}
				if !yield(f) {
					return
				}
			}
		}
	}
}
