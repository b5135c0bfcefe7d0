package config

import (
	"strconv"
	"strings"

	"github.com/stalepr/stalepr/internal/notice"
)

// The closure audit's inputs (README "Closure audit").
const (
	InputAuditClosedDays     = "audit-closed-days"
	InputReopenWronglyClosed = "reopen-wrongly-closed"
	InputReopenMessage       = "reopen-message"
)

// auditDays reads audit-closed-days: empty or 0 is off, otherwise a whole
// number of days up to maxDays (so the window's start cannot overflow).
func auditDays(field func(*Config) *int) target {
	return store(Count, field, func(p *parser, in Input) (int, bool) {
		v, _ := p.value(in)
		if strings.TrimSpace(v) == "" {
			return 0, true
		}
		n, err := strconv.Atoi(strings.TrimSpace(v))
		if err != nil || n < 0 || n > maxDays {
			p.fail(in.Name, "want a whole number of days from 0 (off) to %d, got %s", maxDays, quote(v))
			return 0, false
		}
		return n, true
	})
}

// audit checks the closure audit's inputs against each other.
func (p *parser) audit(c *Config) {
	if !c.ReopenWronglyClosed {
		return
	}
	switch {
	case c.Policy.AuditClosedDays == 0 && !p.failed(InputAuditClosedDays):
		p.fail(InputReopenWronglyClosed, "is true, but audit-closed-days is 0 (off): set audit-closed-days to the days of closes to audit")
	case c.ReopenMessage == "":
		// The comment's hidden marker is what keeps it to one reopening per PR.
		p.fail(InputReopenMessage, "is empty, but reopening posts it first; set a message, or reopen-wrongly-closed to false")
	case notice.Uses(c.ReopenMessage, "waiting-on-author"):
		p.fail(InputReopenMessage, "uses {{waiting-on-author}}: a wrongly closed pull request waited on its reviewers or maintainers; take the placeholder out")
	}
}
