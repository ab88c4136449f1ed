package web

import (
	"net/http"
	"strconv"
	"strings"

	"github.com/iceagechess/iceage/i18n"
)

// maxAcceptLanguage is the most of an Accept-Language header read: a
// browser's is a few dozen bytes; the rest of a longer one is ignored.
const maxAcceptLanguage = 256

// AcceptLanguage returns the language of the program's that header (an
// Accept-Language value) prefers most, and false when it names none of
// them. A malformed part is skipped; a language of quality 0 is refused,
// as the header means.
func AcceptLanguage(header string) (i18n.Lang, bool) {
	if len(header) > maxAcceptLanguage {
		header = header[:maxAcceptLanguage]
	}
	var best i18n.Lang
	bestQ := 0.0
	for part := range strings.SplitSeq(header, ",") {
		tag, params, _ := strings.Cut(part, ";")
		lang, ok := knownLang(strings.TrimSpace(tag))
		if !ok {
			continue
		}
		q := 1.0
		if params = strings.TrimSpace(params); params != "" {
			v, found := strings.CutPrefix(params, "q=")
			if !found {
				continue
			}
			f, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
			if err != nil || f < 0 || f > 1 || f != f {
				continue
			}
			q = f
		}
		if q > bestQ {
			best, bestQ = lang, q
		}
	}
	return best, bestQ > 0
}

// knownLang returns the program's language of a tag such as "fr-CA",
// "nb" or "no"; false for one it does not speak (or "*").
func knownLang(tag string) (i18n.Lang, bool) {
	base, _, _ := strings.Cut(strings.ToLower(tag), "-")
	switch base {
	case "en", "fr", "ru", "es", "nl", "nb":
		return i18n.Lang(base), true
	case "no", "nn":
		return i18n.Lang("nb"), true
	}
	return "", false
}

// lang is the language of a page for r: the viewer's own /settings
// language once signed in, else the browser's, else the listener's.
func (s *Server) lang(r *http.Request) i18n.Lang {
	if user, ok := s.signedIn(r); ok && s.opts.Play != nil {
		if p, err := s.opts.Play.Prefs(r.Context(), user); err == nil && p.Language != "" {
			if l, ok := knownLang(p.Language); ok {
				return l
			}
		}
	}
	if l, ok := AcceptLanguage(r.Header.Get("Accept-Language")); ok {
		return l
	}
	if l, ok := knownLang(s.opts.Language); ok {
		return l
	}
	return i18n.Lang("en")
}
