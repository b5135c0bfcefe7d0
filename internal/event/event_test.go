package event

import (
	"strings"
	"testing"
)

func TestParse(t *testing.T) {
	t.Parallel()
	for name, tc := range map[string]struct {
		event, payload string
		want           Event
		skip, err      string
	}{
		"a comment on a PR": {"issue_comment", `{"action":"created","issue":{"number":12,"state":"open","pull_request":{"url":"u"}},"repository":{"full_name":"octo/repo"},"sender":{"login":"alice","type":"User"}}`,
			Event{Name: "issue_comment", Repository: "octo/repo", Action: "created", Number: 12, Sender: "alice"}, "", ""},
		"a comment on an issue": {"issue_comment", `{"action":"created","issue":{"number":12,"state":"open"},"repository":{"full_name":"octo/repo"},"sender":{"login":"alice","type":"User"}}`,
			Event{Name: "issue_comment", Repository: "octo/repo", Action: "created", Sender: "alice"}, "not a pull request", ""},
		"a review": {"pull_request_review", `{"action":"submitted","pull_request":{"number":3,"state":"open"},"repository":{"full_name":"octo/repo"},"sender":{"login":"maya","type":"User"}}`,
			Event{Name: "pull_request_review", Repository: "octo/repo", Action: "submitted", Number: 3, Sender: "maya"}, "", ""},
		"a push to a closed PR": {"pull_request_target", `{"action":"synchronize","pull_request":{"number":3,"state":"closed"},"repository":{"full_name":"octo/repo"},"sender":{"login":"alice","type":"User"}}`,
			Event{Name: "pull_request_target", Repository: "octo/repo", Action: "synchronize", Number: 3, Closed: true, Sender: "alice"}, "closed", ""},
		"a bot's label, read as the sweep reads it": {"pull_request_target", `{"action":"labeled","pull_request":{"number":3,"state":"open"},"repository":{"full_name":"octo/repo"},"sender":{"login":"github-actions[bot]","type":"Bot"}}`,
			Event{Name: "pull_request_target", Repository: "octo/repo", Action: "labeled", Number: 3, Sender: "github-actions[bot]"}, "", ""},
		"a milestone, activity to the sweep": {"pull_request_target", `{"action":"milestoned","pull_request":{"number":3,"state":"open"},"repository":{"full_name":"octo/repo"},"sender":{"login":"alice","type":"User"}}`,
			Event{Name: "pull_request_target", Repository: "octo/repo", Action: "milestoned", Number: 3, Sender: "alice"}, "", ""},
		"a comment in another repository": {"issue_comment", `{"action":"created","issue":{"number":12,"state":"open","pull_request":{"url":"u"}},"repository":{"full_name":"acme/tools"},"sender":{"login":"alice","type":"User"}}`,
			Event{Name: "issue_comment", Action: "created", Repository: "acme/tools", Number: 12, Sender: "alice"}, "not in Octo/Repo", ""},
		"no repository": {"pull_request_review", `{"action":"submitted","pull_request":{"number":3,"state":"open"},"sender":{"login":"maya","type":"User"}}`,
			Event{Name: "pull_request_review", Action: "submitted", Number: 3, Sender: "maya"}, "names no repository", ""},
		// A comment on a closed PR asks something only when it is the
		// reopen command ("/reopen" here, as the test's asks says).
		"a reopen command on a closed PR": {"issue_comment", `{"action":"created","issue":{"number":12,"state":"closed","pull_request":{"url":"u"}},"comment":{"body":"/reopen"},"repository":{"full_name":"octo/repo"},"sender":{"login":"alice","type":"User"}}`,
			Event{Name: "issue_comment", Repository: "octo/repo", Action: "created", Number: 12, Closed: true, Sender: "alice", Comment: "/reopen"}, "", ""},
		"another comment on a closed PR": {"issue_comment", `{"action":"created","issue":{"number":12,"state":"closed","pull_request":{"url":"u"}},"comment":{"body":"thanks! /reopen"},"repository":{"full_name":"octo/repo"},"sender":{"login":"alice","type":"User"}}`,
			Event{Name: "issue_comment", Repository: "octo/repo", Action: "created", Number: 12, Closed: true, Sender: "alice", Comment: "thanks! /reopen"}, "closed", ""},
		"no sender":       {"pull_request_review_comment", `{"action":"created","pull_request":{"number":3}}`, Event{}, "", "no sender"},
		"no pull request": {"pull_request_review", `{"action":"submitted","repository":{"full_name":"octo/repo"},"sender":{"login":"a","type":"User"}}`, Event{}, "", "no pull request"},
		"not JSON":        {"issue_comment", `{"action"`, Event{}, "", "not JSON"},
	} {
		t.Run(name, func(t *testing.T) {
			got, err := Parse(tc.event, []byte(tc.payload))
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("err %v, want one saying %q", err, tc.err)
				}
				return
			}
			if err != nil || got != tc.want {
				t.Fatalf("Parse = %+v, %v; want %+v", got, err, tc.want)
			}
			asks := func(c string) bool { return c == "/reopen" }
			if skip := got.Skip("Octo/Repo", asks); tc.skip == "" && skip != "" || tc.skip != "" && !strings.Contains(skip, tc.skip) {
				t.Errorf("Skip = %q, want %q", skip, tc.skip)
			}
		})
	}
}

func TestOnePR(t *testing.T) {
	t.Parallel()
	for name, want := range map[string]bool{"issue_comment": true, "pull_request_target": true, "pull_request_review": true,
		"pull_request_review_comment": true, "schedule": false, "workflow_dispatch": false, "push": false} {
		if OnePR(name) != want {
			t.Errorf("OnePR(%q) = %v", name, !want)
		}
	}
}

func TestUnknown(t *testing.T) {
	t.Parallel()
	for _, name := range []string{"", "schedule", "workflow_dispatch", "issue_comment", "pull_request_review",
		"pull_request_review_comment", "pull_request_target", "pull_request"} {
		if why := Unknown(name); why != "" {
			t.Errorf("Unknown(%q) = %q, want stalepr to act on it", name, why)
		}
	}
	for _, name := range []string{"pull_request_review_thread", "push", "workflow_run", "repository_dispatch", "issues"} {
		if why := Unknown(name); !strings.Contains(why, "schedule and workflow_dispatch") {
			t.Errorf("Unknown(%q) = %q, want it to name the triggers stalepr acts on", name, why)
		}
	}
}

func TestReadOnly(t *testing.T) {
	t.Parallel()
	payload := func(head string, private string) string {
		return `{"action":"submitted","pull_request":{"number":3,"state":"open","head":{"repo":` + head + `}},` +
			`"repository":{"full_name":"octo/repo"` + private + `},"sender":{"login":"maya","type":"User"}}`
	}
	for name, tc := range map[string]struct {
		event, payload, fork string
		readOnly             bool
	}{
		"a fork's PR, public":          {"pull_request_review", payload(`{"full_name":"amy/repo"}`, `,"private":false`), "amy/repo", true},
		"a deleted fork, public":       {"pull_request_review_comment", payload(`null`, `,"private":false`), "a deleted fork", true},
		"a fork's push, public":        {"pull_request", payload(`{"full_name":"amy/repo"}`, `,"private":false`), "amy/repo", true},
		"a fork's PR, private":         {"pull_request_review", payload(`{"full_name":"amy/repo"}`, `,"private":true`), "amy/repo", false},
		"a fork's PR, privacy unknown": {"pull_request_review", payload(`{"full_name":"amy/repo"}`, ``), "amy/repo", false},
		"pull_request_target":          {"pull_request_target", payload(`{"full_name":"amy/repo"}`, `,"private":false`), "amy/repo", false},
		"the repository's own branch":  {"pull_request_review", payload(`{"full_name":"Octo/Repo"}`, `,"private":false`), "", false},
	} {
		e, err := Parse(tc.event, []byte(tc.payload))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if e.Fork != tc.fork || (e.ReadOnly() != "") != tc.readOnly {
			t.Errorf("%s: Fork %q, ReadOnly %q; want %q and read-only %v", name, e.Fork, e.ReadOnly(), tc.fork, tc.readOnly)
		}
	}
}
