package i18n

import (
	"fmt"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"
)

// rendered returns every message of lang with every key filled, in every
// plural form, keyed by a name for errors.
func rendered(l Lang) map[string]string {
	out := map[string]string{}
	for _, id := range IDs(l) {
		d := everyKey(l)
		d["Rating"] = "1500" // a provisional rating's "1500?" is no question
		if id == "man_on" {
			d["Man"] = "…"
		}
		if len(pluralForms(loaded().messages[l][id])) > 1 {
			for _, n := range []int{1, 2, 5, 1000000} {
				out[fmt.Sprintf("%s %d", id, n)] = N(l, id, n, d)
			}
			continue
		}
		out[id] = T(l, id, d)
	}
	return out
}

// legendMark reports whether the ? at s[i] is a mark in a legend ("? a
// provisional rating", "?? a blunder"), not the end of a question.
func legendMark(s string, i int) bool {
	next := s[i+1:]
	return strings.HasPrefix(next, "?") || strings.HasPrefix(next, " ") || strings.HasPrefix(next, "\u00a0") ||
		(i > 0 && s[i-1] == '?')
}

// French sets a no-break space (U+00A0) before : ; ! ? and inside « »; a
// plain or narrow space there would let the line break before the mark.
func TestFrenchPunctuationHasNoBreakSpaces(t *testing.T) {
	strict(t)
	for id, s := range rendered(French) {
		for i, r := range s {
			prev, _ := utf8.DecodeLastRuneInString(s[:i])
			next, _ := utf8.DecodeRuneInString(s[i+utf8.RuneLen(r):])
			bad := false
			switch r {
			case ';', '!', '?':
				bad = prev != '\u00a0' && !(r == '?' && legendMark(s, i)) && !(r == '!' && prev == '?')
			case ':':
				// "partie:42" is what a player types; a colon in a sentence
				// is followed by a space or ends the text.
				bad = prev != '\u00a0' && (next == ' ' || next == utf8.RuneError || next == '\n')
			case '«':
				bad = next != '\u00a0'
			case '»':
				bad = prev != '\u00a0'
			}
			if bad {
				t.Errorf("fr %s: %q at byte %d wants a no-break space: %q", id, r, i, s)
			}
		}
		if strings.ContainsRune(s, '\u202f') {
			t.Errorf("fr %s: a narrow no-break space, where the others are U+00A0: %q", id, s)
		}
	}
}

// Spanish opens every exclamation with ¡ and every question with ¿.
func TestSpanishOpensExclamationsAndQuestions(t *testing.T) {
	strict(t)
	for id, s := range rendered(Spanish) {
		opens := map[rune]int{}
		for i, r := range s {
			switch r {
			case '¡', '¿':
				opens[r]++
			case '!':
				if opens['¡'] == 0 {
					t.Errorf("es %s: an exclamation without ¡: %q", id, s)
				}
				opens['¡']--
			case '?':
				if legendMark(s, i) {
					continue
				}
				if opens['¿'] == 0 {
					t.Errorf("es %s: a question without ¿: %q", id, s)
				}
				opens['¿']--
			}
		}
		if opens['¡'] > 0 || opens['¿'] > 0 {
			t.Errorf("es %s: ¡ or ¿ never closed: %q", id, s)
		}
	}
}

// The variant is called by its author's names, never by names of our own.
func TestTheVariantHasItsAuthorsNames(t *testing.T) {
	strict(t)
	names := map[Lang]string{English: "Ice Age Chess", French: "Échecs de l'Âge de Glace", Russian: "ледниковые шахматы",
		Norwegian: "Istid-sjakk", Spanish: "Ajedrez Edad de Hielo", Dutch: "IJstijdschaken"}
	astray := map[Lang][]string{
		French:    {"glaciaire", "glacial", "Ice Age", "une Âge", "Proposer nulle"},
		Spanish:   {"glacia", "glacial", "Ice Age", "rendir", "rindo", "rindió", "Negar"},
		Russian:   {"Ice Age", "грубая ошибка"},
		Norwegian: {"istidssjakk", "Istidssjakk", "oppgitt", "robot", "Robot"},
		Dutch:     {"ijstijdschaak", "IJstijdschaak ", "heeft al gezet"},
	}
	for _, l := range Languages() {
		title := T(l, "challenge.title", nil)
		if !strings.EqualFold(title, names[l]) && !strings.Contains(strings.ToLower(title), strings.ToLower(names[l])) {
			t.Errorf("%s: the challenge is titled %q, want the variant's name %q", l, title, names[l])
		}
		for id, s := range rendered(l) {
			for _, w := range astray[l] {
				if strings.Contains(s, w) {
					t.Errorf("%s %s: %q says %q", l, id, s, w)
				}
			}
		}
	}
}

func TestQuote(t *testing.T) {
	tests := []struct {
		lang       Lang
		text, want string
	}{
		{English, "hello", "“hello”"},
		{Dutch, "hallo", "“hallo”"},
		{French, "salut", "«\u00a0salut\u00a0»"},
		{Russian, "привет", "«привет»"},
		{Norwegian, "hei", "«hei»"},
		{Spanish, "hola", "«hola»"},
		{English, "", "“”"},
		{English, "a\tb\x00", `“a\tb\x00”`},
		{English, "\xffe4", `“\xffe4”`},
		{English, "zero\u200bwidth", `“zero\u200bwidth”`},
		{English, `"Nf3"`, `“"Nf3"”`},
		{English, strings.Repeat("x", 50), "“" + strings.Repeat("x", 40) + "…”"},
		{Lang("xx"), "e9", "“e9”"},
	}
	for _, tt := range tests {
		if got := Quote(tt.lang, tt.text); got != tt.want {
			t.Errorf("Quote(%s, %q) = %q, want %q", tt.lang, tt.text, got, tt.want)
		}
	}
}

// FuzzQuote: whatever a player types comes back as printable UTF-8 that
// keeps every printable character of its first 40.
func FuzzQuote(f *testing.F) {
	for _, s := range []string{"e4", "", "\xff\xfe", "«»", "\u202e", strings.Repeat("é", 45)} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, l := range Languages() {
			q := Quote(l, s)
			if !utf8.ValidString(q) {
				t.Fatalf("Quote(%s, %q) = %q, not UTF-8", l, s, q)
			}
			for _, r := range q {
				if !unicode.IsPrint(r) && r != '\u00a0' {
					t.Fatalf("Quote(%s, %q) = %q, with %U", l, s, q, r)
				}
			}
		}
	})
}
