// Package event reads the GitHub Actions event that started a run on one
// pull request (GITHUB_EVENT_NAME, the payload at GITHUB_EVENT_PATH): which
// pull request it concerns, whether it is open, who caused it. A run whose
// event names no pull request (schedule, workflow_dispatch) sweeps the
// repository.
package event

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"
)

// onePR are the events that concern one pull request. Every action of
// them is read and decided as the scheduled run decides (rule 3's fold):
// an assignment, a title edit, a milestone or a bot author's own push is
// activity there, and a list of actions or senders of the event path's own
// once kept such a PR stale until the schedule. What the payload cannot
// settle costs one read.
var onePR = map[string]bool{"issue_comment": true, "pull_request_review": true, "pull_request_review_comment": true,
	"pull_request_target": true, "pull_request": true}

// OnePR reports whether an event of this name concerns one pull request.
func OnePR(name string) bool { return onePR[name] }

// OnePRNames are the names of the events that concern one pull request, sorted.
func OnePRNames() []string { return slices.Sorted(maps.Keys(onePR)) }

// Sweeps reports whether a run started by an event of this name sweeps the
// repository: the schedule, a run by hand, or a run that names no event.
func Sweeps(name string) bool {
	return name == "" || name == "schedule" || name == "workflow_dispatch"
}

// Unknown is why a run started by an event of this name does nothing: ""
// when stalepr acts on it (Sweeps, OnePR). An event stalepr does not name
// (pull_request_review_thread, push, workflow_run, repository_dispatch…)
// once ran the whole sweep, marking PRs it had nothing to do with.
func Unknown(name string) string {
	if Sweeps(name) || OnePR(name) {
		return ""
	}
	return "not a trigger stalepr acts on: schedule and workflow_dispatch sweep the repository; " +
		"issue_comment, pull_request_review, pull_request_review_comment, pull_request_target and " +
		"pull_request evaluate their pull request"
}

// Event is what stalepr reads of an event's payload.
type Event struct {
	Name   string
	Action string
	// Repository is the repository the event happened in, owner/name, as
	// its payload names it (repository.full_name); "" when it names none.
	Repository string
	Number     int  // the pull request; 0 when the event is on an issue
	Closed     bool // the pull request was closed when the event fired
	Sender     string
	// Fork is the repository the pull request's head is in when that is
	// not Repository ("a deleted fork" when the payload's head.repo is
	// null): GitHub's fork rule for the token applies. "" for a PR of
	// the repository itself, and for an issue_comment (whose payload says
	// nothing of the head, and whose run may write).
	Fork string
	// Public is true when the payload says the repository is public
	// (repository.private false); a private one may send write tokens to
	// a fork's runs (a repository setting), and a payload that does not
	// say is not taken for public.
	Public bool
	// Comment is an issue_comment's text, for the reopen command's first
	// look (Skip): the run decides on the comment as its read of the PR
	// shows it, never on the payload's copy.
	Comment string
}

// readOnlyOnForks are the events whose run GitHub gives a read-only
// GITHUB_TOKEN on a fork's pull request, whatever the workflow's
// permissions say, and no secrets (in a public repository, no setting
// changes that): pull_request_target, issue_comment and the schedule run
// in the base repository with its permissions.
var readOnlyOnForks = map[string]bool{"pull_request": true, "pull_request_review": true, "pull_request_review_comment": true}

// Parse reads the payload of an event of this name. An error says what is
// missing or malformed.
func Parse(name string, payload []byte) (Event, error) {
	var p struct {
		Action string `json:"action"`
		Issue  *struct {
			Number      int             `json:"number"`
			State       string          `json:"state"`
			PullRequest json.RawMessage `json:"pull_request"`
		} `json:"issue"`
		PullRequest *struct {
			Number int    `json:"number"`
			State  string `json:"state"`
			Head   *struct {
				Repo json.RawMessage `json:"repo"`
			} `json:"head"`
		} `json:"pull_request"`
		Comment *struct {
			Body string `json:"body"`
		} `json:"comment"`
		Sender *struct {
			Login string `json:"login"`
			Type  string `json:"type"`
		} `json:"sender"`
		Repository *struct {
			FullName string `json:"full_name"`
			Private  *bool  `json:"private"`
		} `json:"repository"`
	}
	if err := json.Unmarshal(payload, &p); err != nil {
		return Event{}, fmt.Errorf("the %s event's payload is not JSON: %v", name, err)
	}
	if p.Sender == nil || p.Sender.Login == "" {
		return Event{}, fmt.Errorf("the %s event's payload names no sender", name)
	}
	e := Event{Name: name, Action: p.Action, Sender: p.Sender.Login}
	if p.Repository != nil {
		e.Repository = p.Repository.FullName
		e.Public = p.Repository.Private != nil && !*p.Repository.Private
	}
	switch {
	case name == "issue_comment" && p.Issue != nil:
		if len(p.Issue.PullRequest) > 0 && string(p.Issue.PullRequest) != "null" {
			e.Number = p.Issue.Number // a comment on a pull request, not an issue
		}
		e.Closed = p.Issue.State == "closed"
		if p.Comment != nil {
			e.Comment = p.Comment.Body
		}
	case name != "issue_comment" && p.PullRequest != nil:
		e.Number, e.Closed = p.PullRequest.Number, p.PullRequest.State == "closed"
		if p.PullRequest.Head != nil {
			e.Fork = fork(p.PullRequest.Head.Repo, e.Repository)
		}
	default:
		return Event{}, fmt.Errorf("the %s event's payload names no pull request (no %q)", name, map[bool]string{true: "issue", false: "pull_request"}[name == "issue_comment"])
	}
	if e.Number < 0 || name != "issue_comment" && e.Number == 0 {
		return Event{}, fmt.Errorf("the %s event's payload gives no pull request number", name)
	}
	return e, nil
}

// Skip is why the event asks nothing of stalepr, which acts on repo
// (owner/name): "" when its pull request is to be evaluated. An event in
// another repository (the repository input naming another one, a fleet's
// caller workflow) asks nothing: its #5 is not repo's #5. On a closed
// pull request only a comment that asks (its text) for the reopen command
// asks anything.
func (e Event) Skip(repo string, asks func(comment string) bool) string {
	switch {
	case e.Repository == "":
		return "the event names no repository: it may be another repository's"
	case !strings.EqualFold(e.Repository, repo):
		return fmt.Sprintf("the event is in %s, not in %s, the repository stalepr acts on", e.Repository, repo)
	case e.Number == 0:
		return "a comment on an issue, not a pull request"
	case e.Closed && !(e.Name == "issue_comment" && asks != nil && asks(e.Comment)):
		return fmt.Sprintf("#%d is closed", e.Number)
	}
	return ""
}

// fork is the head repository of a pull request in base when it is another
// one: its full_name, or "a deleted fork" when GitHub gives head.repo as
// null (the fork was deleted; a PR's own repository cannot be, while it
// has events). "" when the head is in base, or the payload does not say.
func fork(head json.RawMessage, base string) string {
	if len(head) == 0 {
		return ""
	}
	if string(head) == "null" {
		return "a deleted fork"
	}
	var repo struct {
		FullName string `json:"full_name"`
	}
	if json.Unmarshal(head, &repo) != nil || repo.FullName == "" || strings.EqualFold(repo.FullName, base) {
		return ""
	}
	return repo.FullName
}

// ReadOnly is why the event's run cannot write, as its payload makes
// certain: "" when it may. GitHub gives a pull_request,
// pull_request_review or pull_request_review_comment run on a fork's PR in
// a public repository a read-only token (a write answers 403 "Resource not
// accessible by integration"): the label write a maintainer's review calls
// for once failed the run, red on every review of a contributor's PR. In a
// private repository the token may write (a setting), so the run tries,
// and a refusal of its first write ends it the same way.
func (e Event) ReadOnly() string {
	if !e.MayBeReadOnly() || !e.Public {
		return ""
	}
	return fmt.Sprintf("#%d comes from %s, and GitHub gives a %s run on a fork's pull request a read-only token; "+
		"the next scheduled run does what the event calls for (the stale label, the turn labels)", e.Number, forkName(e.Fork), e.Name)
}

// MayBeReadOnly reports whether GitHub may give the event's run a
// read-only token: an event of readOnlyOnForks on a fork's PR.
func (e Event) MayBeReadOnly() bool { return e.Fork != "" && readOnlyOnForks[e.Name] }

// forkName words Fork for a sentence.
func forkName(fork string) string {
	if fork == "a deleted fork" {
		return fork
	}
	return "the fork " + fork
}
