package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/stalepr/stalepr/internal/fakegithub"
	"github.com/stalepr/stalepr/internal/notice"
)

// The event path from the runner's side: GITHUB_EVENT_NAME and the
// payload at GITHUB_EVENT_PATH. A payload that cannot be read is a usage
// error before any request; an event that asks nothing (an issue's
// comment, a closed PR) ends with no request; an event on an open PR
// evaluates that PR alone within 3 requests.

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

// An event on an open PR that calls for nothing (a bot's comment, an
// assignment, on a PR neither stale nor due anything) is decided as the
// sweep decides it, on one read: nothing written.
func TestEventThatCallsForNothingWritesNothing(t *testing.T) {
	t.Parallel()
	for name, tc := range map[string]struct{ event, payload string }{
		"a bot's comment": {"issue_comment", `{"action":"created","issue":{"number":%d,"state":"open","pull_request":{}},"sender":{"login":"ci[bot]","type":"Bot"}}`},
		"an assignment":   {"pull_request_target", `{"action":"assigned","pull_request":{"number":%d,"state":"open"},"sender":{"login":"alice","type":"User"}}`},
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			w, _ := newWorld(t, false)
			o := runWith(t, eventEnv(t, w, tc.event, fmt.Sprintf(tc.payload, w.active)))
			if o.code != ExitOK || w.fake.Count() != 1 || w.fake.Writes() != 0 {
				t.Errorf("exit %d after %d requests (%d writes), want %d after the one read:\n%s", o.code, w.fake.Count(), w.fake.Writes(), ExitOK, o)
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

// An event in another repository asks nothing of the one stalepr acts on:
// with the repository input naming another (or a fleet's caller workflow),
// a comment on acme/tools#N once un-staled octo/repo#N. The payload's
// repository.full_name decides, case-insensitively; a payload that names
// none is the run's own repository's (GITHUB_REPOSITORY).
func TestEventInAnotherRepositorySendsNothing(t *testing.T) {
	t.Parallel()
	comment := `{"action":"created","issue":{"number":%d,"state":"open","pull_request":{"url":"x"}},%s"sender":{"login":"bob","type":"User"}}`
	push := `{"action":"synchronize","pull_request":{"number":%d,"state":"open"},%s"sender":{"login":"bob","type":"User"}}`
	for name, tc := range map[string]struct {
		event, payload, repo, workflowRepo string
		acts                               bool
	}{
		"a comment in another repository":       {"issue_comment", comment, `"repository":{"full_name":"acme/tools"},`, "acme/tools", false},
		"a push in another repository":          {"pull_request_target", push, `"repository":{"full_name":"acme/tools"},`, "acme/tools", false},
		"a fleet's caller workflow":             {"issue_comment", comment, `"repository":{"full_name":"acme/tools"},`, testRepo, false},
		"no repository in another's workflow":   {"issue_comment", comment, "", "acme/tools", false},
		"our repository, spelt otherwise":       {"issue_comment", comment, `"repository":{"full_name":"Octo/Repo"},`, "acme/tools", true},
		"no repository in our repository's run": {"issue_comment", comment, "", testRepo, true},
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			w, _ := newWorld(t, false)
			e := eventEnv(t, w, tc.event, fmt.Sprintf(tc.payload, w.toUnstale, tc.repo))
			e["GITHUB_REPOSITORY"] = tc.workflowRepo // the input repository stays octo/repo
			o := runWith(t, e)
			if o.code != ExitOK {
				t.Fatalf("exit %d:\n%s", o.code, o)
			}
			if tc.acts {
				if w.hasLabel(w.toUnstale, "stale") {
					t.Errorf("#%d still stale after bob's comment in octo/repo:\n%s", w.toUnstale, o)
				}
				return
			}
			if w.fake.Count() != 0 || !w.hasLabel(w.toUnstale, "stale") {
				t.Errorf("%d requests, labels %v: want none sent and #%d left stale", w.fake.Count(), w.fake.Labels(w.toUnstale), w.toUnstale)
			}
			if !strings.Contains(o.stdout, "not in octo/repo") && !strings.Contains(o.stdout, "names no repository") || !strings.Contains(o.stdout, "nothing to do") {
				t.Errorf("the run does not say why it did nothing:\n%s", o.stdout)
			}
		})
	}
}

// octokitPayload is one of GitHub's published example payloads
// (testdata/events/octokit-webhooks), as the runner gives it.
func octokitPayload(t *testing.T, event, action string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "events", "octokit-webhooks", event, action+".payload.json"))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// An event stalepr does not name never sweeps: both real
// pull_request_review_thread payloads once ran the whole sweep and marked
// another PR stale (8 requests, 3 writes). It ends green, sending nothing,
// with one line naming the event and the triggers stalepr acts on; the
// schedule and a run by hand sweep as before.
func TestEventNotATriggerNeverSweeps(t *testing.T) {
	t.Parallel()
	for name, tc := range map[string]struct{ event, payload string }{
		"a thread resolved":   {"pull_request_review_thread", octokitPayload(t, "pull_request_review_thread", "resolved")},
		"a thread unresolved": {"pull_request_review_thread", octokitPayload(t, "pull_request_review_thread", "unresolved")},
		"a push":              {"push", `{"ref":"refs/heads/main","repository":{"full_name":"octo/repo"},"sender":{"login":"alice","type":"User"}}`},
		"a workflow run":      {"workflow_run", `{"action":"completed","workflow_run":{"pull_requests":[]},"repository":{"full_name":"octo/repo"},"sender":{"login":"alice","type":"User"}}`},
		"a dispatch":          {"repository_dispatch", `{"action":"sweep","repository":{"full_name":"octo/repo"},"sender":{"login":"alice","type":"User"}}`},
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			w, _ := newWorld(t, false)
			o := runWith(t, eventEnv(t, w, tc.event, tc.payload))
			if o.code != ExitOK || w.fake.Count() != 0 || w.hasLabel(w.toMark, "stale") {
				t.Errorf("exit %d after %d requests (#%d labels %v): want %d and none sent:\n%s",
					o.code, w.fake.Count(), w.toMark, w.fake.Labels(w.toMark), ExitOK, o)
			}
			line := fmt.Sprintf("stalepr: %s event: not a trigger stalepr acts on: schedule and workflow_dispatch sweep", tc.event)
			if !strings.Contains(o.stdout, line) || !strings.Contains(o.stdout, "pull_request_target") {
				t.Errorf("the run does not name the event and the triggers stalepr acts on (want %q):\n%s", line, o.stdout)
			}
		})
	}
	for _, event := range []string{"schedule", "workflow_dispatch"} {
		t.Run(event, func(t *testing.T) {
			t.Parallel()
			w, _ := newWorld(t, false)
			o := runWith(t, eventEnv(t, w, event, `{"repository":{"full_name":"octo/repo"}}`))
			if o.code != ExitOK || !w.hasLabel(w.toMark, "stale") {
				t.Errorf("exit %d, #%d labels %v: want the sweep to mark it:\n%s", o.code, w.toMark, w.fake.Labels(w.toMark), o)
			}
		})
	}
}

// forkPayload is GitHub's example payload of event and action made one on
// octo/repo's PR n, whose head is in the fork head ("" for the repository
// itself, "null" for a deleted fork), in a repository private or public.
func forkPayload(t *testing.T, event, action string, n int, head string, private bool) string {
	t.Helper()
	var p map[string]any
	if err := json.Unmarshal([]byte(octokitPayload(t, event, action)), &p); err != nil {
		t.Fatal(err)
	}
	repo := p["repository"].(map[string]any)
	repo["full_name"], repo["private"] = testRepo, private
	pr := p["pull_request"].(map[string]any)
	pr["number"] = n
	pr["base"].(map[string]any)["repo"] = repo
	switch head {
	case "":
		pr["head"].(map[string]any)["repo"] = repo
	case "null":
		pr["head"].(map[string]any)["repo"] = nil
	default:
		pr["head"].(map[string]any)["repo"].(map[string]any)["full_name"] = head
	}
	b, err := json.Marshal(p)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// refusedByForkRule answers every write as GitHub answers a fork's
// pull_request_review run's read-only GITHUB_TOKEN.
func refusedByForkRule(w *world) {
	w.fake.SetFaultHook(func(info fakegithub.RequestInfo) *fakegithub.Fault {
		if info.Write {
			return fakegithub.StatusFault(403, `{"message":"Resource not accessible by integration",`+
				`"documentation_url":"https://docs.github.com/rest/issues/labels#remove-a-label-from-an-issue","status":"403"}`)
		}
		return nil
	})
}

// A fork's PR under pull_request_review, pull_request_review_comment and
// pull_request: GitHub gives the run a read-only token, and the write a
// maintainer's review called for once failed the run, red on every review
// of a contributor's PR. In a public repository the payload makes it
// certain: no request at all, green, one line saying why and what the
// schedule will do. In a private one (whose setting may give the token
// write access) the first write's refusal ends it the same way, nothing
// else sent.
func TestEventOnAForksPRWithAReadOnlyToken(t *testing.T) {
	t.Parallel()
	for name, tc := range map[string]struct {
		event, action, head string
		private             bool
		requests            int // at most
	}{
		"a review, public":             {"pull_request_review", "submitted", "contributor/repo", false, 0},
		"a review comment, public":     {"pull_request_review_comment", "created", "contributor/repo", false, 0},
		"a push, public":               {"pull_request", "synchronize", "contributor/repo", false, 0},
		"a review from a deleted fork": {"pull_request_review", "submitted", "null", false, 0},
		"a review, private":            {"pull_request_review", "submitted", "contributor/repo", true, 3},
		"a review comment, private":    {"pull_request_review_comment", "created", "contributor/repo", true, 3},
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			w, _ := newWorld(t, false)
			refusedByForkRule(w)
			o := runWith(t, eventEnv(t, w, tc.event, forkPayload(t, tc.event, tc.action, w.toUnstale, tc.head, tc.private)))
			if o.code != ExitOK || strings.Contains(o.stdout, "::error") {
				t.Fatalf("exit %d, want a green run:\n%s", o.code, o)
			}
			if got := len(w.fake.WriteRequests()); got > 1 || tc.requests == 0 && w.fake.Count() != 0 || w.fake.Count() > tc.requests {
				t.Errorf("%d requests, %d of them writes: want at most %d, and no write after a refused one", w.fake.Count(), got, tc.requests)
			}
			if !w.hasLabel(w.toUnstale, "stale") {
				t.Errorf("#%d: labels %v", w.toUnstale, w.fake.Labels(w.toUnstale))
			}
			if !strings.Contains(o.stdout, "read-only token") || !strings.Contains(o.stdout, "next scheduled run") {
				t.Errorf("the run does not say why it wrote nothing and what the schedule will do:\n%s", o.stdout)
			}
		})
	}
}

// The fork rule is no excuse for a setup to mend: the same refusal on a
// PR of the repository itself is the workflow's missing permission, and
// the run fails saying so; a fork's PR whose run may write (a private
// repository's setting) is un-staled.
func TestEventForkRuleOnlyForForks(t *testing.T) {
	t.Parallel()
	t.Run("a same-repository PR refused", func(t *testing.T) {
		t.Parallel()
		w, _ := newWorld(t, false)
		refusedByForkRule(w)
		o := runWith(t, eventEnv(t, w, "pull_request_review", forkPayload(t, "pull_request_review", "submitted", w.toUnstale, "", false)))
		if o.code != ExitFailed || !strings.Contains(o.stdout, "Resource not accessible by integration") {
			t.Errorf("exit %d, want %d naming the refusal:\n%s", o.code, ExitFailed, o)
		}
	})
	t.Run("a fork's PR whose run may write", func(t *testing.T) {
		t.Parallel()
		w, _ := newWorld(t, false)
		o := runWith(t, eventEnv(t, w, "pull_request_review", forkPayload(t, "pull_request_review", "submitted", w.toUnstale, "contributor/repo", true)))
		if o.code != ExitOK || w.hasLabel(w.toUnstale, "stale") {
			t.Errorf("exit %d, #%d labels %v: want it un-staled:\n%s", o.code, w.toUnstale, w.fake.Labels(w.toUnstale), o)
		}
	})
}

// One rule for both paths: what the sweep counts as activity (rule 3) the
// event run counts too. A person's assignment, title edit or milestone,
// and a bot author's own push on its PR, un-staled the PR at the next
// scheduled run, but the event run skipped them ("changes nothing stalepr
// reads", "a bot's action is never activity"). Each case runs once as an
// event and once as the sweep, on twin repositories: both un-stale.
func TestEventCountsWhatTheSweepCounts(t *testing.T) {
	t.Parallel()
	maint := fakegithub.Person("maya")
	dependabot := fakegithub.Bot("dependabot[bot]")
	for name, tc := range map[string]struct {
		action string
		sender fakegithub.User
		author fakegithub.User
		act    func(w *world, n int)
	}{
		"an assignment by a person": {"assigned", maint, alice, func(w *world, n int) { w.fake.Assign(n, maint, daysAgo(0.01), bob) }},
		"a title edit":              {"edited", maint, alice, func(w *world, n int) { w.fake.Rename(n, maint, daysAgo(0.01), "Handle nil widgets (v2)") }},
		"a milestone": {"milestoned", maint, alice, func(w *world, n int) {
			w.fake.AddEvent(n, fakegithub.Event{Type: "milestoned", Actor: maint, At: daysAgo(0.01)})
		}},
		"a bot author's own push": {"synchronize", dependabot, dependabot, func(w *world, n int) {
			w.fake.PushAs(n, dependabot, daysAgo(0.01), "Bump lodash from 4.17.20 to 4.17.21")
		}},
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			unstaled := map[bool]bool{}
			for _, event := range []bool{true, false} {
				w, _ := newWorld(t, false)
				at := daysAgo(10)
				n := w.fake.AddPR(fakegithub.Issue{Title: "Bump lodash", User: tc.author, CreatedAt: daysAgo(120), UpdatedAt: daysAgo(100)})
				w.fake.Label(n, actionID, at, "stale")
				w.fake.Comment(n, actionID, at.Add(time.Second), fakegithub.StaleNoticeBody("stale", at, ""))
				tc.act(w, n)
				e := w.env(t)
				if event {
					payload := fmt.Sprintf(`{"action":%q,"pull_request":{"number":%d,"state":"open","user":{"login":%q}},`+
						`"repository":{"full_name":%q,"private":false},"sender":{"login":%q,"type":%q}}`,
						tc.action, n, tc.author.Login, testRepo, tc.sender.Login, tc.sender.Type)
					e = eventEnv(t, w, "pull_request_target", payload)
				}
				if o := runWith(t, e); o.code != ExitOK {
					t.Fatalf("event %v: exit %d:\n%s", event, o.code, o)
				}
				unstaled[event] = !w.hasLabel(n, "stale")
			}
			if unstaled[true] != unstaled[false] || !unstaled[false] {
				t.Errorf("un-staled by the event run %v, by the sweep %v: want both (rule 3)", unstaled[true], unstaled[false])
			}
		})
	}
}

// The recipe for where pull_request_target is not allowed
// (docs/events.md, no-target): its hourly schedule un-stales the PR a
// person acted on and marks and closes nothing; its daily schedule is the
// whole sweep. The inputs are the recipe's, its expressions evaluated for
// each cron as the runner does.
func TestEventRecipeWithoutPullRequestTarget(t *testing.T) {
	t.Parallel()
	docs := markdownWorkflows("docs/events.md", []byte(fileSection(t, "docs/events.md", "no-target")))
	if len(docs) != 1 {
		t.Fatalf("the recipe has %d workflow blocks, want 1", len(docs))
	}
	src := string(docs[0].src)
	if strings.Contains(src, "pull_request_target") || !regexp.MustCompile(`uses: stalepr/stalepr@[0-9a-f]{40} `).MatchString(src) {
		t.Errorf("the recipe uses pull_request_target, or does not pin stalepr by commit SHA:\n%s", src)
	}
	byCron := regexp.MustCompile(`^\$\{\{ github\.event\.schedule == '([^']+)' && (-?\d+) \|\| (-?\d+) \}\}$`)
	for _, tc := range []struct {
		cron   string
		sweeps bool
	}{{"41 * * * *", false}, {"17 3 * * *", true}} {
		t.Run(tc.cron, func(t *testing.T) {
			t.Parallel()
			if !strings.Contains(src, `- cron: "`+tc.cron+`"`) {
				t.Fatalf("the recipe has no schedule %q", tc.cron)
			}
			w, _ := newWorld(t, false)
			e := eventEnv(t, w, "schedule", fmt.Sprintf(`{"schedule":%q,"repository":{"full_name":%q}}`, tc.cron, testRepo))
			for k, v := range stepInputs(t, docs[0].src) {
				if m := byCron.FindStringSubmatch(v); m != nil {
					v = m[3]
					if m[1] == tc.cron {
						v = m[2]
					}
				}
				e[inputVar(k)] = v
			}
			o := runWith(t, e)
			if o.code != ExitOK || w.hasLabel(w.toUnstale, "stale") {
				t.Fatalf("exit %d, #%d labels %v: want it un-staled:\n%s", o.code, w.toUnstale, w.fake.Labels(w.toUnstale), o)
			}
			marked, closed := w.hasLabel(w.toMark, "stale"), w.fake.MustIssue(w.toClose).State == "closed"
			if marked != tc.sweeps || closed != tc.sweeps {
				t.Errorf("marked #%d %v, closed #%d %v: want both %v", w.toMark, marked, w.toClose, closed, tc.sweeps)
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

// commandedPR adds a PR that stalepr closed as stale 3 days ago (its
// closing comment, then its close), and its author's /reopen of a minute
// ago: the comment whose issue_comment event commandPayload is.
func commandedPR(w *world) int {
	n := w.fake.AddPR(fakegithub.Issue{Title: "Cache the widget list", User: alice, CreatedAt: daysAgo(200), UpdatedAt: daysAgo(3)})
	w.fake.Comment(n, actionID, daysAgo(3), notice.Body("Closing this pull request.", notice.CloseMarker("")))
	w.fake.Close(n, actionID, daysAgo(3).Add(time.Second), "")
	w.fake.Comment(n, alice, t0.Add(-time.Minute), "/reopen")
	return n
}

func commandPayload(n int) string {
	return fmt.Sprintf(`{"action":"created","issue":{"number":%d,"state":"closed","pull_request":{"url":"x"}},"comment":{"body":"/reopen"},"sender":{"login":"alice","type":"User"}}`, n)
}

// TestEventReopenCommand: an issue_comment /reopen on a PR stalepr closed
// starts a run (a comment on a closed PR that is no command sends
// nothing), which reopens it and answers in 3 requests; with its branch
// gone, it answers how to continue and reopens nothing.
func TestEventReopenCommand(t *testing.T) {
	t.Parallel()
	w, _ := newWorld(t, false)
	n := commandedPR(w)
	plain := strings.Replace(commandPayload(n), `"/reopen"`, `"thanks!"`, 1)
	if o := runWith(t, eventEnv(t, w, "issue_comment", plain)); o.code != ExitOK || w.fake.Count() != 0 {
		t.Fatalf("a plain comment on a closed PR: exit %d after %d requests, want none:\n%s", o.code, w.fake.Count(), o)
	}
	o := runWith(t, eventEnv(t, w, "issue_comment", commandPayload(n)))
	if o.code != ExitOK || w.fake.MustIssue(n).State != "open" || w.fake.Count() > 3 {
		t.Fatalf("exit %d, #%d %s after %d requests; want it reopened in at most 3:\n%s", o.code, n, w.fake.MustIssue(n).State, w.fake.Count(), o)
	}
	if !strings.Contains(o.stdout, "reopened on command") {
		t.Errorf("the log does not say it reopened on command:\n%s", o.stdout)
	}
	gone := commandedPR(w)
	w.fake.DeleteBranch(w.fake.MustIssue(gone).HeadRef)
	if o := runWith(t, eventEnv(t, w, "issue_comment", commandPayload(gone))); o.code != ExitOK || w.fake.MustIssue(gone).State != "closed" {
		t.Fatalf("branch gone: exit %d, #%d %s:\n%s", o.code, gone, w.fake.MustIssue(gone).State, o)
	}
}
