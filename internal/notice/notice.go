package notice

import (
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/stalepr/stalepr/internal/lifecycle"
)

// Answer fills the words of an answer to a command (lifecycle.Command's
// Words) on PR number of the repository at repoURL: {{repository}} and
// {{number}}, the only values an answer says. An answer has no message
// input, so these are not the messages' placeholders.
func Answer(text, repoURL string, number int) string {
	return strings.NewReplacer("{{repository}}", repoURL, "{{number}}", strconv.Itoa(number)).Replace(text)
}

// The default texts of the rules of Decide are in the rules' files
// (lifecycle.Rule's Words: lifecycle.DefaultStale, DefaultClose, ...), and
// so are the commands' answers (lifecycle.Command's Words); these are the
// texts no rule of Decide posts.

// DefaultNudge is the review nudge's: it mentions the pending requested
// reviewers only, never the author.
const (
	DefaultNudge = "{{reviewers}} This pull request has been waiting {{days-waiting}} days for a review. " +
		"A review, or a comment saying what it needs, hands it back to its author."
	// DefaultMergeNudge is the nudge's default on the maintainers' turn: an
	// approval stands, nothing blocks, nobody merged. It mentions nobody:
	// who may merge is not known, and the reviewers who approved follow the
	// pull request already.
	DefaultMergeNudge = "This pull request was approved and has been waiting {{days-waiting}} days to be merged. " +
		"Merging it, or a comment saying what it still needs, moves it on."
)

// DefaultEscalation is the comment of a review escalation: the reviewers'
// nudge went unanswered, and {{reviewers}} are the escalation reviewers.
const DefaultEscalation = "{{reviewers}} This pull request has been waiting {{days-waiting}} days for a review, " +
	"and the reminder to its reviewers went unanswered: " + escalationAsk

// DefaultEscalationAway is the escalation's comment when no reminder was
// posted: every reviewer the PR waits on is away or busy, or withdrew from
// the review, and the comment ends saying who (AwayNote).
const DefaultEscalationAway = "{{reviewers}} This pull request has been waiting {{days-waiting}} days for a review, " +
	"and none of its reviewers can be asked now: " + escalationAsk

const escalationAsk = "could you review it, or find someone who can?"

// DefaultReopen is the comment on a pull request the closure audit
// reopens: a stale bot closed it while it waited on the reviewers or the
// maintainers, not on its author. {{days-waiting}} is the days on that turn
// at the close.
const DefaultReopen = "Reopening this pull request: it was closed as stale after waiting {{days-waiting}} days " +
	"for a review or a merge, not on {{author}}. Sorry about that: nothing is needed from you to keep it open."

// Vars are the values a message may refer to.
type Vars struct {
	Author string
	// AuthorBot: the author is a bot (the Copilot coding agent, a
	// dependency bot): {{author}} names it without a mention, since a
	// mention of an agent can start a paid run of it.
	AuthorBot       bool
	Reviewers       []string
	DaysInactive    int
	DaysBeforeStale int
	DaysBeforeClose int
	CloseDate       time.Time // zero: never
	StaleLabel      string
	Labels          []string
	// The turn (see lifecycle.Turn): days on the reviewers' turn for the
	// nudge; for the stale notice under author-turn, since when it waits
	// on the author and after whose review or comment ("" for a draft).
	DaysWaiting  int
	TurnSince    time.Time
	TurnBy       string
	TurnByReview bool
	TurnLabel    string // the author-turn label that passed the turn; "" none
	TurnConflict bool   // a merge conflict passed the turn
	TurnCheck    string // the required check whose failure passed the turn; "" none
	// ReopenCommand is reopen-command ("" off) and ToDraft close-action
	// draft: what {{how-to-continue}} tells the author to do.
	ReopenCommand string
	ToDraft       bool
}

var placeholders = map[string]func(Vars) string{
	"author": func(v Vars) string {
		if v.AuthorBot {
			return v.Author
		}
		return mention(v.Author)
	},
	"reviewers":         func(v Vars) string { return mentions(v.Reviewers) },
	"days-inactive":     func(v Vars) string { return fmt.Sprint(v.DaysInactive) },
	"days-before-stale": func(v Vars) string { return fmt.Sprint(v.DaysBeforeStale) },
	"days-before-close": func(v Vars) string { return fmt.Sprint(v.DaysBeforeClose) },
	"close-date": func(v Vars) string {
		if v.CloseDate.IsZero() {
			return "never"
		}
		return v.CloseDate.UTC().Format("2006-01-02")
	},
	"stale-label": func(v Vars) string { return v.StaleLabel },
	"how-to-continue": func(v Vars) string {
		switch {
		case v.ToDraft:
			return "Mark it ready for review whenever you want to continue."
		case v.ReopenCommand != "":
			return "Comment `" + v.ReopenCommand + "` to reopen it whenever you want to continue."
		}
		return "Ask a maintainer to reopen it, or open a new one, whenever you want to continue."
	},
	"labels":       func(v Vars) string { return strings.Join(v.Labels, ", ") },
	"days-waiting": func(v Vars) string { return fmt.Sprint(v.DaysWaiting) },
	"waiting-on-author": func(v Vars) string {
		s := "on its author"
		if !v.TurnSince.IsZero() {
			s += " since " + v.TurnSince.UTC().Format("2006-01-02")
		}
		switch {
		case v.TurnBy != "" && v.TurnByReview:
			s += ", after " + v.TurnBy + "'s review" // no @: the notice pings nobody but the author
		case v.TurnBy != "":
			s += ", after " + v.TurnBy + "'s comment"
		case v.TurnLabel != "":
			s += ", labelled " + v.TurnLabel
		case v.TurnConflict:
			s += ", with a merge conflict to resolve"
		case v.TurnCheck != "":
			s += ", with the required check " + v.TurnCheck + " failing"
		default:
			s += ", as a draft"
		}
		return s
	},
}

// Placeholders lists the names a message may use, for help texts and errors.
func Placeholders() []string {
	names := make([]string, 0, len(placeholders))
	for n := range placeholders {
		names = append(names, "{{"+n+"}}")
	}
	sort.Strings(names)
	return names
}

var placeholderRE = regexp.MustCompile(`\{\{\s*([^{}]*?)\s*\}\}`)

// Check reports the first unknown placeholder in a message template.
func Check(tmpl string) error {
	for _, m := range placeholderRE.FindAllStringSubmatch(tmpl, -1) {
		if _, ok := placeholders[m[1]]; !ok {
			return fmt.Errorf("unknown placeholder {{%s}}; known: %s", m[1], strings.Join(Placeholders(), " "))
		}
	}
	return nil
}

// Uses reports whether a template refers to placeholder name ("reviewers").
func Uses(tmpl, name string) bool {
	for _, m := range placeholderRE.FindAllStringSubmatch(tmpl, -1) {
		if m[1] == name {
			return true
		}
	}
	return false
}

// Render fills a template that Check accepted.
func Render(tmpl string, v Vars) string {
	return placeholderRE.ReplaceAllStringFunc(tmpl, func(m string) string {
		name := strings.TrimSpace(m[2 : len(m)-2]) // the match is {{ name }}
		if f, ok := placeholders[name]; ok {
			return f(v)
		}
		return m
	})
}

// mention is login as a mention, but for a bot's or a known coding
// agent's, which is named without the @: a mention can start a paid run of
// an agent, and a bot reads no notice. The callers leave bots out already;
// this is the last guard.
func mention(login string) string {
	if login == "" {
		return ""
	}
	if lifecycle.IsBotLogin(login) || lifecycle.ContainsFold(lifecycle.Agents, login) {
		return login
	}
	return "@" + login
}

func mentions(logins []string) string {
	out := make([]string, len(logins))
	for i, l := range logins {
		if slug, ok := strings.CutPrefix(l, lifecycle.TeamPrefix); ok {
			out[i] = "the " + slug + " team"
			continue
		}
		out[i] = mention(l)
	}
	return strings.Join(out, ", ")
}

// AwayNote is the sentence a nudge or an escalation ends with when some
// reviewers the PR waits on are away (away-reviewers) or busy (their
// GitHub status says so), or a reviewer withdrew the review requested of
// them: why they are not asked. They are named without a mention; ""
// when nobody is any of these.
func AwayNote(away, busy, withdrew []string) string { return NotAskedNote(away, busy, withdrew, nil) }

// NotAskedNote is AwayNote naming also those GitHub refused to ask
// (refused): a review is requested of the repository's collaborators only.
func NotAskedNote(away, busy, withdrew, refused []string) string {
	var parts []string
	if len(away) > 0 {
		parts = append(parts, names(away)+", "+who(away)+" away")
	}
	if len(busy) > 0 {
		parts = append(parts, names(busy)+", "+who(busy)+" busy on GitHub")
	}
	if len(withdrew) > 0 {
		parts = append(parts, names(withdrew)+", who withdrew from the review")
	}
	if len(refused) > 0 {
		parts = append(parts, names(refused)+", whose review GitHub refused to request (not a collaborator of this repository)")
	}
	if len(parts) == 0 {
		return ""
	}
	return "\n\nNot asked: " + strings.Join(parts, "; ") + "."
}

// names joins logins as a sentence does: "a", "a and b", "a, b and c".
func names(logins []string) string {
	if len(logins) == 1 {
		return logins[0]
	}
	return strings.Join(logins[:len(logins)-1], ", ") + " and " + logins[len(logins)-1]
}

// who is the relative pronoun and verb for logins: "who is", "who are".
func who(logins []string) string {
	if len(logins) == 1 {
		return "who is"
	}
	return "who are"
}

// Hidden markers. A stale marker carries when the label was added, so a later
// run can time the close from the repository's comment listing alone.
const (
	markerPrefix = "<!-- stalepr:"
	staleKind    = "stale"
	closeKind    = "close"
	nudgeKind    = "nudge"
	reopenKind   = "reopened"
	escalateKind = "escalated"
	answerKind   = "answered"
	ruleKind     = "rule="
)

// StaleMarker returns the hidden line appended to a stale notice. head is
// the PR's head commit when it was marked ("" when unknown): later pushes
// of commits with old git dates show against it. Markers are a contract:
// v1 wrote them without head=, and Parse keeps reading those.
func StaleMarker(markedAt time.Time, head string) string {
	m := fmt.Sprintf("%s%s marked=%s", markerPrefix, staleKind, markedAt.UTC().Format(time.RFC3339))
	if head != "" {
		m += " head=" + head
	}
	return m + " -->"
}

// CloseMarker returns the hidden lines appended to a closing comment: the
// close's marker, as every version wrote it, then the rule that closed the
// PR (lifecycle.Decision.Rule) in a marker of its own, which the closure
// audit trusts while that rule is on. Markers are a contract both ways:
// Parse reads an earlier version's close, with no rule, as our close, and
// an earlier version, run again after this one (a pinned tag moved back),
// still finds its close marker whole and passes over the rule's, which its
// pattern does not know, rather than posting the closing comment twice.
func CloseMarker(rule lifecycle.RuleName) string {
	m := markerPrefix + closeKind + " -->"
	if rule == "" {
		return m
	}
	return m + " " + markerPrefix + ruleKind + string(rule) + " -->"
}

// NudgeMarker returns the hidden line appended to a review nudge: the
// turn's own start is in the timeline, so the nudge needs only its kind.
func NudgeMarker() string { return markerPrefix + nudgeKind + " -->" }

// EscalateMarker returns the hidden line appended to a review escalation:
// once per reviewers' turn, as the nudge.
func EscalateMarker() string { return markerPrefix + escalateKind + " -->" }

// ReopenMarker returns the hidden line appended to the comment of a
// reopening by the closure audit: once per PR.
func ReopenMarker() string { return markerPrefix + reopenKind + " -->" }

// AnsweredMarker returns the hidden line appended to the answer to a
// command: once per close (lifecycle.CommandNotice).
func AnsweredMarker() string { return markerPrefix + answerKind + " -->" }

var markerRE = regexp.MustCompile(`<!-- stalepr:(stale|close|nudge|reopened|escalated|answered)(?: marked=([0-9TZ:+\-.]+))?(?: head=([0-9a-f]{7,64}))? -->`)

// ruleRE is the marker of the rule that closed a PR, after its close
// marker (CloseMarker).
var ruleRE = regexp.MustCompile(`<!-- stalepr:rule=([a-z0-9-]{1,64}) -->`)

// Parse finds our marker in a comment body. rule is what a close's marker
// records: "" for an earlier version's, which recorded none; a name this
// version does not know (a later version's) is returned as written, and
// lifecycle.Policy.RuleOn is false for it.
func Parse(body string) (kind lifecycle.Notice, markedAt time.Time, head string, rule lifecycle.RuleName) {
	m := markerRE.FindStringSubmatch(body)
	if m == nil {
		return lifecycle.NoNotice, time.Time{}, "", ""
	}
	switch m[1] {
	case closeKind:
		var rule lifecycle.RuleName
		if r := ruleRE.FindStringSubmatch(body); r != nil {
			rule = lifecycle.RuleName(r[1])
		}
		return lifecycle.CloseNotice, time.Time{}, "", rule
	case nudgeKind:
		return lifecycle.NudgeNotice, time.Time{}, "", ""
	case reopenKind:
		return lifecycle.ReopenNotice, time.Time{}, "", ""
	case escalateKind:
		return lifecycle.EscalateNotice, time.Time{}, "", ""
	case answerKind:
		return lifecycle.CommandNotice, time.Time{}, "", ""
	}
	t, _ := time.Parse(time.RFC3339, m[2])
	return lifecycle.StaleNotice, t, m[3], ""
}

// Body appends the marker to a rendered message.
func Body(text, marker string) string {
	return strings.TrimRight(text, "\n") + "\n\n" + marker
}

// The intake notice's marker: once per pull request, as the stale notice's
// marker, and trusted only from stalepr's own logins. Its closing comment
// carries every close's marker (CloseMarker).
const intakeKind = "intake"

// IntakeMarker returns the hidden line appended to the intake notice.
func IntakeMarker() string { return markerPrefix + intakeKind + " -->" }

var intakeMarkerRE = regexp.MustCompile(`<!-- stalepr:intake -->`)

// ParseIntake finds the intake notice's marker in a comment body: NoNotice
// when there is none. Apart from Parse, whose markers every version keeps
// reading unchanged.
func ParseIntake(body string) lifecycle.Notice {
	if !intakeMarkerRE.MatchString(body) {
		return lifecycle.NoNotice
	}
	return lifecycle.IntakeNotice
}
