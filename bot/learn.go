package bot

import (
	"bytes"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/bwmarrin/discordgo"

	"github.com/iceagechess/iceage/exercise"
	"github.com/iceagechess/iceage/game"
	"github.com/iceagechess/iceage/i18n"
	"github.com/iceagechess/iceage/lesson"
	"github.com/iceagechess/iceage/render"
)

// /learn: the lessons of package lesson, played privately with the
// two-click menus of a game (a man, then where it goes), in one
// ephemeral message that each click replaces. The men's menu offers
// every man of the solver's, and a man's menu every square its move
// reaches, barred ones too: a lesson teaches why a move is not legal,
// in the game's own words (exercise, i18n.TryResult). The attempt lives
// in the custom ids (exercise.Attempt.State: the wrong tries and the
// moves played), sealed for the clicker (seal.go) so that a modified
// client cannot forget its wrong tries, and nothing is kept between
// clicks but the stars a solved step earns (play.LessonProgress).

// lessons answers /learn and its clicks. It holds what every feature
// shares and the seals of the attempts its buttons carry; a lesson's
// progress is in play's records.
type lessons struct {
	*shared
	seals *seals
}

func lessonsOf(b *Bot) *lessons { return b.lessons }

func init() {
	addCommand(appCommand{name: "learn", reach: anywhere, run: runBy(lessonsOf, (*lessons).learnCommand), help: helpOther, declare: plain("learn")})
	clicks.handle(idLearnList, clickBy(lessonsOf, func(ls *lessons, in *interaction, _ idFields) error { return ls.learnList(in) }))
	clicks.handle(idLearnPick, clickBy(lessonsOf, (*lessons).learnPick))
	clicks.handle(idLearnGo, clickBy(lessonsOf, (*lessons).learnGo))
	clicks.handle(idLearnMan, clickBy(lessonsOf, (*lessons).learnMan))
	clicks.handle(idLearnTo, clickBy(lessonsOf, (*lessons).learnTo))
	clicks.handle(idLearnBack, clickBy(lessonsOf, (*lessons).learnBack))
	clicks.handle(idLearnHint, clickBy(lessonsOf, (*lessons).learnHint))
}

var (
	// idLearnList is the Lessons button: the list of lessons.
	idLearnList = pattern("ln:list")
	// idLearnPick is the menu of lessons; its value is a lesson's id.
	idLearnPick = pattern("ln:pick")
	// idLearnGo starts a step afresh: Next step, Next lesson, Start again.
	idLearnGo = pattern("ln:go:{lesson}:{step}")
	// idLearnMan is the men's menu of a step; its value is a square.
	idLearnMan = pattern("ln:man:{lesson}:{step}:{state}:{seal}")
	// idLearnTo is a man's menu of target squares; its value is a move
	// in UCI, legal or not.
	idLearnTo = pattern("ln:to:{lesson}:{step}:{state}:{seal}")
	// idLearnBack turns a man's menu back to the men's.
	idLearnBack = pattern("ln:back:{lesson}:{step}:{state}:{seal}")
	// idLearnHint shows a step's hint.
	idLearnHint = pattern("ln:hint:{lesson}:{step}:{state}:{seal}")
)

// learnPictureSize is the side of a lesson's board: read on a phone,
// in an ephemeral message.
const learnPictureSize = 400

// learnStep is the step a click is about, with its attempt.
type learnStep struct {
	lesson *lesson.Lesson
	index  int
	step   *lesson.Step
	try    *exercise.Attempt
	// user is the clicker, whom the state's seal is for.
	user string
}

// learnSeal is the purpose of a lesson's seals.
const learnSeal = "lesson"

// learnStepOf reads the lesson, step and (when the pattern has one)
// sealed state of a click; an id the bot did not make, or a state not
// sealed for the clicker, is errBadCustomID.
func (ls *lessons) learnStepOf(in *interaction, f idFields) (learnStep, error) {
	l, ok := lesson.ByID(f.str("lesson"))
	if !ok {
		return learnStep{}, fmt.Errorf("%w: lesson %q", errBadCustomID, f.str("lesson"))
	}
	n, err := f.num("step")
	if err != nil || n >= uint64(len(l.Steps)) {
		return learnStep{}, fmt.Errorf("%w: step %q of %s", errBadCustomID, f.str("step"), l.ID)
	}
	s := learnStep{lesson: l, index: int(n), step: &l.Steps[n], user: in.user}
	state := "0" // a step started afresh (idLearnGo)
	if strings.Contains(f.p.text, "{state}") {
		state = f.str("state")
		if !ls.seals.check(f.str("seal"), learnSeal, in.user, l.ID, f.str("step"), state) {
			return learnStep{}, fmt.Errorf("%w: state %q of step %d of %s is not sealed for %s", errBadCustomID, state, n+1, l.ID, in.user)
		}
	}
	s.try, err = exercise.Restore(&s.step.Exercise, state)
	if err != nil {
		return learnStep{}, fmt.Errorf("%w: %v", errBadCustomID, err)
	}
	return s, nil
}

// learnID returns the id of a step's button or menu at its attempt's state,
// sealed for the user.
func (ls *lessons) learnID(p idPattern, s *learnStep) string {
	step, state := strconv.Itoa(s.index), s.try.State()
	return p.id(s.lesson.ID, step, state, ls.seals.seal(learnSeal, s.user, s.lesson.ID, step, state))
}

// stars writes n stars of most: ★★☆.
func stars(n, most int) string {
	n = min(max(n, 0), most)
	return strings.Repeat("★", n) + strings.Repeat("☆", most-n)
}

func (ls *lessons) learnCommand(in *interaction, _ discordgo.ApplicationCommandInteractionData) error {
	m, err := ls.learnListMessage(in)
	if err != nil {
		return err
	}
	m.Flags = discordgo.MessageFlagsEphemeral
	return in.respond(m)
}

// learnList answers the Lessons button: the list, in place.
func (ls *lessons) learnList(in *interaction) error {
	m, err := ls.learnListMessage(in)
	if err != nil {
		return err
	}
	return in.update(learnReplacing(m))
}

// learnReplacing makes m replace a message wholly: its old pictures and
// embeds go.
func learnReplacing(m *message) *message {
	if m.Attachments == nil {
		m.Attachments = []attachment{}
	}
	if m.Embeds == nil {
		m.Embeds = []*discordgo.MessageEmbed{}
	}
	return m
}

// learnListMessage lists the lessons with the stars the user earned.
func (ls *lessons) learnListMessage(in *interaction) (*message, error) {
	p, err := ls.play.LessonProgress(in.ctx, in.user)
	if err != nil {
		return nil, err
	}
	var lines []string
	menu := discordgo.SelectMenu{CustomID: idLearnPick.id(), Placeholder: tr(in.lang, "learn.pick_lesson", nil)}
	total, most := 0, 0
	for k, l := range lesson.All() {
		got := p.Total(l.ID)
		total, most = total+got, most+l.MaxStars()
		title := strconv.Itoa(k+1) + ". " + tr(in.lang, l.TitleID(), nil)
		lines = append(lines, fmt.Sprintf("%s · %s", title, stars(got, l.MaxStars())))
		menu.Options = append(menu.Options, discordgo.SelectMenuOption{Label: truncate(title, 100), Value: l.ID,
			Description: truncate(i18n.N(in.lang, "learn.progress", got, map[string]any{"Max": l.MaxStars()}), 100)})
	}
	desc := tr(in.lang, "learn.intro", nil) + "\n\n" + strings.Join(lines, "\n")
	m := &message{Embeds: []*discordgo.MessageEmbed{{Title: tr(in.lang, "learn.title", nil), Description: truncate(desc, 4096), Color: colorOngoing,
		Footer: &discordgo.MessageEmbedFooter{Text: i18n.N(in.lang, "learn.progress", total, map[string]any{"Max": most})}}}}
	m.Components = []discordgo.MessageComponent{discordgo.ActionsRow{Components: []discordgo.MessageComponent{menu}}}
	return m, nil
}

// learnPick opens the lesson chosen in the list at its first step not
// solved yet (its first, once all are).
func (ls *lessons) learnPick(in *interaction, _ idFields) error {
	v, err := menuValue(in)
	if err != nil {
		return err
	}
	l, ok := lesson.ByID(v)
	if !ok {
		return fmt.Errorf("%w: lesson %q", errBadCustomID, v)
	}
	p, err := ls.play.LessonProgress(in.ctx, in.user)
	if err != nil {
		return err
	}
	first := 0
	for first < len(l.Steps) && p.Best(l.ID, first) > 0 {
		first++
	}
	if first == len(l.Steps) {
		first = 0
	}
	s := learnStep{lesson: l, index: first, step: &l.Steps[first], user: in.user}
	if s.try, err = exercise.New(&s.step.Exercise); err != nil {
		return err
	}
	return ls.learnShow(in, &s, learnNote{})
}

// learnGo starts a step afresh.
func (ls *lessons) learnGo(in *interaction, f idFields) error {
	s, err := ls.learnStepOf(in, f)
	if err != nil {
		return err
	}
	return ls.learnShow(in, &s, learnNote{})
}

// learnMan shows the squares the chosen man's move reaches.
func (ls *lessons) learnMan(in *interaction, f idFields) error {
	s, err := ls.learnStepOf(in, f)
	if err != nil {
		return err
	}
	from, err := menuSquare(in)
	if err != nil {
		return err
	}
	pos := s.try.Position()
	targets := exercise.Targets(&pos, from)
	if len(targets) == 0 {
		return fmt.Errorf("%w: no man of the solver's on %s", errBadCustomID, from)
	}
	return ls.learnShow(in, &s, learnNote{from: from, targets: targets})
}

// learnBack turns back to the men's menu.
func (ls *lessons) learnBack(in *interaction, f idFields) error {
	s, err := ls.learnStepOf(in, f)
	if err != nil {
		return err
	}
	return ls.learnShow(in, &s, learnNote{})
}

// learnHint shows the step's hint.
func (ls *lessons) learnHint(in *interaction, f idFields) error {
	s, err := ls.learnStepOf(in, f)
	if err != nil {
		return err
	}
	return ls.learnShow(in, &s, learnNote{hint: true})
}

// learnTo tries the chosen move and answers: why not, what went wrong,
// the reply, or the stars.
func (ls *lessons) learnTo(in *interaction, f idFields) error {
	s, err := ls.learnStepOf(in, f)
	if err != nil {
		return err
	}
	mv, v, err := menuMove(in)
	if err != nil {
		return err
	}
	pos := s.try.Position()
	if !isTarget(&pos, mv) {
		return fmt.Errorf("%w: %s is no target of the menu", errBadCustomID, v)
	}
	r := s.try.Try(mv)
	if r.Verdict == exercise.Solved {
		return ls.learnSolved(in, &s, &r)
	}
	return ls.learnShow(in, &s, learnNote{result: &r})
}

// isTarget reports whether m is among the targets a menu offers.
func isTarget(pos *game.Position, m game.Move) bool {
	for _, t := range exercise.Targets(pos, m.From()) {
		if t.Move == m {
			return true
		}
	}
	return false
}

// learnNote is what a step's message says besides the step: a man
// chosen and its targets, a try's result, the hint.
type learnNote struct {
	from    game.Square
	targets []exercise.Target
	result  *exercise.Result
	hint    bool
}

// learnPicture draws a step's board for the clicker.
func (ls *lessons) learnPicture(in *interaction, s *learnStep, pos *game.Position, from game.Square, refused *game.MoveError, last game.Move) (image, error) {
	var png bytes.Buffer
	opt := render.Options{Theme: ls.theme(in.ctx, in.user), Size: learnPictureSize, Words: i18n.BoardWords{Lang: in.lang}, FastPNG: true, LastMove: last}
	if err := s.step.Picture(&png, pos, from, refused, opt); err != nil {
		return image{}, fmt.Errorf("bot: drawing step %d of lesson %s: %w", s.index+1, s.lesson.ID, err)
	}
	return image{name: "lesson.png", data: png.Bytes(), alt: i18n.BoardDescription(in.lang, pos)}, nil
}

// learnEmbed is a step's text: the lesson, the rule, the goal.
func learnEmbed(lang i18n.Lang, s *learnStep) *discordgo.MessageEmbed {
	l := s.lesson
	desc := tr(lang, l.IntroID(), nil) + "\n\n**" + tr(lang, "learn.goal", nil) + ":** " + tr(lang, l.GoalID(s.index), nil) +
		"\n" + i18n.N(lang, "learn.stars_rule", s.step.Exercise.Par, nil)
	return &discordgo.MessageEmbed{Title: strconv.Itoa(lesson.Index(l.ID)+1) + ". " + tr(lang, l.TitleID(), nil), Description: desc, Color: colorOngoing,
		Image:  &discordgo.MessageEmbedImage{URL: "attachment://lesson.png"},
		Footer: &discordgo.MessageEmbedFooter{Text: tr(lang, "learn.step", map[string]any{"Step": s.index + 1, "Steps": len(l.Steps)})}}
}

// learnShow shows a step as its attempt stands, with the note.
func (ls *lessons) learnShow(in *interaction, s *learnStep, n learnNote) error {
	pos := s.try.Position()
	var refused *game.MoveError
	var content []string
	if r := n.result; r != nil {
		switch r.Verdict {
		case exercise.Illegal, exercise.Missed:
			errors.As(r.Err, &refused)
			line := "❌ **" + tr(in.lang, "learn.wrong", nil) + ":** " + i18n.TryResult(in.lang, r)
			if r.Verdict == exercise.Missed {
				line += " " + tr(in.lang, "learn.back_to_start", nil)
			}
			content = append(content, line)
		case exercise.Going:
			content = append(content, "✅ "+tr(in.lang, "learn.going", map[string]any{"Move": r.Move.SAN, "Reply": r.Reply.SAN}))
		}
		if r.IceAge != nil {
			content = append(content, "❄️ "+tr(in.lang, "iceage.title", nil)+" "+i18n.FrozenMen(in.lang, r.IceAge.Frozen))
		}
	}
	from := game.NoSquare
	if n.targets != nil {
		from = n.from
	}
	last := game.NullMove
	if r := n.result; r != nil && r.Verdict == exercise.Going {
		last = r.Reply.Move
	}
	pic, err := ls.learnPicture(in, s, &pos, from, refused, last)
	if err != nil {
		return err
	}
	e := learnEmbed(in.lang, s)
	if n.hint {
		e.Fields = append(e.Fields, &discordgo.MessageEmbedField{Name: "💡 " + tr(in.lang, "learn.hint", nil), Value: tr(in.lang, s.lesson.HintID(s.index), nil)})
	}
	m := &message{Content: strings.Join(content, "\n"), Embeds: []*discordgo.MessageEmbed{e}}
	m.attach(pic)
	if r := n.result; r != nil && r.Verdict == exercise.Missed {
		// What went wrong, as it stood after the move (and its Ice Age).
		var png bytes.Buffer
		opt := render.Options{Theme: ls.theme(in.ctx, in.user), Size: learnPictureSize, Words: i18n.BoardWords{Lang: in.lang}, FastPNG: true, LastMove: r.Move.Move}
		if r.Replied {
			opt.LastMove = r.Reply.Move
		}
		if err := render.PNG(&png, &r.After, opt); err != nil {
			return fmt.Errorf("bot: drawing a missed try of lesson %s: %w", s.lesson.ID, err)
		}
		m.attach(image{name: "missed.png", data: png.Bytes(), alt: i18n.BoardDescription(in.lang, &r.After)})
		m.Embeds = append(m.Embeds, &discordgo.MessageEmbed{Color: colorOngoing, Title: r.Move.SAN, Image: &discordgo.MessageEmbedImage{URL: "attachment://missed.png"}})
	}
	var first discordgo.MessageComponent
	if n.targets != nil {
		first = learnTargetMenu(in.lang, ls.learnID(idLearnTo, s), &pos, n.from, n.targets)
	} else {
		first = learnMenMenu(in.lang, ls.learnID(idLearnMan, s), &pos)
	}
	nav := []discordgo.MessageComponent{}
	if n.targets != nil {
		nav = append(nav, discordgo.Button{Label: tr(in.lang, "clickmove.other_man", nil), Style: discordgo.SecondaryButton,
			CustomID: ls.learnID(idLearnBack, s), Emoji: &discordgo.ComponentEmoji{Name: "↩️"}})
	}
	if !n.hint {
		nav = append(nav, discordgo.Button{Label: tr(in.lang, "learn.hint", nil), Style: discordgo.SecondaryButton,
			CustomID: ls.learnID(idLearnHint, s), Emoji: &discordgo.ComponentEmoji{Name: "💡"}})
	}
	if s.try.Moves() > 0 {
		nav = append(nav, discordgo.Button{Label: tr(in.lang, "learn.restart", nil), Style: discordgo.SecondaryButton,
			CustomID: idLearnGo.id(s.lesson.ID, s.index), Emoji: &discordgo.ComponentEmoji{Name: "🔄"}})
	}
	nav = append(nav, discordgo.Button{Label: tr(in.lang, "learn.lessons", nil), Style: discordgo.SecondaryButton, CustomID: idLearnList.id(),
		Emoji: &discordgo.ComponentEmoji{Name: "📚"}})
	m.Components = []discordgo.MessageComponent{
		discordgo.ActionsRow{Components: []discordgo.MessageComponent{first}},
		discordgo.ActionsRow{Components: nav},
	}
	return ls.learnAnswer(in, m)
}

// learnAnswer replaces the lesson's message, or opens it.
func (ls *lessons) learnAnswer(in *interaction, m *message) error {
	if onEphemeral(in) {
		return in.update(learnReplacing(m))
	}
	m.Flags = discordgo.MessageFlagsEphemeral
	return in.respond(m)
}

// learnMenMenu offers every man of the solver's that has a square to
// try (a king walled in by its own men has none).
func learnMenMenu(lang i18n.Lang, id string, pos *game.Position) discordgo.SelectMenu {
	menu := discordgo.SelectMenu{CustomID: id, Placeholder: tr(lang, "clickmove.pick_man", nil)}
	for _, sq := range exercise.Men(pos) {
		if len(exercise.Targets(pos, sq)) > 0 && len(menu.Options) < maxChoices {
			menu.Options = append(menu.Options, discordgo.SelectMenuOption{Label: i18n.ManOn(lang, pos.PieceAt(sq), sq), Value: sq.String()})
		}
	}
	return menu
}

// learnTargetMenu offers every square the man's move reaches (at most
// 25: a queen in the open reaches 27, and the farthest go).
func learnTargetMenu(lang i18n.Lang, id string, pos *game.Position, from game.Square, targets []exercise.Target) discordgo.SelectMenu {
	menu := discordgo.SelectMenu{CustomID: id, Placeholder: tr(lang, "learn.pick_target", nil)}
	for _, t := range targets[:min(len(targets), maxChoices)] {
		to := t.Move.To()
		label := to.String()
		if p := t.Move.Promotion(); p != game.NoKind {
			label += "=" + string(p.Letter())
		}
		if x := pos.PieceAt(from); x.Kind() == game.King && (to.File()-from.File() == 2 || from.File()-to.File() == 2) {
			label = pos.SAN(t.Move)
		}
		desc := tr(lang, "clickmove.to", map[string]any{"Square": to.String()})
		switch victim := pos.PieceAt(to); {
		case pos.IsIce(to):
			desc = tr(lang, "clickmove.takes_ice", nil)
		case victim != game.NoPiece:
			desc = tr(lang, "clickmove.takes", map[string]any{"Victim": i18n.PieceForms(lang, victim.Kind())})
		}
		menu.Options = append(menu.Options, discordgo.SelectMenuOption{Label: label, Value: t.Move.UCI(), Description: truncate(desc, 100)})
	}
	return menu
}

// learnSolved keeps the stars of a solved step and shows them, with the
// way on.
func (ls *lessons) learnSolved(in *interaction, s *learnStep, r *exercise.Result) error {
	earned := s.try.Stars()
	p, err := ls.play.EarnLessonStars(in.ctx, in.user, s.lesson.ID, s.index, earned, ls.cfg.Now())
	if err != nil {
		return fmt.Errorf("bot: keeping the stars of %s for %s: %w", s.lesson.ID, in.user, err)
	}
	last := r.Move.Move
	if r.Replied {
		last = r.Reply.Move
	}
	pic, err := ls.learnPicture(in, s, &r.After, game.NoSquare, nil, last)
	if err != nil {
		return err
	}
	lines := []string{"✅ " + tr(in.lang, "learn.solved", map[string]any{"Move": r.Move.SAN}) + " " +
		tr(in.lang, "learn.earned", map[string]any{"Stars": stars(earned, exercise.MaxStars)})}
	if r.IceAge != nil {
		lines = append(lines, "❄️ "+tr(in.lang, "iceage.title", nil)+" "+i18n.FrozenMen(in.lang, r.IceAge.Frozen))
	}
	done := true
	for k := range s.lesson.Steps {
		done = done && p.Best(s.lesson.ID, k) > 0
	}
	next := discordgo.Button{Style: discordgo.PrimaryButton, Emoji: &discordgo.ComponentEmoji{Name: "➡️"}}
	k := lesson.Index(s.lesson.ID)
	switch {
	case s.index+1 < len(s.lesson.Steps):
		next.Label, next.CustomID = tr(in.lang, "learn.next_step", nil), idLearnGo.id(s.lesson.ID, s.index+1)
	case k+1 < len(lesson.All()):
		next.Label, next.CustomID = tr(in.lang, "learn.next_lesson", nil), idLearnGo.id(lesson.All()[k+1].ID, 0)
	default:
		next.Label, next.CustomID = tr(in.lang, "learn.lessons", nil), idLearnList.id()
		lines = append(lines, "🏁 "+tr(in.lang, "learn.all_done", nil))
	}
	if done && s.index+1 == len(s.lesson.Steps) {
		lines = append(lines, "🎓 "+tr(in.lang, "learn.lesson_done", nil)+" "+
			i18n.N(in.lang, "learn.progress", p.Total(s.lesson.ID), map[string]any{"Max": s.lesson.MaxStars()}))
	}
	m := &message{Content: strings.Join(lines, "\n"), Embeds: []*discordgo.MessageEmbed{learnEmbed(in.lang, s)}}
	m.attach(pic)
	m.Components = []discordgo.MessageComponent{discordgo.ActionsRow{Components: []discordgo.MessageComponent{
		next,
		discordgo.Button{Label: tr(in.lang, "learn.restart", nil), Style: discordgo.SecondaryButton, CustomID: idLearnGo.id(s.lesson.ID, s.index),
			Emoji: &discordgo.ComponentEmoji{Name: "🔄"}},
		discordgo.Button{Label: tr(in.lang, "learn.lessons", nil), Style: discordgo.SecondaryButton, CustomID: idLearnList.id(),
			Emoji: &discordgo.ComponentEmoji{Name: "📚"}},
	}}}
	return ls.learnAnswer(in, m)
}
