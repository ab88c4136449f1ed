package game

import (
	"fmt"
	"strconv"
	"unicode/utf8"
)

// maxQuoted is how many characters of a player's text an error keeps:
// enough to recognise what was typed, few enough that a pasted page does
// not come back as a page. The bot shows these errors in chat.
const maxQuoted = 40

// QuoteInput returns text as Go's %q verb quotes it, cut to its first 40
// characters with "…" after them when it is longer. An invalid UTF-8 byte
// counts as one character and shows as an escape such as \xff. Every error
// of this package that quotes a player's text (*SyntaxError, *MoveError,
// *FENError, *PGNError) quotes it this way, and their Text fields hold at
// most that prefix, so a front end may show any of them.
func QuoteInput(text string) string { return strconv.Quote(clipInput(text)) }

// ClipInput returns text cut to its first 40 characters, with "…" after
// them when it is longer: what QuoteInput quotes, for a front end that
// writes its own quotation marks.
func ClipInput(text string) string { return clipInput(text) }

// clipInput returns text cut to its first maxQuoted characters, with "…"
// appended when it was cut. A text already clipped comes back unchanged.
func clipInput(text string) string {
	i, n := 0, 0
	for i < len(text) && n < maxQuoted {
		_, size := utf8.DecodeRuneInString(text[i:])
		i += size
		n++
	}
	if i == len(text) {
		return text
	}
	if text[i:] == "…" {
		return text // clipped before: the ellipsis is the 41st character
	}
	return text[:i] + "…"
}

// describeChar names the character that starts text[i:] for an error
// message: 'ü' for a valid one, whatever its length in bytes, and the
// byte's value for a byte that is not UTF-8, which no character can show.
func describeChar(text string, i int) string {
	r, size := utf8.DecodeRuneInString(text[i:])
	if r == utf8.RuneError && size <= 1 {
		return fmt.Sprintf("the byte 0x%02X (not UTF-8 text)", text[i])
	}
	return strconv.QuoteRune(r)
}
