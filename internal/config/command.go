package config

import (
	"strings"
	"unicode"
)

// InputReopenCommand is the reopen command's word (README "Reopen on
// command"): a comment starting with it asks stalepr to undo its stale
// close; empty turns the command off.
const InputReopenCommand = "reopen-command"

// maxCommandLen bounds the word: a comment's first word, not a sentence.
const maxCommandLen = 40

// command reads reopen-command: one word without spaces, or present but
// empty for off (only an absent input takes the default).
func command(field func(*Config) *string) target {
	return store(Text, field, func(p *parser, in Input) (string, bool) {
		v := p.valueOrOff(in)
		if strings.IndexFunc(v, unicode.IsSpace) >= 0 || len(v) > maxCommandLen {
			p.fail(in.Name, "want one word of at most %d characters, such as /reopen, or empty for off; got %s", maxCommandLen, quote(v))
			return "", false
		}
		return v, true
	})
}

// AsksReopen reports whether a comment's text asks for a command, as the
// commands read it (lifecycle.Policy.AsksCommand): the event path's first
// look, before any request.
func (c Config) AsksReopen(body string) bool { return c.Policy.AsksCommand(body) }
