package lifecycle_test

import (
	"testing"
	"time"

	"github.com/stalepr/stalepr/internal/lifecycle"
)

// TestPushedAfterMarkByAncestry: a history without parents (GraphQL's)
// proves a person's push after the mark only by a dated commit or
// force-push that counts. When only a bot's (or, for the author's push,
// only others') are dated after it, a person's commits made days ago may
// lie underneath: the head's ancestry decides, and unread it is a
// person's (in doubt, not closed).
func TestPushedAfterMarkByAncestry(t *testing.T) {
	t.Parallel()
	mark := daysAgo(30)
	commit := func(sha string, at time.Time, bot bool, by string) lifecycle.Event {
		return lifecycle.Event{Kind: lifecycle.Committed, At: at, SHA: sha, Bot: bot, CommitAuthor: by, CommitCommitter: by}
	}
	notice := staleNotice(mark, selfLogin, mark)
	notice.MarkHead = "a1"
	history := []lifecycle.Event{commit("a1", daysAgo(60), false, author), labeled(mark, selfLogin, staleLabel), notice}
	botOnTop := commit("b2", daysAgo(1), true, "")
	bot := func(sha, parent string) lifecycle.Commit {
		return lifecycle.Commit{SHA: sha, Parent: parent, Bot: true}
	}
	person := func(sha, parent, login string) lifecycle.Commit {
		return lifecycle.Commit{SHA: sha, Parent: parent, Author: login, Committer: login}
	}
	tests := []struct {
		name     string
		head     string
		after    []lifecycle.Event
		opts     lifecycle.Options
		pushed   bool
		byAuthor bool
		from     string // where the ancestry is read (on) from; "": proven
	}{
		{name: "the head where the mark left it", head: "a1"},
		{name: "a person's commit dated after the mark", head: "p2", after: []lifecycle.Event{commit("p2", daysAgo(1), false, author)},
			pushed: true, byAuthor: true},
		{name: "a move no dated event explains", head: "p2", pushed: true, byAuthor: true},
		{name: "a bot's commit on top, ancestry unread: in doubt a person's", head: "b2", after: []lifecycle.Event{botOnTop},
			pushed: true, byAuthor: true, from: "b2"},
		{name: "a bot's commit on the mark's head", head: "b2", after: []lifecycle.Event{botOnTop},
			opts: lifecycle.Options{Ancestry: []lifecycle.Commit{bot("b2", "a1")}}},
		{name: "two bots' commits on the mark's head (SHAs in any case)", head: "B3", after: []lifecycle.Event{botOnTop, commit("b3", daysAgo(0.5), true, "")},
			opts: lifecycle.Options{Ancestry: []lifecycle.Commit{bot("b3", "B2"), bot("b2", "A1")}}},
		{name: "a bot's commit on a person's old-dated one", head: "b2",
			after:  []lifecycle.Event{commit("p1", daysAgo(40), false, author), botOnTop},
			opts:   lifecycle.Options{Ancestry: []lifecycle.Commit{bot("b2", "p1"), person("p1", "a1", author)}},
			pushed: true, byAuthor: true},
		{name: "the chain read ends before the mark's head: read on", head: "b2", after: []lifecycle.Event{botOnTop},
			opts: lifecycle.Options{Ancestry: []lifecycle.Commit{bot("b2", "b1"), bot("b1", "b0")}}, pushed: true, byAuthor: true, from: "b0"},
		{name: "read on, to the mark's head", head: "b2", after: []lifecycle.Event{botOnTop},
			opts: lifecycle.Options{Ancestry: []lifecycle.Commit{bot("b2", "b1"), bot("b1", "b0"), bot("b0", "a1")}}},
		{name: "the what-if, part read", head: "b2", after: []lifecycle.Event{botOnTop},
			opts: lifecycle.Options{Ancestry: []lifecycle.Commit{bot("b2", "b1")}, AssumeOnlyBots: true}},
		{name: "the what-if cannot undo a person's commit read", head: "b2", after: []lifecycle.Event{botOnTop},
			opts:   lifecycle.Options{Ancestry: []lifecycle.Commit{bot("b2", "p1"), person("p1", "p0", author)}, AssumeOnlyBots: true},
			pushed: true, byAuthor: true},
		{name: "a bot's merge of the base branch into the mark's head", head: "b2", after: []lifecycle.Event{botOnTop},
			opts: lifecycle.Options{Ancestry: []lifecycle.Commit{bot("b2", "a1")}}},
		{name: "a bot's merge made on the base branch's line", head: "b2", after: []lifecycle.Event{botOnTop},
			opts:   lifecycle.Options{Ancestry: []lifecycle.Commit{bot("b2", "main9"), bot("main9", "main8")}},
			pushed: true, byAuthor: true, from: "main8"},
		{name: "a root commit", head: "b2", after: []lifecycle.Event{botOnTop},
			opts: lifecycle.Options{Ancestry: []lifecycle.Commit{bot("b2", "")}}, pushed: true, byAuthor: true},
		{name: "a bot's force push, ancestry unread", head: "f1",
			after:  []lifecycle.Event{{Kind: lifecycle.ForcePushed, At: daysAgo(1), Actor: "ci-helper[bot]", Bot: true, SHA: "f1"}},
			pushed: true, byAuthor: true, from: "f1"},
		{name: "a bot's force push that rewrote the branch", head: "f1",
			after: []lifecycle.Event{{Kind: lifecycle.ForcePushed, At: daysAgo(1), Actor: "ci-helper[bot]", Bot: true, SHA: "f1"}},
			opts:  lifecycle.Options{Ancestry: []lifecycle.Commit{bot("f1", "main9"), person("main9", "main8", "zed")}}, pushed: true, byAuthor: true,
			from: "main8"}, // the author's commits may lie further down
		{name: "the sweep's what-if: only bots", head: "b2", after: []lifecycle.Event{botOnTop},
			opts: lifecycle.Options{AssumeOnlyBots: true}},
		{name: "a maintainer's fixup dated after the mark: the author's push unproven", head: "m2",
			after:  []lifecycle.Event{commit("m2", daysAgo(1), false, maintainer)},
			pushed: true, byAuthor: true, from: "m2"},
		{name: "a maintainer's fixup on the mark's head", head: "m2", after: []lifecycle.Event{commit("m2", daysAgo(1), false, maintainer)},
			opts: lifecycle.Options{Ancestry: []lifecycle.Commit{person("m2", "a1", maintainer)}}, pushed: true},
		{name: "a maintainer's fixup on the author's old-dated commit", head: "m2",
			after:  []lifecycle.Event{commit("p1", daysAgo(40), false, author), commit("m2", daysAgo(1), false, maintainer)},
			opts:   lifecycle.Options{Ancestry: []lifecycle.Commit{person("m2", "p1", maintainer), person("p1", "a1", author)}},
			pushed: true, byAuthor: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			pr := lifecycle.PR{CreatedAt: daysAgo(90), UpdatedAt: daysAgo(0.5), Author: author, Labels: []string{staleLabel}, HeadSHA: tt.head}
			o := tt.opts
			o.Self = []string{selfLogin}
			got := lifecycle.SummarizeWith(pr, append(append([]lifecycle.Event(nil), history...), tt.after...), staleLabel, o)
			if got.PushedAfterMark != tt.pushed || got.AuthorPushedAfterMark != tt.byAuthor ||
				got.NeedsAncestry != (tt.from != "") || got.AncestryFrom != tt.from {
				t.Fatalf("PushedAfterMark %v, AuthorPushedAfterMark %v, NeedsAncestry %v from %q; want %v, %v, from %q",
					got.PushedAfterMark, got.AuthorPushedAfterMark, got.NeedsAncestry, got.AncestryFrom, tt.pushed, tt.byAuthor, tt.from)
			}
			if tt.pushed && !got.LastPersonAt.Equal(pr.UpdatedAt) {
				t.Errorf("LastPersonAt = %s, want updated_at: a person pushed by then", fmtTime(got.LastPersonAt))
			}
		})
	}
}

// TestDecideBotOnTopOfOldCommits: the harmful direction. A person pushes
// commits made long ago after the mark, a bot commits on top: the PR is
// never closed on the history alone, and closed only when the ancestry
// proves a bot alone moved the head.
func TestDecideBotOnTopOfOldCommits(t *testing.T) {
	t.Parallel()
	mark := daysAgo(10) // due: closeDays after the mark
	notice := staleNotice(mark, selfLogin, mark)
	notice.MarkHead = "a1"
	events := []lifecycle.Event{
		labeled(mark, selfLogin, staleLabel), notice,
		{Kind: lifecycle.Committed, At: daysAgo(40), SHA: "p1"},
		{Kind: lifecycle.Committed, At: daysAgo(0.5), SHA: "b2", Bot: true},
	}
	p := with(pr(daysAgo(0.5), staleLabel), func(p *lifecycle.PR) { p.HeadSHA = "b2" })
	for _, c := range []struct {
		name     string
		ancestry []lifecycle.Commit
		pol      lifecycle.Policy
		want     lifecycle.Action
	}{
		{"unread", nil, policy(), lifecycle.Unstale},
		{"unread, author-turn", nil, policy(authorTurn), lifecycle.Unstale},
		{"the person's commit under the bot's", []lifecycle.Commit{{SHA: "b2", Parent: "p1", Bot: true}, {SHA: "p1", Parent: "a1"}}, policy(), lifecycle.Unstale},
		{"the bot's alone on the mark's head", []lifecycle.Commit{{SHA: "b2", Parent: "a1", Bot: true}}, policy(), lifecycle.Close},
	} {
		a := lifecycle.SummarizeWith(p, events, staleLabel, lifecycle.Options{Self: []string{selfLogin}, Ancestry: c.ancestry})
		if d := lifecycle.Decide(p, &a, now, c.pol); d.Action != c.want {
			t.Errorf("%s: %v, want %v", c.name, d, c.want)
		}
	}
}
