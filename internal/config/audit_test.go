package config

import (
	"strings"
	"testing"
)

// TestAuditInputs: audit-closed-days is off when empty or 0, a whole
// number of days otherwise; reopening needs the audit on and a comment.
func TestAuditInputs(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		inputs map[string]string
		days   int
		reopen bool
		err    string
	}{
		{inputs: map[string]string{}},
		{inputs: map[string]string{InputAuditClosedDays: ""}},
		{inputs: map[string]string{InputAuditClosedDays: " 90 "}, days: 90},
		{inputs: map[string]string{InputAuditClosedDays: "30", InputReopenWronglyClosed: "TRUE"}, days: 30, reopen: true},
		{inputs: map[string]string{InputAuditClosedDays: "-1"}, err: `input "audit-closed-days": want a whole number of days from 0 (off) to 36500, got "-1"`},
		{inputs: map[string]string{InputAuditClosedDays: "36501"}, err: `want a whole number of days from 0 (off) to 36500, got "36501"`},
		{inputs: map[string]string{InputAuditClosedDays: "2w"}, err: `got "2w"`},
		{inputs: map[string]string{InputReopenWronglyClosed: "true"}, err: `input "reopen-wrongly-closed": is true, but audit-closed-days is 0 (off)`},
		{inputs: map[string]string{InputAuditClosedDays: "30", InputReopenWronglyClosed: "true", InputReopenMessage: ""},
			err: `input "reopen-message": is empty, but reopening posts it first`},
		{inputs: map[string]string{InputAuditClosedDays: "30", InputReopenWronglyClosed: "true", InputReopenMessage: "{{waiting-on-author}}"},
			err: `input "reopen-message": uses {{waiting-on-author}}`},
		{inputs: map[string]string{InputReopenMessage: "{{nope}}"}, err: `input "reopen-message"`},
	} {
		c, err := Parse(source(tc.inputs, nil))
		switch {
		case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)):
			t.Errorf("%v: error %v, want one containing %q", tc.inputs, err, tc.err)
		case tc.err == "" && err != nil:
			t.Errorf("%v: %v", tc.inputs, err)
		case tc.err == "" && (c.Policy.AuditClosedDays != tc.days || c.ReopenWronglyClosed != tc.reopen):
			t.Errorf("%v: days %d reopen %v, want %d %v", tc.inputs, c.Policy.AuditClosedDays, c.ReopenWronglyClosed, tc.days, tc.reopen)
		}
	}
}
