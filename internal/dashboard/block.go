package dashboard

import (
	"strings"
	"time"
)

// Label marks the dashboard issue; stalepr owns it. The issue listing's
// label filter finds the issue with one request.
const Label = "stalepr-dashboard"

// The hidden markers around the block stalepr writes. They are a contract:
// every later version recognises them. Text outside them is the people's.
const (
	startMarker = "<!-- stalepr:dashboard -->"
	endMarker   = "<!-- /stalepr:dashboard -->"
	stampStart  = "<sub>Updated by stalepr at "
)

// Block is the marked block for content, stamped with now: what stalepr
// writes into the body.
func Block(content string, now time.Time) string {
	stamp := stampStart + now.UTC().Format("2006-01-02 15:04") + " UTC; it edits only between its hidden markers: " +
		"write above or below them.</sub>"
	return startMarker + "\n" + strings.TrimSpace(content) + "\n\n" + stamp + "\n" + endMarker
}

// Merge puts block in place of the marked block of body, keeping every
// character outside it; ok is false when body has no marked block (a person
// removed the markers: then the issue is theirs to keep as it is).
func Merge(body, block string) (merged string, ok bool) {
	i, j, ok := span(body)
	if !ok {
		return body, false
	}
	return body[:i] + block + body[j:], true
}

// Content is what body's marked block holds, without the "updated" line:
// what to compare with a new rendering. ok is false without a block.
func Content(body string) (string, bool) {
	i, j, ok := span(body)
	if !ok {
		return "", false
	}
	// GitHub's web editor saves a body it edits with CRLF line ends, ours
	// included: that alone is no change of content.
	inner := strings.ReplaceAll(body[i+len(startMarker):j-len(endMarker)], "\r\n", "\n")
	lines := strings.Split(inner, "\n")
	kept := lines[:0]
	for _, l := range lines {
		if !strings.HasPrefix(strings.TrimSpace(l), stampStart) {
			kept = append(kept, l)
		}
	}
	return strings.TrimSpace(strings.Join(kept, "\n")), true
}

// span is where body's marked block starts and ends (after its end
// marker). A marker counts only alone on its line, as Block writes it: a
// person's text that quotes one (`<!-- stalepr:dashboard -->` in backticks,
// or both in a sentence) is theirs and kept to the byte.
func span(body string) (start, end int, ok bool) {
	start = -1
	for at := 0; at < len(body); {
		line, next := body[at:], len(body)
		if n := strings.IndexByte(line, '\n'); n >= 0 {
			line, next = line[:n], at+n+1
		}
		switch strings.TrimSpace(line) {
		case startMarker:
			if start < 0 {
				start = at + strings.Index(line, startMarker)
			}
		case endMarker:
			if start >= 0 {
				return start, at + strings.Index(line, endMarker) + len(endMarker), true
			}
		}
		at = next
	}
	return 0, 0, false
}
