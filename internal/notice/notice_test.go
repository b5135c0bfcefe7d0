package notice_test

import (
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stalepr/stalepr/internal/lifecycle"
	"github.com/stalepr/stalepr/internal/notice"
)

var now = time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC)

// vars has a distinct value for every placeholder, so a swap shows.
func vars() notice.Vars {
	return notice.Vars{
		Author:          "alice",
		Reviewers:       []string{"bob", "carol"},
		DaysInactive:    45,
		DaysBeforeStale: 30,
		DaysBeforeClose: 7,
		CloseDate:       time.Date(2026, 12, 6, 12, 0, 0, 0, time.UTC),
		StaleLabel:      "stale",
		Labels:          []string{"bug", "needs-info"},
	}
}

func TestRender(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		tmpl string
		mod  func(*notice.Vars)
		want string
	}{
		{name: "author is mentioned", tmpl: "Hi {{author}}!", want: "Hi @alice!"},
		{name: "author with spaces inside the braces", tmpl: "Hi {{ author }}!", want: "Hi @alice!"},
		{name: "author with tabs and uneven spaces", tmpl: "Hi {{\tauthor   }}!", want: "Hi @alice!"},
		{name: "empty author renders empty, not a bare @", tmpl: "Hi {{author}}!", mod: func(v *notice.Vars) { v.Author = "" }, want: "Hi !"},
		{name: "a bot author is named, never mentioned (a mention can start an agent)", tmpl: "not on {{author}}",
			mod: func(v *notice.Vars) { v.Author, v.AuthorBot = "Copilot", true }, want: "not on Copilot"},
		{name: "reviewers are mentioned, comma separated", tmpl: "{{reviewers}}", want: "@bob, @carol"},
		{name: "a bot or a known agent among the reviewers is named, never mentioned", tmpl: "{{reviewers}}",
			mod: func(v *notice.Vars) { v.Reviewers = []string{"bob", "Copilot", "renovate[bot]"} }, want: "@bob, Copilot, renovate[bot]"},
		{name: "a known agent author is named even when the caller did not say bot", tmpl: "{{author}}",
			mod: func(v *notice.Vars) { v.Author = "devin-ai-integration[bot]" }, want: "devin-ai-integration[bot]"},
		{name: "no reviewers renders empty", tmpl: "[{{reviewers}}]", mod: func(v *notice.Vars) { v.Reviewers = nil }, want: "[]"},
		{name: "days-inactive", tmpl: "{{days-inactive}}", want: "45"},
		{name: "days-before-stale", tmpl: "{{days-before-stale}}", want: "30"},
		{name: "days-before-close", tmpl: "{{days-before-close}}", want: "7"},
		{name: "close-date as a UTC date", tmpl: "{{close-date}}", want: "2026-12-06"},
		{
			name: "close-date converted to UTC before formatting",
			tmpl: "{{close-date}}",
			mod: func(v *notice.Vars) {
				v.CloseDate = time.Date(2026, 12, 6, 22, 30, 0, 0, time.FixedZone("EST", -5*3600))
			},
			want: "2026-12-07",
		},
		{name: "zero close-date renders never", tmpl: "{{close-date}}", mod: func(v *notice.Vars) { v.CloseDate = time.Time{} }, want: "never"},
		{name: "stale-label", tmpl: "`{{stale-label}}`", want: "`stale`"},
		{name: "labels, comma separated", tmpl: "{{labels}}", want: "bug, needs-info"},
		{name: "a placeholder used twice is filled twice", tmpl: "{{author}} {{ author }}", want: "@alice @alice"},
		{name: "text without placeholders is unchanged", tmpl: "Plain {text} and { {author} }", want: "Plain {text} and { {author} }"},
		{name: "unknown placeholder is left as written", tmpl: "{{assignee}} {{author}}", want: "{{assignee}} @alice"},
		{name: "values are not expanded again", tmpl: "{{author}}", mod: func(v *notice.Vars) { v.Author = "{{labels}}" }, want: "@{{labels}}"},
		{
			name: "every placeholder in one message",
			tmpl: "{{author}}|{{reviewers}}|{{days-inactive}}|{{days-before-stale}}|{{days-before-close}}|{{close-date}}|{{stale-label}}|{{labels}}",
			want: "@alice|@bob, @carol|45|30|7|2026-12-06|stale|bug, needs-info",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v := vars()
			if tt.mod != nil {
				tt.mod(&v)
			}
			if got := notice.Render(tt.tmpl, v); got != tt.want {
				t.Errorf("Render(%q) = %q, want %q", tt.tmpl, got, tt.want)
			}
		})
	}
}

func TestDefaultsRender(t *testing.T) {
	t.Parallel()
	for name, tmpl := range map[string]string{"DefaultStale": lifecycle.DefaultStale, "DefaultClose": lifecycle.DefaultClose} {
		t.Run(name, func(t *testing.T) {
			if err := notice.Check(tmpl); err != nil {
				t.Fatalf("Check: %v", err)
			}
			got := notice.Render(tmpl, vars())
			if strings.Contains(got, "{{") || strings.Contains(got, "}}") {
				t.Errorf("placeholder left in %q", got)
			}
			if !strings.Contains(got, "`stale`") {
				t.Errorf("stale label missing from %q", got)
			}
		})
	}
	if got := notice.Render(lifecycle.DefaultStale, vars()); !strings.Contains(got, "45 days") || !strings.Contains(got, "2026-12-06") {
		t.Errorf("DefaultStale lacks days inactive or close date: %q", got)
	}
	if got := notice.Render(lifecycle.DefaultClose, vars()); !strings.Contains(got, "7 days") {
		t.Errorf("DefaultClose lacks days before close: %q", got)
	}
}

// TestTurnDefaults: the author-turn notice says why (since when, after
// whose review, what hands it back); the nudge mentions the pending
// requested reviewers and nobody else.
func TestTurnDefaults(t *testing.T) {
	t.Parallel()
	v := notice.Vars{Author: "alice", Reviewers: []string{"rey", "team:core"}, DaysWaiting: 9, StaleLabel: "stale",
		TurnSince: time.Date(2026, 10, 2, 8, 0, 0, 0, time.UTC), TurnBy: "maya", TurnByReview: true,
		CloseDate: time.Date(2026, 12, 6, 0, 0, 0, 0, time.UTC)}
	for _, tmpl := range []string{lifecycle.DefaultStaleAuthorTurn, lifecycle.DefaultStaleAuthorTurnNoClose, lifecycle.DefaultStaleNoClose, lifecycle.DefaultStaleOpen, lifecycle.DefaultStaleOpenNoClose, lifecycle.DefaultCloseNowOpen, notice.DefaultEscalationAway, notice.DefaultNudge, lifecycle.DefaultCloseNow,
		lifecycle.DefaultCloseAuthorTurn, lifecycle.DefaultCloseNowAuthorTurn} {
		if err := notice.Check(tmpl); err != nil {
			t.Fatalf("Check: %v", err)
		}
	}
	stale := notice.Render(lifecycle.DefaultStaleAuthorTurn, v)
	for _, want := range []string{"since 2026-10-02", "after maya's review", "A push, a reply or a re-requested review", "2026-12-06"} {
		if !strings.Contains(stale, want) {
			t.Errorf("author-turn notice %q lacks %q", stale, want)
		}
	}
	v.TurnBy = ""
	if got := notice.Render(lifecycle.DefaultStaleAuthorTurn, v); !strings.Contains(got, "as a draft") {
		t.Errorf("author-turn notice of a draft %q does not say so", got)
	}
	for _, c := range []struct {
		v    notice.Vars
		want string
	}{
		{notice.Vars{TurnLabel: "needs-rebase"}, "on its author, labelled needs-rebase"},
		{notice.Vars{TurnConflict: true}, "on its author, with a merge conflict to resolve"},
		{notice.Vars{TurnCheck: "test (ubuntu)"}, "on its author, with the required check test (ubuntu) failing"},
	} {
		if got := notice.Render("{{waiting-on-author}}", c.v); got != c.want {
			t.Errorf("waiting-on-author = %q, want %q", got, c.want)
		}
	}
	nudge := notice.Render(notice.DefaultNudge, v)
	if !strings.Contains(nudge, "@rey, the core team") || !strings.Contains(nudge, "9 days") {
		t.Errorf("nudge %q lacks the reviewers or the days waiting", nudge)
	}
	if strings.Count(nudge, "@") != 1 {
		t.Errorf("nudge %q mentions someone besides the requested reviewers", nudge)
	}
}

func TestCheck(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		tmpl    string
		ok      bool
		unknown string // the name the error must give
	}{
		{name: "no placeholders", tmpl: "Closing.", ok: true},
		{name: "every known placeholder", tmpl: strings.Join(notice.Placeholders(), " "), ok: true},
		{name: "known placeholder with spaces", tmpl: "{{ author }} and {{  close-date }}", ok: true},
		{name: "single braces are plain text", tmpl: "{author} {days}", ok: true},
		{name: "unknown placeholder", tmpl: "Hi {{assignee}}", unknown: "assignee"},
		{name: "unknown placeholder with spaces is named trimmed", tmpl: "Hi {{  assignee }}", unknown: "assignee"},
		{name: "first unknown after a known one", tmpl: "{{author}} {{days}} {{weeks}}", unknown: "days"},
		{name: "misspelt placeholder", tmpl: "{{days_inactive}}", unknown: "days_inactive"},
		{name: "empty placeholder", tmpl: "{{}}", unknown: ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := notice.Check(tt.tmpl)
			if tt.ok {
				if err != nil {
					t.Fatalf("Check(%q) = %v, want nil", tt.tmpl, err)
				}
				return
			}
			if err == nil {
				t.Fatalf("Check(%q) = nil, want an error", tt.tmpl)
			}
			if want := "{{" + tt.unknown + "}}"; !strings.Contains(err.Error(), want) {
				t.Errorf("error %q does not name %s", err, want)
			}
			if !strings.Contains(err.Error(), "{{days-inactive}}") {
				t.Errorf("error %q does not list the known placeholders", err)
			}
		})
	}
}

func TestPlaceholders(t *testing.T) {
	t.Parallel()
	want := []string{
		"{{author}}", "{{close-date}}", "{{days-before-close}}", "{{days-before-stale}}",
		"{{days-inactive}}", "{{days-waiting}}", "{{how-to-continue}}", "{{labels}}", "{{reviewers}}", "{{stale-label}}", "{{waiting-on-author}}",
	}
	if got := notice.Placeholders(); !slices.Equal(got, want) {
		t.Errorf("Placeholders() = %q, want %q", got, want)
	}
}

func TestMarkers(t *testing.T) {
	t.Parallel()
	markedAt := now.Add(-3 * lifecycle.Day)
	tests := []struct {
		name     string
		body     string
		kind     lifecycle.Notice
		markedAt time.Time
	}{
		{name: "stale marker round-trips with its marked time", body: notice.StaleMarker(markedAt, ""), kind: lifecycle.StaleNotice, markedAt: markedAt},
		{
			name:     "stale marker of a non-UTC time round-trips to the same instant",
			body:     notice.StaleMarker(markedAt.In(time.FixedZone("CET", 3600)), ""),
			kind:     lifecycle.StaleNotice,
			markedAt: markedAt,
		},
		{name: "close marker round-trips", body: notice.CloseMarker(lifecycle.RuleAuthorTurn), kind: lifecycle.CloseNotice},
		{name: "nudge marker round-trips", body: notice.Body(notice.Render(notice.DefaultNudge, vars()), notice.NudgeMarker()), kind: lifecycle.NudgeNotice},
		{name: "reopen marker round-trips", body: notice.Body(notice.Render(notice.DefaultReopen, vars()), notice.ReopenMarker()), kind: lifecycle.ReopenNotice},
		{name: "escalation marker round-trips", body: notice.Body(notice.Render(notice.DefaultEscalation, vars()), notice.EscalateMarker()), kind: lifecycle.EscalateNotice},
		{
			name:     "stale marker embedded in a rendered notice",
			body:     notice.Body(notice.Render(lifecycle.DefaultStale, vars())+"\n\n", notice.StaleMarker(markedAt, "")),
			kind:     lifecycle.StaleNotice,
			markedAt: markedAt,
		},
		{
			name: "close marker embedded in a rendered comment",
			body: notice.Body(notice.Render(lifecycle.DefaultClose, vars()), notice.CloseMarker(lifecycle.RuleInactivity)),
			kind: lifecycle.CloseNotice,
		},
		{
			name:     "marker in the middle of a longer body, quoted by a person",
			body:     "> quoting the bot\n> " + notice.StaleMarker(markedAt, "") + "\n\nI am still working on it.",
			kind:     lifecycle.StaleNotice,
			markedAt: markedAt,
		},
		{name: "body without marker", body: "This pull request looks stale to me.", kind: lifecycle.NoNotice},
		{name: "empty body", body: "", kind: lifecycle.NoNotice},
		{name: "another tool's marker", body: "<!-- stale-bot:stale -->", kind: lifecycle.NoNotice},
		{name: "unknown stalepr marker kind", body: "<!-- stalepr:snooze -->", kind: lifecycle.NoNotice},
		{name: "stale marker without marked time", body: "<!-- stalepr:stale -->", kind: lifecycle.StaleNotice},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			kind, at, _, _ := notice.Parse(tt.body)
			if kind != tt.kind {
				t.Errorf("kind = %d, want %d", kind, tt.kind)
			}
			if !at.Equal(tt.markedAt) {
				t.Errorf("markedAt = %v, want %v", at, tt.markedAt)
			}
		})
	}
}

func TestMarkersAreHidden(t *testing.T) {
	t.Parallel()
	for _, m := range []string{notice.StaleMarker(now, ""), notice.CloseMarker(lifecycle.RuleInactivity), notice.CloseMarker("")} {
		if !strings.HasPrefix(m, "<!--") || !strings.HasSuffix(m, "-->") || strings.Contains(m, "\n") {
			t.Errorf("marker %q is not a one-line HTML comment", m)
		}
	}
	if notice.StaleMarker(now, "") == notice.StaleMarker(now.Add(time.Second), "") {
		t.Error("stale marker does not carry the marked time")
	}
}

func TestBody(t *testing.T) {
	t.Parallel()
	tests := []struct{ text, want string }{
		{"Closing.", "Closing.\n\nM"},
		{"Closing.\n\n\n", "Closing.\n\nM"},
		{"", "\n\nM"},
	}
	for _, tt := range tests {
		if got := notice.Body(tt.text, "M"); got != tt.want {
			t.Errorf("Body(%q) = %q, want %q", tt.text, got, tt.want)
		}
	}
}

// TestMarkerHead: the head commit a stale marker carries is read back, and
// markers written without it (as v1 did) are still recognised.
func TestMarkerHead(t *testing.T) {
	at := time.Date(2026, 11, 1, 12, 0, 0, 0, time.UTC)
	const sha = "0123456789abcdef0123456789abcdef01234567"
	for _, tc := range []struct {
		body, head string
	}{
		{notice.StaleMarker(at, sha), sha},
		{notice.StaleMarker(at, ""), ""},
		{"<!-- stalepr:stale marked=2026-11-01T12:00:00Z -->", ""}, // v1
	} {
		kind, markedAt, head, _ := notice.Parse("text\n\n" + tc.body)
		if kind != lifecycle.StaleNotice || !markedAt.Equal(at) || head != tc.head {
			t.Errorf("Parse(%q) = %v %v %q, want stale %v %q", tc.body, kind, markedAt, head, at, tc.head)
		}
	}
}

// TestCloseMarkerRule: a closing comment's markers record the rule that
// closed the PR and it is read back; the marker every version before it
// wrote (`<!-- stalepr:close -->`, unchanged since v1) is still our close,
// its rule unknown, and so is one naming a rule this version does not know
// (a later version's): it is read as written, for lifecycle.Policy.RuleOn to
// refuse. A malformed rule is no rule. And the other way: the pattern every
// earlier version reads markers by (as of 5feebc7, unchanged in what it
// reads of a close since v1) still finds our close in what this version
// writes, so a version moved back does not post its closing comment again.
func TestCloseMarkerRule(t *testing.T) {
	t.Parallel()
	if got := notice.CloseMarker(lifecycle.RuleAuthorTurn); got != "<!-- stalepr:close --> <!-- stalepr:rule=author-turn -->" {
		t.Errorf("CloseMarker(author-turn) = %q", got)
	}
	earlier := regexp.MustCompile(`<!-- stalepr:(stale|close|nudge|reopened|escalated|answered)(?: marked=([0-9TZ:+\-.]+))?(?: head=([0-9a-f]{7,64}))? -->`)
	for _, r := range []lifecycle.RuleName{lifecycle.RuleInactivity, lifecycle.RuleAuthorTurn, lifecycle.RuleIntake} {
		body := notice.Body("Closing.", notice.CloseMarker(r))
		if m := earlier.FindStringSubmatch(body); m == nil || m[1] != "close" {
			t.Errorf("an earlier version reads %q as %q, want its close", body, m)
		}
	}
	for _, tc := range []struct {
		body string
		kind lifecycle.Notice
		rule lifecycle.RuleName
	}{
		{notice.CloseMarker(lifecycle.RuleInactivity), lifecycle.CloseNotice, lifecycle.RuleInactivity},
		{notice.CloseMarker(lifecycle.RuleAuthorTurn), lifecycle.CloseNotice, lifecycle.RuleAuthorTurn},
		{notice.CloseMarker(lifecycle.RuleIntake), lifecycle.CloseNotice, lifecycle.RuleIntake},
		{"Closing this pull request.\n\n<!-- stalepr:close -->", lifecycle.CloseNotice, ""},                                      // v1 to this version
		{"Closing.\n\n<!-- stalepr:close --> <!-- stalepr:rule=failing-checks-2 -->", lifecycle.CloseNotice, "failing-checks-2"}, // a later version's
		{"<!-- stalepr:close --> <!-- stalepr:rule=Author_Turn -->", lifecycle.CloseNotice, ""},
		{"<!-- stalepr:close --> <!-- stalepr:rule= -->", lifecycle.CloseNotice, ""},
		{"<!-- stalepr:rule=author-turn -->", lifecycle.NoNotice, ""}, // a rule alone is no close
		{"<!-- stalepr:stale marked=2026-11-01T12:00:00Z -->", lifecycle.StaleNotice, ""},
	} {
		kind, _, _, rule := notice.Parse(tc.body)
		if kind != tc.kind || rule != tc.rule {
			t.Errorf("Parse(%q) = %v rule %q, want %v rule %q", tc.body, kind, rule, tc.kind, tc.rule)
		}
	}
}

// TestAwayNote: the sentence says why each reviewer not asked is not, and
// names them without a mention.
func TestAwayNote(t *testing.T) {
	cases := []struct {
		away, busy, withdrew []string
		want                 string
	}{
		{nil, nil, nil, ""},
		{[]string{"rey"}, nil, nil, "\n\nNot asked: rey, who is away."},
		{[]string{"rey", "sam", "kim"}, nil, nil, "\n\nNot asked: rey, sam and kim, who are away."},
		{nil, []string{"kim"}, nil, "\n\nNot asked: kim, who is busy on GitHub."},
		{[]string{"rey"}, []string{"kim", "lou"}, nil, "\n\nNot asked: rey, who is away; kim and lou, who are busy on GitHub."},
		{nil, nil, []string{"bob"}, "\n\nNot asked: bob, who withdrew from the review."},
		{[]string{"rey"}, nil, []string{"bob", "ann"}, "\n\nNot asked: rey, who is away; bob and ann, who withdrew from the review."},
	}
	for _, c := range cases {
		if got := notice.AwayNote(c.away, c.busy, c.withdrew); got != c.want {
			t.Errorf("AwayNote(%v, %v, %v) = %q, want %q", c.away, c.busy, c.withdrew, got, c.want)
		}
	}
	refused := notice.NotAskedNote([]string{"rey"}, nil, nil, []string{"cal", "dee"})
	if want := "\n\nNot asked: rey, who is away; cal and dee, whose review GitHub refused to request (not a collaborator of this repository)."; refused != want {
		t.Errorf("NotAskedNote = %q, want %q", refused, want)
	}
}
