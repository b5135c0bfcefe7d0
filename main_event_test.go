package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stalepr/stalepr/internal/fakegithub"
)

// The event path from the runner's side: GITHUB_EVENT_NAME and the
// payload at GITHUB_EVENT_PATH. A payload that cannot be read is a usage
// error before any request; an event that asks nothing (an issue's
// comment, a closed PR, a bot's) ends with no request; an event on an open
// PR evaluates that PR alone within 3 requests.

func eventEnv(t *testing.T, w *world, name, payload string) env {
	t.Helper()
	e := w.env(t)
	e["GITHUB_EVENT_NAME"] = name
	if payload != "" {
		path := filepath.Join(t.TempDir(), "event.json")
		if err := os.WriteFile(path, []byte(payload), 0o644); err != nil {
			t.Fatal(err)
		}
		e["GITHUB_EVENT_PATH"] = path
	}
	return e
}

func TestEventPayloadErrorsBeforeAnyRequest(t *testing.T) {
	t.Parallel()
	for name, tc := range map[string]struct{ event, payload, want string }{
		"no payload":      {"issue_comment", "", "GITHUB_EVENT_PATH is not set"},
		"not JSON":        {"issue_comment", "{", "not JSON"},
		"no sender":       {"pull_request_target", `{"action":"synchronize","pull_request":{"number":3,"state":"open"}}`, "names no sender"},
		"no pull request": {"pull_request_review", `{"action":"submitted","sender":{"login":"alice","type":"User"}}`, "names no pull request"},
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			w, _ := newWorld(t, false)
			o := runWith(t, eventEnv(t, w, tc.event, tc.payload))
			if o.code != ExitUsage || !strings.Contains(o.stdout, tc.want) || w.fake.Count() != 0 {
				t.Errorf("exit %d after %d requests, want %d and %q before any request:\n%s", o.code, w.fake.Count(), ExitUsage, tc.want, o)
			}
		})
	}
}

func TestEventThatAsksNothingSendsNothing(t *testing.T) {
	t.Parallel()
	for name, tc := range map[string]struct{ event, payload string }{
		"a comment on an issue": {"issue_comment", `{"action":"created","issue":{"number":7,"state":"open"},"sender":{"login":"alice","type":"User"}}`},
		"a closed PR":           {"pull_request_target", `{"action":"labeled","pull_request":{"number":%d,"state":"closed"},"sender":{"login":"alice","type":"User"}}`},
		"a bot's comment":       {"issue_comment", `{"action":"created","issue":{"number":%d,"state":"open","pull_request":{}},"sender":{"login":"ci[bot]","type":"Bot"}}`},
		"an action it ignores":  {"pull_request_target", `{"action":"assigned","pull_request":{"number":%d,"state":"open"},"sender":{"login":"alice","type":"User"}}`},
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			w, _ := newWorld(t, false)
			payload := tc.payload
			if strings.Contains(payload, "%d") {
				payload = fmt.Sprintf(payload, w.toUnstale)
			}
			o := runWith(t, eventEnv(t, w, tc.event, payload))
			if o.code != ExitOK || w.fake.Count() != 0 || !strings.Contains(o.stdout, "nothing to do") {
				t.Errorf("exit %d after %d requests, want %d and none:\n%s", o.code, w.fake.Count(), ExitOK, o)
			}
		})
	}
}

func TestEventOnAnOpenPREvaluatesItAlone(t *testing.T) {
	t.Parallel()
	sender := `"sender":{"login":"bob","type":"User"}`
	for event, payload := range map[string]string{
		"issue_comment":               `{"action":"created","issue":{"number":%d,"state":"open","pull_request":{"url":"x"}},"comment":{"body":"still on it"},` + sender + `}`,
		"pull_request_review":         `{"action":"submitted","pull_request":{"number":%d,"state":"open"},` + sender + `}`,
		"pull_request_review_comment": `{"action":"created","pull_request":{"number":%d,"state":"open"},` + sender + `}`,
		"pull_request_target":         `{"action":"synchronize","pull_request":{"number":%d,"state":"open"},` + sender + `}`,
	} {
		t.Run(event, func(t *testing.T) {
			t.Parallel()
			w, _ := newWorld(t, false)
			o := runWith(t, eventEnv(t, w, event, fmt.Sprintf(payload, w.toUnstale)))
			if o.code != ExitOK {
				t.Fatalf("exit %d:\n%s", o.code, o)
			}
			if w.hasLabel(w.toUnstale, "stale") {
				t.Errorf("#%d still stale after bob's comment", w.toUnstale)
			}
			if w.fake.Count() > 3 || !w.hasLabel(w.toClose, "stale") || w.fake.MustIssue(w.toClose).State != "open" {
				t.Errorf("%d requests; the other PRs: #%d %s %v: want at most 3 and the others untouched",
					w.fake.Count(), w.toClose, w.fake.MustIssue(w.toClose).State, w.fake.Labels(w.toClose))
			}
			if !strings.Contains(o.stdout, fmt.Sprintf("Evaluating #%d", w.toUnstale)) {
				t.Errorf("the log does not say which PR the event run evaluated:\n%s", o.stdout)
			}
		})
	}
}

// TestEventRunSummarySaysItLookedAtOnePR: an event run's summary says it
// looked at the one PR its event concerns, not that marking is disabled
// and only the stale PRs are counted (false for a PR never stale), and
// shows no queue views of one PR; a stop before its writes leaves that one
// PR for the next run, not one per write it had planned.
func TestEventRunSummarySaysItLookedAtOnePR(t *testing.T) {
	t.Parallel()
	payload := `{"action":"created","issue":{"number":%d,"state":"open","pull_request":{"url":"x"}},"comment":{"body":"hi"},"sender":{"login":"bob","type":"User"}}`
	w, _ := newWorld(t, false)
	o := runWith(t, eventEnv(t, w, "issue_comment", fmt.Sprintf(payload, w.active)))
	want := fmt.Sprintf("Looked at #%d alone, the pull request its event concerns; the scheduled run looks at the others.", w.active)
	if o.code != ExitOK || !strings.Contains(o.summaryFile, want) {
		t.Errorf("exit %d; the summary lacks %q:\n%s", o.code, want, o.summaryFile)
	}
	for _, not := range []string{"marking is disabled", "Only the stale pull requests", "### Open pull requests by last activity", "### Next 14 days"} {
		if strings.Contains(o.summaryFile, not) {
			t.Errorf("the event run's summary says %q:\n%s", not, o.summaryFile)
		}
	}

	// The rate limit runs out at the un-stale's first write: the un-stale
	// and the turn label, two writes of one PR, are left.
	w, _ = newWorld(t, false)
	e := eventEnv(t, w, "issue_comment", fmt.Sprintf(payload, w.toUnstale))
	e[inputVar("reviewers-turn-label")] = "waiting-on-review"
	e[inputVar("stale-clock")] = "author-turn"
	w.fake.SetFaultHook(func(info fakegithub.RequestInfo) *fakegithub.Fault {
		if info.Write {
			return fakegithub.PrimaryRateLimit(403, t0.Add(time.Hour))
		}
		return nil
	})
	o = runWith(t, e)
	if !strings.Contains(o.summaryFile, "This run stopped early") || !strings.Contains(o.summaryFile, " 1 pull request that needs work") {
		t.Errorf("the stop of a one-PR run does not leave that one PR:\n%s", o.summaryFile)
	}
}
