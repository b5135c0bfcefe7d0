package report

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Rune limits for untrusted text, counted before escaping. An error's text
// holds ghapi's advice, up to about 500 runes, which a cut would end
// mid-sentence: its limit is there only for a server's words in it.
const (
	maxTitleRunes  = 100
	maxReasonRunes = 200
	maxErrRunes    = 1000
	maxURLBytes    = 400
)

// oneLine makes untrusted text safe to put on a single line: invalid UTF-8
// becomes U+FFFD, every control, line or paragraph separator and run of white
// space becomes one space, invisible bidi and zero-width formatting runes are
// dropped (they can make text read differently from what it is), and the
// result is trimmed and cut to max runes (max <= 0: no cut) with "…".
func oneLine(s string, max int) string {
	s = strings.ToValidUTF8(s, "\uFFFD")
	var b strings.Builder
	b.Grow(len(s))
	space := false
	n := 0
	cut := false
	for _, r := range s {
		switch {
		case r == '\u2028' || r == '\u2029' || r == '\u0085' || unicode.IsSpace(r) || unicode.IsControl(r):
			space = b.Len() > 0
			continue
		case invisible(r):
			continue
		}
		if max > 0 && n >= max {
			cut = true
			break
		}
		if space {
			b.WriteByte(' ')
			n++
			space = false
			if max > 0 && n >= max {
				cut = true
				break
			}
		}
		b.WriteRune(r)
		n++
	}
	out := b.String()
	if cut {
		out = strings.TrimRight(out, " ") + "…"
	}
	return out
}

// invisible reports runes that change how text is shown without being seen:
// bidi embeddings, overrides and isolates, zero-width joiners and spaces, the
// byte-order mark and soft hyphens.
func invisible(r rune) bool {
	switch {
	case r >= '\u200B' && r <= '\u200F', // zero-width space/joiners, LRM, RLM
		r >= '\u202A' && r <= '\u202E', // bidi embeddings and overrides
		r >= '\u2060' && r <= '\u2069', // word joiner, invisible operators, bidi isolates
		r == '\uFEFF', r == '\u00AD', r == '\u061C':
		return true
	}
	return false
}

// zwsp follows every '@' we print so that "@someone" never becomes a mention.
const zwsp = "\u200B"

// md escapes untrusted text for the middle of a markdown line (a table cell
// or after a heading's words; never a line's start): it is flattened to one
// line and cut to max runes, then every character that could open inline
// markdown, HTML or math, or end a table cell, is written as an HTML
// character reference, which CommonMark renders as the literal character and
// GFM does not take for a cell separator. '@' is followed by a zero-width
// space so it cannot mention anyone.
func md(s string, max int) string {
	s = oneLine(s, max)
	var b strings.Builder
	b.Grow(len(s) + len(s)/4)
	for _, r := range s {
		switch r {
		case '&':
			b.WriteString("&amp;")
		case '<':
			b.WriteString("&lt;")
		case '>':
			b.WriteString("&gt;")
		case '"':
			b.WriteString("&quot;")
		case '|', '\\', '`', '*', '_', '[', ']', '(', ')', '#', '~', '!', '$':
			fmt.Fprintf(&b, "&#%d;", r)
		case '@':
			b.WriteString("@" + zwsp)
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// safeURL returns u if it is a plain http(s) URL that can go inside a markdown
// link destination, percent-encoding everything outside a conservative set;
// "" when it is not usable.
func safeURL(u string) string {
	if len(u) > maxURLBytes || !utf8.ValidString(u) {
		return ""
	}
	lower := strings.ToLower(u)
	if !strings.HasPrefix(lower, "https://") && !strings.HasPrefix(lower, "http://") {
		return ""
	}
	var b strings.Builder
	for i := 0; i < len(u); i++ {
		c := u[i]
		switch {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9',
			strings.IndexByte("-._~/:?=%+,;", c) >= 0:
			b.WriteByte(c)
		default:
			fmt.Fprintf(&b, "%%%02X", c)
		}
	}
	return b.String()
}

// prLink is "[#12](url)", or "#12" when the URL is not usable.
func prLink(number int, url string) string {
	if u := safeURL(url); u != "" {
		return fmt.Sprintf("[#%d](%s)", number, u)
	}
	return fmt.Sprintf("#%d", number)
}

// ErrorText is an error as one line of at most maxErrRunes: what an
// annotation or a terminal line shows of an error GitHub's answer may have
// made long.
func ErrorText(err error) string { return oneLine(err.Error(), maxErrRunes) }
