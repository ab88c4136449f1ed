package bot

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/iceagechess/iceage/game"
	"github.com/iceagechess/iceage/i18n"
	"github.com/iceagechess/iceage/play"
	"github.com/iceagechess/iceage/play/round"
	"github.com/iceagechess/iceage/tournament"
)

// The outbox's delivery loop: what an act leaves to do after its
// interaction is answered — the board the answer could not show, the
// direct messages, the engine's turn — is in the outbox (package round),
// committed with the act; the loop claims it, does it and marks it done.
const (
	// deliveryLease is how long a claimed item is this process's: an item
	// of a process that died is delivered by another after it.
	deliveryLease = 2 * time.Minute
	// deliveryPoll is how often the loop looks for items that came due
	// without news from this process (a hold that ended, another
	// process's retry, a claim that lapsed).
	deliveryPoll = 500 * time.Millisecond
	// deliveryBatch is the most items claimed at once.
	deliveryBatch = 32
	// deliveryWorkers deliver the items of different games at once; the
	// items of one game go in order.
	deliveryWorkers = 4
	// deliveryDeadline bounds one delivery, its retries on Discord's
	// rate limits included.
	deliveryDeadline = 30 * time.Second
	// deliveryTries is how often an item that Discord refuses for good
	// (a thread deleted, a permission lost) is tried before it is
	// dropped, with a line in the log.
	deliveryTries = 5
	// deliveryGiveUp is how often any item is tried before it is dropped:
	// with the backoff, about four hours of failures.
	deliveryGiveUp = 30
)

// wakeOutbox tells the loop that items may be due now.
func (b *Bot) wakeOutbox() { b.outbox.wakeUp() }

// shown marks the boards of an act that its interaction showed: the
// loop marks them done with what else it has done.
func (oc *outcomes) shown(out *round.Outcome) { oc.outbox.shown(out) }

// deliverOne delivers an item and marks it done, or schedules its retry.
// A delivery once begun is finished even as the bot stops, within its
// deadline, and Run waits for it: cut short, a post that Discord made
// would be made again at the next start, and its nonce stops the repeat
// for 5 minutes only.
func (b *Bot) deliverOne(ctx context.Context, it play.OutboxItem) {
	var err error
	ctx = context.WithoutCancel(ctx)
	ictx, cancel := context.WithTimeout(ctx, deliveryDeadline)
	defer cancel()
	switch it.Kind {
	case round.KindEngine:
		// The pool marks it done once the engine has played; while the
		// pool holds it, the claim keeps other processes off it.
		b.think(it.Game, it.Key)
		return
	case round.KindBoard:
		err = b.outcomes.deliverBoard(ictx, it)
	case round.KindTell:
		err = b.outcomes.deliverTells(ictx, it)
	case tournament.KindTask:
		err = b.tournaments.deliverTournament(ictx, it)
	case kindThread:
		err = b.threads.deliverThread(ictx, it)
	case play.OutboxDailyPuzzle:
		err = b.puzzles.deliverDailyPuzzle(ictx, it)
	case round.KindChallenge:
		err = b.challenges.deliverChallenge(ictx, it)
	case round.KindAnswered:
		err = b.challenges.deliverAnswered(ictx, it)
	default:
		err = fmt.Errorf("bot: an outbox item of kind %q", it.Kind)
	}
	var limited *rateLimited
	if errors.As(err, &limited) {
		if rerr := b.outbox.retry(ctx, it.Key, limited.at); rerr != nil {
			b.log.Error("scheduling an outbox item for the end of a rate limit", "key", it.Key, "err", rerr)
		}
		return
	}
	if err == nil || permanent(err) && it.Tries+1 >= deliveryTries || it.Tries+1 >= deliveryGiveUp {
		if err != nil {
			b.log.Error("dropping an outbox item that cannot be delivered", "key", it.Key, "game", it.Game, "tries", it.Tries+1, "err", err)
		}
		b.outbox.delivered(it.Key)
		if err == nil {
			b.Metrics.Delivered.Add(1)
			if b.Metrics.ObserveDelivery != nil {
				b.Metrics.ObserveDelivery(b.cfg.Now().Sub(it.Created))
			}
		}
		return
	}
	b.log.Warn("delivering an outbox item failed; trying again", "key", it.Key, "game", it.Game, "tries", it.Tries+1, "err", err)
	if rerr := b.outbox.retry(ctx, it.Key, b.cfg.Now().Add(play.OutboxBackoff(it.Tries+1))); rerr != nil {
		b.log.Error("scheduling an outbox item's retry", "key", it.Key, "err", rerr)
	}
}

// permanent reports a refusal of Discord's that trying again will not
// change: the channel is gone, the bot may not post there, the message is
// refused.
func permanent(err error) bool {
	var re *discordgo.RESTError
	if !errors.As(err, &re) || re.Response == nil {
		return false
	}
	switch re.Response.StatusCode {
	case http.StatusBadRequest, http.StatusForbidden, http.StatusNotFound:
		return true
	}
	return false
}

// deliverBoard posts an act's board in the game's channel: the act's
// answer could not show it, or nobody answered (the engine's move, a
// resignation's announcement). The post carries the item's nonce, so that
// a retry after a lost response posts nothing more.
func (oc *outcomes) deliverBoard(ctx context.Context, it play.OutboxItem) error {
	d, err := round.DecodeDelivery(it)
	if err != nil {
		return err
	}
	if oc.editThinking(ctx, &d) {
		return nil
	}
	return oc.postBoard(ctx, &d, nil)
}

// postBoard posts the board of d in its game's channel, under the nonce
// of its outbox item; m is the message, when it is drawn already.
func (oc *outcomes) postBoard(ctx context.Context, d *round.Delivery, m *message) error {
	if d.Game.Private {
		return oc.deliverPrivately(ctx, d)
	}
	if m == nil {
		var err error
		if m, err = oc.boards.deliveryMessage(ctx, oc.locales.guildLang(ctx, d.Game.Guild), d); err != nil {
			return err
		}
	}
	m.setNonce(nonce(d.Key))
	// The game may have moved since the act, its thread gone.
	channel := d.Game.Channel
	if g, err := oc.play.Game(ctx, d.Game.ID); err == nil {
		channel = g.Channel
	}
	_, err := oc.post(ctx, channel, m)
	if gone(err) {
		oc.threads.threadGone(ctx, d.Game.ID, channel)
	}
	if err == nil && len(m.Components) > 0 && len(m.images) > 0 {
		oc.threads.retireBoards(&d.Game, channel)
	}
	if err == nil {
		oc.threads.windDown(&d.Game, channel)
	}
	return err
}

// threadGone moves a game whose channel Discord refused as gone to a new
// thread, when the channel's parent can still be found: the gateway's
// THREAD_DELETE and THREAD_UPDATE do it otherwise. The item is tried
// again, in the new thread.
func (th *threads) threadGone(ctx context.Context, id uint64, channel string) {
	c, err := th.s.Channel(channel, discordgo.WithContext(ctx))
	if err != nil || c.ParentID == "" || !isThreadType(c.Type) {
		return
	}
	if g, err := th.play.Game(ctx, id); err == nil && !g.Over() && g.Channel == channel {
		th.rehome(ctx, &g, c.ParentID)
	}
}

// deliverTells tells the players of an act what they asked to be told
// apart from the board: by direct message.
func (oc *outcomes) deliverTells(ctx context.Context, it play.OutboxItem) error {
	d, err := round.DecodeDelivery(it)
	if err != nil {
		return err
	}
	g := &d.Game
	played := ""
	for _, e := range d.Events {
		if m, ok := e.(round.Moved); ok {
			played = m.SAN
		}
	}
	first := ""
	for _, e := range d.Events {
		if m, ok := e.(round.Moved); ok && first == "" {
			first = m.SAN
		}
	}
	for i, e := range d.Events {
		t, ok := e.(round.Tell)
		if !ok {
			continue
		}
		n := nonce(it.Key + "." + strconv.Itoa(i))
		switch t.Why {
		case round.YourMove, round.Paired:
			oc.notices.notifyTurn(ctx, g, t, played, n)
		case round.QueueDropped:
			oc.notices.notifyDropped(ctx, g, t, first, n)
		}
	}
	return nil
}

// outcomes show what an act did: the board in the answer, or posted
// when the answer could not show it (deliverAtOnce, and the outbox's
// items), the news told by direct message, the engine's reply edited
// into the board that waits for it. They hold what every feature
// shares, the bot's identity and life, the languages, the notices, the
// outbox, the answers on their way, the followers of private games, the
// way answers go, the boards and the threads.
type outcomes struct {
	*shared
	self      *identity
	life      *lifetime
	locales   *locales
	notices   *notices
	outbox    *deliveries
	answering *answering
	followers *followers
	answers   *answers
	boards    *boards
	threads   *threads
}

// deliverAtOnce posts, in the game's channel, the board that an act's
// answer could not show (m, drawn for the answer): at once, as the
// outbox would, under its item's nonce. The item stays held in the
// outbox until the post is through, so if the process dies meanwhile the
// next delivers it when the hold ends; if the post fails, the outbox
// takes it over now and retries.
func (oc *outcomes) deliverAtOnce(out round.Outcome, m *message) {
	// Finished even as the bot stops, as deliverOne's are.
	ctx, cancel := context.WithTimeout(context.WithoutCancel(oc.life.ctx()), deliveryDeadline)
	defer cancel()
	d := &out.Boards[len(out.Boards)-1]
	err := oc.postBoard(ctx, d, m)
	if err == nil {
		oc.shown(&out)
		oc.outbox.wakeUp()
		oc.metrics.Delivered.Add(1)
		if oc.metrics.ObserveDelivery != nil {
			oc.metrics.ObserveDelivery(oc.cfg.Now().Sub(d.Game.Updated))
		}
		return
	}
	oc.log.Warn("posting a board its answer could not show; the outbox retries", "game", d.Game.ID, "err", err)
	if rerr := oc.round.NotShown(context.WithoutCancel(ctx), &out); rerr != nil {
		oc.log.Error("handing a board to the outbox; it is posted when its hold ends", "game", d.Game.ID, "err", rerr)
	}
	oc.outbox.wakeUp()
}

// nonce is Discord's message nonce for an outbox key: at most 25
// characters, the same for every try of one item. With enforce_nonce,
// Discord answers a second post with the same nonce with the first
// message instead of posting again.
func nonce(key string) string {
	h := sha256.Sum256([]byte(key))
	return strconv.FormatUint(binary.BigEndian.Uint64(h[:8])>>1, 36)
}

// think hands the engine's turn in a game to the pool: it reports how
// many engine moves are ahead. The turn stays in the outbox until the
// engine has played.
func (b *Bot) think(game uint64, key string) (ahead int, ok bool) {
	return b.thinkers.submit(game, func(ctx context.Context) {
		_, _, err := b.round.EngineTurn(ctx, game, key)
		if err != nil && ctx.Err() == nil {
			b.log.Error("the engine's turn failed", "game", game, "err", err)
			return
		}
		b.wakeOutbox()
	})
}

// deliveryMessage is the message of an act's board, from its events: the
// interaction's answer, or the outbox's post when that failed. Whom it
// notifies is the act's decision (round.Delivery.Mentions).
func (bd *boards) deliveryMessage(ctx context.Context, lang i18n.Lang, d *round.Delivery) (*message, error) {
	g := &d.Game
	var moves []round.Moved
	var ended *round.Ended
	var offered *round.Offered
	var declined *round.Declined
	var took *round.TookBack
	var timedOut *round.TimedOut
	var rehomed *round.Rehomed
	var lapsed []round.Lapsed
	started := false
	marks := discordMarks
	for _, e := range d.Events {
		switch e := e.(type) {
		case round.Moved:
			moves = append(moves, e)
		case round.Ended:
			ended = &e
		case round.Offered:
			offered = &e
		case round.Declined:
			declined = &e
		case round.TookBack:
			took = &e
		case round.Lapsed:
			lapsed = append(lapsed, e)
		case round.Started:
			started = true
		case round.TimedOut:
			timedOut = &e
		case round.Rehomed:
			rehomed = &e
		}
	}
	mentions := d.Mentions()
	switch {
	case offered != nil && ended == nil:
		return offerMessage(lang, g, offered, mentions), nil
	case declined != nil:
		m := &message{Content: i18n.Event(lang, *declined, d.Act, marks)}
		m.mentionOnly()
		return m, nil
	case timedOut != nil:
		return bd.timeoutMessage(ctx, lang, d, timedOut, mentions)
	case rehomed != nil:
		key := "game.rehomed"
		if rehomed.Why == round.OwnThread {
			key = "game.own_thread"
		}
		return bd.boardMessage(ctx, lang, view{g: g, buttons: true, mention: mentions, act: d,
			headline: tr(lang, key, map[string]any{"White": mention(g.White.ID), "Black": mention(g.Black.ID)})})
	case took != nil:
		return bd.boardMessage(ctx, lang, view{g: g, headline: i18n.Event(lang, *took, d.Act, marks), buttons: true, ping: true, mention: mentions, act: d})
	case len(moves) > 0:
		first := moves[0]
		v := view{g: g, buttons: true, ping: true, mention: mentions, act: d, headline: i18n.Event(lang, first, d.Act, marks)}
		v.ice, v.after = iceAgeOf(d, first)
		if len(moves) > 1 && moves[1].Reply {
			reply := moves[1]
			v.headline += "\n" + i18n.Event(lang, reply, d.Act, marks)
			if ice, after := iceAgeOf(d, reply); ice != nil {
				v.ice, v.after = ice, after
			}
		}
		for _, l := range lapsed {
			v.headline += "\n" + i18n.Event(lang, l, d.Act, marks)
		}
		return bd.boardMessage(ctx, lang, v)
	case started:
		return bd.boardMessage(ctx, lang, view{g: g, headline: tr(lang, "game.started", nil), buttons: true, ping: true, mention: mentions, act: d})
	case ended != nil:
		return bd.boardMessage(ctx, lang, view{g: g, headline: i18n.Event(lang, *ended, d.Act, marks), mention: mentions, act: d})
	}
	return bd.boardMessage(ctx, lang, view{g: g, buttons: true, act: d})
}

// iceAgeOf returns the Ice Age that move m of d brought, and the
// position it left, from the act's events; nil when none came. Nothing
// is replayed: an item written before the events carried the Ice Age's
// detail (only one left in the outbox across that upgrade) is shown
// without its picture, its board showing the ice as it is.
func iceAgeOf(d *round.Delivery, m round.Moved) (*game.IceAge, game.Position) {
	for _, e := range d.Events {
		e, ok := e.(round.IceAge)
		if !ok || e.Ply != m.Ply {
			continue
		}
		if ice, after, ok := e.Detail(m.FEN); ok {
			return ice, after
		}
	}
	return nil, game.Position{}
}

// discordMarks write players as mentions and moves in bold.
var discordMarks = i18n.EventMarks{Player: mention, Move: func(san string) string { return "**" + san + "**" }}

// offerMessage shows a draw offer or a takeback request with the buttons
// that answer it, mentioning the player it is made to.
func offerMessage(lang i18n.Lang, g *play.Game, o *round.Offered, mentions []string) *message {
	yes, no := "button.accept_draw", "button.decline_draw"
	yesID, noID := idDrawYes.forGame(g), idDrawNo.forGame(g)
	if o.Offer == round.Takeback {
		yes, no = "button.accept_takeback", "button.decline_takeback"
		yesID, noID = idTakebackYes.forGame(g), idTakebackNo.forGame(g)
	}
	m := &message{Content: i18n.Event(lang, *o, 0, discordMarks),
		Components: []discordgo.MessageComponent{discordgo.ActionsRow{Components: []discordgo.MessageComponent{
			discordgo.Button{Label: tr(lang, yes, nil), Style: discordgo.SuccessButton, CustomID: yesID},
			discordgo.Button{Label: tr(lang, no, nil), Style: discordgo.SecondaryButton, CustomID: noID},
		}}}}
	m.mentionOnly(mentions...)
	return m
}
