// Package i18n gives the bot's texts in the six languages the rules of
// Ice Age Chess are published in: English, French, Russian, Norwegian
// (Bokmål), Spanish and Dutch.
//
// # Basics
//
// Messages live in locales/<lang>.json, one file per language, embedded
// in the program; keys are message ids ("board.your_move"), values a Go
// template ("{{.Player}}, your move") or, for a message that counts, an
// object of CLDR plural forms ({"one": …, "few": …, "many": …, "other":
// …}) chosen by go-i18n's CLDR rules: Russian needs one, few, many and
// other. T returns a message, N one that counts; Man, Outcome,
// MoveError and SyntaxError put game's values into words. FromDiscord
// maps a Discord locale to a language, English last.
//
// To add a message: add its id and English text to locales/en.json,
// then its translation to every other file. TestEveryMessageInEveryLanguage
// fails until each language has it, with every plural form its grammar
// needs. Write as a player of that language would say it, with its chess
// words.
//
// # Caveats
//
// A missing message never panics in production: T falls back to English,
// then to the id itself, so a gap shows as an odd word, not a crash.
package i18n

import (
	"embed"
	"encoding/json"
	"fmt"
	"maps"
	"strings"
	"sync"

	goi18n "github.com/nicksnyder/go-i18n/v2/i18n"
	"golang.org/x/text/language"
)

// Lang is one of the languages the bot speaks.
type Lang string

const (
	English   Lang = "en"
	French    Lang = "fr"
	Russian   Lang = "ru"
	Norwegian Lang = "nb"
	Spanish   Lang = "es"
	Dutch     Lang = "nl"
)

// Langs are all the languages, English first.
var Langs = []Lang{English, French, Russian, Norwegian, Spanish, Dutch}

//go:embed locales/*.json
var files embed.FS

var load = sync.OnceValues(func() (*goi18n.Bundle, error) {
	b := goi18n.NewBundle(language.English)
	for _, l := range Langs {
		name := "locales/" + string(l) + ".json"
		data, err := files.ReadFile(name)
		if err != nil {
			return nil, err
		}
		// go-i18n takes the language from the file name.
		if _, err := b.ParseMessageFileBytes(data, string(l)+".json"); err != nil {
			return nil, fmt.Errorf("i18n: %s: %w", name, err)
		}
	}
	return b, nil
})

var localizers = sync.OnceValue(func() map[Lang]*goi18n.Localizer {
	b, err := load()
	if err != nil {
		panic(err) // the files are embedded: a test catches this
	}
	m := map[Lang]*goi18n.Localizer{}
	for _, l := range Langs {
		m[l] = goi18n.NewLocalizer(b, string(l), string(English))
	}
	return m
})

// T returns message id in lang, its template filled from data.
func T(lang Lang, id string, data map[string]any) string {
	return localize(lang, id, nil, data)
}

// N returns message id in lang in the plural form for count; the
// template sees the count as {{.Count}}.
func N(lang Lang, id string, count int, data map[string]any) string {
	d := maps.Clone(data)
	if d == nil {
		d = map[string]any{}
	}
	d["Count"] = count
	return localize(lang, id, count, d)
}

func localize(lang Lang, id string, count any, data map[string]any) string {
	loc, ok := localizers()[lang]
	if !ok {
		loc = localizers()[English]
	}
	s, err := loc.Localize(&goi18n.LocalizeConfig{MessageID: id, TemplateData: data, PluralCount: count})
	if err != nil || s == "" {
		if lang != English {
			return localize(English, id, count, data)
		}
		return id
	}
	return s
}

// discordLocales maps Discord's locale codes to our languages.
var discordLocales = map[string]Lang{
	"en-US": English, "en-GB": English, "fr": French, "ru": Russian, "no": Norwegian,
	"es-ES": Spanish, "es-419": Spanish, "nl": Dutch,
}

// FromDiscord returns the language for a Discord locale ("fr", "es-419",
// "no", …) or one of ours ("nb"); English for anything else.
func FromDiscord(locale string) Lang {
	if l, ok := discordLocales[locale]; ok {
		return l
	}
	base, _, _ := strings.Cut(strings.ToLower(locale), "-")
	switch base {
	case "fr", "ru", "es", "nl", "nb":
		return Lang(base)
	case "no", "nn":
		return Norwegian
	}
	return English
}

// DiscordLanguages maps every Discord locale we translate into to its
// language, English aside.
func DiscordLanguages() map[string]Lang {
	m := map[string]Lang{}
	for loc, l := range discordLocales {
		if l != English {
			m[loc] = l
		}
	}
	return m
}

// DiscordLocales returns message id in every language but English, keyed
// by Discord locale code, for command names and descriptions.
func DiscordLocales(id string) map[string]string {
	m := map[string]string{}
	for loc, l := range DiscordLanguages() {
		m[loc] = T(l, id, nil)
	}
	return m
}

// Messages returns a language's file as it is written: each id with a
// string, or a map of plural forms. For tests and tools.
func Messages(lang Lang) (map[string]any, error) {
	data, err := files.ReadFile("locales/" + string(lang) + ".json")
	if err != nil {
		return nil, err
	}
	var m map[string]any
	if err := json.Unmarshal(data, &m); err != nil {
		return nil, fmt.Errorf("i18n: locales/%s.json: %w", lang, err)
	}
	return m, nil
}
