package config

import (
	"strings"
	"testing"
)

// TestReopenCommandInput: reopen-command is /reopen unless set; set empty
// it is off; one word, never a sentence.
func TestReopenCommandInput(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		inputs map[string]string
		want   string
		err    string
	}{
		{inputs: map[string]string{}, want: "/reopen"},
		{inputs: map[string]string{InputReopenCommand: ""}, want: ""},
		{inputs: map[string]string{InputReopenCommand: " /open "}, want: "/open"},
		{inputs: map[string]string{InputReopenCommand: "/reopen please"}, err: `input "reopen-command": want one word`},
		{inputs: map[string]string{InputReopenCommand: "/" + strings.Repeat("x", 40)}, err: `input "reopen-command": want one word of at most 40 characters`},
	} {
		c, err := Parse(source(tc.inputs, nil))
		switch {
		case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)):
			t.Errorf("%v: error %v, want one containing %q", tc.inputs, err, tc.err)
		case tc.err == "" && err != nil:
			t.Errorf("%v: %v", tc.inputs, err)
		case tc.err == "" && c.Policy.ReopenCommand != tc.want:
			t.Errorf("%v: %q, want %q", tc.inputs, c.Policy.ReopenCommand, tc.want)
		}
	}
	if c, _ := Parse(source(nil, nil)); !c.AsksReopen("/reopen") || c.AsksReopen("reopen it") {
		t.Error("AsksReopen does not read the command as the rule does")
	}
}
