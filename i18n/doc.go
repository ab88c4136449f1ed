// Package i18n holds the texts players read, in the six languages the
// rules of Ice Age Chess are published in: English (en, the reference and
// the fallback), French (fr), Russian (ru), Norwegian Bokmål (nb), Spanish
// (es) and Dutch (nl). It uses github.com/nicksnyder/go-i18n/v2, so plural
// forms follow the CLDR rules of each language, and it has no Discord
// types: FromDiscord and DiscordLocales speak Discord's locale codes as
// plain strings.
//
// # Use
//
//	lang := i18n.FromDiscord(interaction.Locale) // "fr", "es-419", "no", … → French, Spanish, Norwegian
//	i18n.T(lang, "iceage.name", nil)             // "Âge de Glace"
//	i18n.N(lang, "count.days", 3, nil)           // "3 jours"
//	i18n.MoveError(lang, moveErr)                // from a *game.MoveError's Detail and data
//	i18n.SyntaxError(lang, syntaxErr)
//	i18n.Outcome(lang, o)                        // "Les Noirs gagnent : le roi blanc a gelé pendant l'Âge de Glace"
//	i18n.Countdown(lang, p.BlackMovesToIceAge())
//	i18n.FrozenMen(lang, ev.Frozen)
//	i18n.Quote(lang, typed)                      // « Nf9 » in French, “Nf9” in English
//	i18n.DiscordLocales("cmd.move.description")  // for a command's description_localizations
//
// The explanations of MoveError and SyntaxError start in lower case, as
// game's English messages do, to follow other words ("Ra5: …"); Sentence
// capitalises one to stand alone. Outcome and the countdown are sentences.
//
// Nothing here panics on a missing text: a message missing in a language
// is said in English, one missing in English too is its id, and either is
// told to the Reporter (SetReporter). The tests set a Reporter that fails,
// check that every language has every id and every plural form its CLDR
// rules ask for, and render every explanation in every language.
//
// # Message files
//
// Files named locales/NAME.LANG.yaml (LANG is the Lang code), embedded
// in the binary: active.LANG.yaml holds most messages, and a part of the
// program may keep its own apart (learn.LANG.yaml, web.LANG.yaml).
// Keys nest; an id is the keys on the way to a text, joined by dots:
// move_error.blocked_by_ice, piece.rook.def. A text is a Go text/template filled with the data the caller passes
// ({{.To}}, {{.Man.def}}); a choice between two wordings may use
// {{if .Kingside}}…{{else}}…{{end}}. A message with plural forms is a map
// of CLDR categories to texts, used with N, which passes the number as
// .Count:
//
//	count:
//	  days:
//	    one: "{{.Count}} день"
//	    few: "{{.Count}} дня"
//	    many: "{{.Count}} дней"
//	    other: "{{.Count}} дня"
//
// The categories go-i18n asks for: en, nb, nl one and other; fr and es
// one, many (for a million) and other; ru one, few, many and other. The
// words id, description, hash, leftDelim, rightDelim, zero, one, two, few,
// many and other are go-i18n's and name no group of messages.
//
// Names of men and sides come in the grammatical forms each language's
// sentences need: piece.KIND.FORM (KIND is king, queen, rook, bishop,
// knight or pawn) and color.SIDE.FORM (white or black). Every language has
// the form name (the bare noun, or the side's label), and the pieces the
// forms white and black ("the white knight"); the others are its own:
// French has def, indef, poss, a, none_of; Russian the cases gen, acc, ins
// and poss, none_of; and so on, listed at the top of each file. Every kind
// has the same forms. A sentence picks the form it needs, e.g.
// "у вас нет {{.Named.gen}}"; lists of men on squares (.Attackers) come in
// every form too, each man written with man_on ("{{.Man}} на {{.Square}}").
//
// House style: the player is "tu" in French, "вы" in Russian, "du" in
// Norwegian, "tú" in Spanish and "je" in Dutch; French puts a no-break
// space (\u00a0) before ":", ";", "?" and "!" and inside « », and
// Spanish opens "¡" and "¿" (tests check both); what a player typed is
// quoted by Quote, in each language's marks; the variant has its author's
// names (Échecs de l'Âge de Glace, masculine: un Âge de Glace; Ajedrez
// Edad de Hielo; Istid-sjakk; IJstijdschaken); moves are written in
// English SAN (Nf3, a8=Q), which is what the bot reads, and a text that
// asks for a move names the English letters.
//
// # Adding messages
//
// Give each new text an id that says what it is for, grouped by where it
// is shown (e.g. bot.challenge.accepted, cmd.move.description), never the
// English text itself. Add it to active.en.yaml first, then to the five
// other files: the tests fail while a language lacks an id, has one that
// English has not, lacks a plural category, or has one it does not use.
// Write it as a player of that language would say it, in the chess words of
// that language. Render it with T or N, passing every key the templates
// use: a missing key shows as "<no value>", which the tests look for.
// Texts for Discord command and option names must also obey Discord's
// rules for names (lower case, no spaces, at most 32 characters).
//
// A new language needs a Lang constant in languages, its Discord locales
// in FromDiscord and discordLocales, and its file with every id.
package i18n
