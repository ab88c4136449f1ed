package i18n

import (
	"embed"
	"fmt"
	"io/fs"
	"maps"
	"path"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"unicode"
	"unicode/utf8"

	goi18n "github.com/nicksnyder/go-i18n/v2/i18n"
	"go.yaml.in/yaml/v3"
	"golang.org/x/text/language"
)

// Lang is one of the languages the texts are written in: a BCP 47 base
// language code.
type Lang string

// The languages, in the order Languages returns them.
const (
	English   Lang = "en"
	French    Lang = "fr"
	Russian   Lang = "ru"
	Norwegian Lang = "nb" // Bokmål
	Spanish   Lang = "es"
	Dutch     Lang = "nl"
)

var languages = []Lang{English, French, Russian, Norwegian, Spanish, Dutch}

// Languages returns every language, English first.
func Languages() []Lang { return slices.Clone(languages) }

// String returns the language code, e.g. "nb".
func (l Lang) String() string { return string(l) }

// known reports whether l is one of Languages.
func (l Lang) known() bool { return slices.Contains(languages, l) }

// FromDiscord returns the language for a Discord locale ("en-US", "fr",
// "no", "es-419", …), English for one it has no texts in. It also takes
// the common spellings of the same tags ("fr_FR", "NB", "es-MX").
func FromDiscord(locale string) Lang {
	s := strings.ToLower(strings.TrimSpace(locale))
	base, _, _ := strings.Cut(strings.ReplaceAll(s, "_", "-"), "-")
	switch base {
	case "fr":
		return French
	case "ru":
		return Russian
	case "no", "nb", "nn":
		return Norwegian // Discord's "no" is Bokmål; a Nynorsk reader reads it best
	case "es":
		return Spanish
	case "nl":
		return Dutch
	}
	return English
}

// discordLocales maps the Discord locales of the languages to them.
var discordLocales = []struct {
	locale string
	lang   Lang
}{
	{"en-US", English}, {"en-GB", English}, {"fr", French}, {"ru", Russian},
	{"no", Norwegian}, {"es-ES", Spanish}, {"es-419", Spanish}, {"nl", Dutch},
}

// DiscordLocales returns the message id in every language, keyed by the
// Discord locales that have one ("en-US", "en-GB", "fr", "ru", "no",
// "es-ES", "es-419", "nl"), as Discord takes the localizations of a
// command's name and description.
func DiscordLocales(id string) map[string]string {
	out := make(map[string]string, len(discordLocales))
	for _, d := range discordLocales {
		out[d.locale] = T(d.lang, id, nil)
	}
	return out
}

// DiscordLocalesOf returns the Discord locales that read lang.
func DiscordLocalesOf(lang Lang) []string {
	var out []string
	for _, d := range discordLocales {
		if d.lang == lang {
			out = append(out, d.locale)
		}
	}
	return out
}

//go:embed locales/*.yaml
var files embed.FS

// The catalog of every message, read from the embedded files the first
// time a text is asked for, not when the package starts: a command that
// says nothing to anyone (iceage pairings) never pays for parsing six
// languages. Its err is what went wrong reading them; tests insist on its
// being nil, and a bot built with a broken file still runs, saying
// message ids.
type catalog struct {
	bundle     *goi18n.Bundle
	localizers map[Lang]*goi18n.Localizer
	messages   map[Lang]map[string]*goi18n.Message
	// groups holds, by language and by id up to its last dot (e.g.
	// "piece.rook."), the last parts of the ids (the forms: "def", …).
	groups map[Lang]map[string][]string
	err    error
}

var loaded = sync.OnceValue(load)

func load() *catalog {
	c := &catalog{
		bundle:     goi18n.NewBundle(language.English),
		localizers: map[Lang]*goi18n.Localizer{},
		messages:   map[Lang]map[string]*goi18n.Message{},
		groups:     map[Lang]map[string][]string{},
	}
	c.err = c.read()
	return c
}

func (c *catalog) read() error {
	c.bundle.RegisterUnmarshalFunc("yaml", yaml.Unmarshal)
	for _, l := range languages {
		c.localizers[l] = goi18n.NewLocalizer(c.bundle, string(l))
		c.messages[l] = map[string]*goi18n.Message{}
	}
	names, err := fs.Glob(files, "locales/*.yaml")
	if err != nil {
		return err
	}
	var errs []string
	for _, name := range names {
		lang, ok := fileLang(name)
		if !ok {
			errs = append(errs, name+": not named NAME.LANG.yaml for one of the languages")
			continue
		}
		buf, err := files.ReadFile(name)
		if err != nil {
			errs = append(errs, err.Error())
			continue
		}
		mf, err := c.bundle.ParseMessageFileBytes(buf, name)
		if err != nil {
			errs = append(errs, name+": "+err.Error())
			continue
		}
		for _, m := range mf.Messages {
			if _, dup := c.messages[lang][m.ID]; dup {
				errs = append(errs, name+": "+m.ID+" is written in another file too")
			}
			c.messages[lang][m.ID] = m
		}
	}
	for _, l := range languages {
		if len(c.messages[l]) == 0 {
			errs = append(errs, "no messages in "+string(l))
		}
		c.groups[l] = map[string][]string{}
		for _, id := range slices.Sorted(maps.Keys(c.messages[l])) {
			if i := strings.LastIndexByte(id, '.'); i >= 0 {
				c.groups[l][id[:i+1]] = append(c.groups[l][id[:i+1]], id[i+1:])
			}
		}
	}
	if errs != nil {
		return fmt.Errorf("i18n: %s", strings.Join(errs, "; "))
	}
	return nil
}

// fileLang returns the language of a message file named
// locales/NAME.LANG.yaml: active.LANG.yaml, and the files of a part of
// the program that keeps its messages apart (web.LANG.yaml).
func fileLang(name string) (Lang, bool) {
	base, ok := strings.CutSuffix(path.Base(name), ".yaml")
	i := strings.LastIndexByte(base, '.')
	if !ok || i <= 0 {
		return "", false
	}
	l := Lang(base[i+1:])
	return l, l.known()
}

// A Reporter is told of a message that is missing in a language, or whose
// template fails; the text shown instead is the English one, or the id.
type Reporter func(lang Lang, id string, err error)

var reporter atomic.Pointer[Reporter]

// SetReporter makes f the Reporter (nil: none, as in production, where a
// missing text shows in English). Tests set one that fails the test, so a
// missing message is loud where it can be fixed. It returns the Reporter
// it replaces.
func SetReporter(f Reporter) Reporter {
	var old *Reporter
	if f == nil {
		old = reporter.Swap(nil)
	} else {
		old = reporter.Swap(&f)
	}
	if old == nil {
		return nil
	}
	return *old
}

func report(lang Lang, id string, err error) {
	if f := reporter.Load(); f != nil {
		(*f)(lang, id, err)
	}
}

// Has reports whether the message id is written in lang.
func Has(lang Lang, id string) bool {
	_, ok := loaded().messages[lang][id]
	return ok
}

// IDs returns the ids of the messages written in lang, sorted.
func IDs(lang Lang) []string {
	return slices.Sorted(maps.Keys(loaded().messages[lang]))
}

// T returns the message id in lang, its template filled with data (which
// may be nil). A message missing in lang is said in English, and one
// missing in English too is the id itself; either is told to the Reporter.
// An unknown lang is English.
func T(lang Lang, id string, data map[string]any) string {
	return localize(lang, id, nil, data)
}

// N is T for a message with plural forms: count chooses the form by the
// language's CLDR plural rules, and the template sees it as .Count (data
// may be nil). A count of zero says the message id+"_none" instead, where
// there is one ("No game is waiting for your move.", not "… in 0
// games."): no language's rules have a form for none.
func N(lang Lang, id string, count int, data map[string]any) string {
	if count == 0 && Has(English, id+"_none") {
		return T(lang, id+"_none", data)
	}
	d := make(map[string]any, len(data)+1)
	maps.Copy(d, data)
	d["Count"] = count
	return localize(lang, id, count, d)
}

func localize(lang Lang, id string, count any, data map[string]any) string {
	if !lang.known() {
		lang = English
	}
	cfg := &goi18n.LocalizeConfig{MessageID: id, PluralCount: count}
	if data != nil {
		cfg.TemplateData = data
	}
	localizers := loaded().localizers
	msg, err := localizers[lang].Localize(cfg)
	if err == nil {
		return msg
	}
	report(lang, id, err)
	if msg != "" {
		return msg // English, for a message missing in lang
	}
	if lang != English {
		if msg, err := localizers[English].Localize(cfg); err == nil {
			return msg
		}
	}
	return id
}

// Sentence returns s with its first letter in upper case, for showing one
// of the explanations (which start in lower case, to be put after other
// words) as a sentence of its own.
func Sentence(s string) string {
	if strings.HasPrefix(s, "ij") {
		return "IJ" + s[2:] // the Dutch digraph: "IJstijd"
	}
	r, n := utf8.DecodeRuneInString(s)
	if r == utf8.RuneError || unicode.IsUpper(r) {
		return s
	}
	return string(unicode.ToUpper(r)) + s[n:]
}
