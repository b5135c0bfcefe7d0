package notice

import "github.com/stalepr/stalepr/internal/lifecycle"

// Kind is a kind of text stalepr posts on a pull request, and with it the
// message input that replaces its defaults: lifecycle's, whose rules give
// their words by it, under the name the sweep's writes use.
type Kind = lifecycle.TextKind

const (
	KindStale       = lifecycle.TextStale       // the stale notice, of a mark or posted late: stale-pr-message
	KindClose       = lifecycle.TextClose       // the closing comment: close-pr-message
	KindNudge       = lifecycle.TextNudge       // the review nudge: review-nudge-message
	KindEscalation  = lifecycle.TextEscalation  // the review escalation's comment: no input of its own
	KindIntake      = lifecycle.TextIntake      // the intake notice: intake-message
	KindIntakeClose = lifecycle.TextIntakeClose // the intake clock's closing comment: intake-close-message
	KindAnswer      = lifecycle.TextAnswer      // a command's answer: no input of its own (Answer fills it)
)

// Key picks a default text: its kind, the rule that decided and the
// reason it gave, and for a stale notice whether the PR is never closed,
// the one thing its reason does not tell.
type Key struct {
	Kind   Kind
	Rule   lifecycle.RuleName // "" for the nudge and the escalation, which no rule of Decide makes; a command's name for its answer
	Reason lifecycle.Reason
	Never  bool // a stale notice on a PR that is never closed (its decision's CloseAt zero)
}

// KeyOf is the key of the text of kind posted for decision d.
func KeyOf(kind Kind, d lifecycle.Decision) Key {
	return Key{Kind: kind, Rule: d.Rule, Reason: d.Reason, Never: kind == KindStale && d.CloseAt.IsZero()}
}

// word is a default text; fixed, it is posted whatever its kind's input
// says.
type word struct {
	text  string
	fixed bool
}

// words is the one table of default texts, keyed by the decision each is
// posted for, as report's outcomes keys the reports' words by outcome: the
// rules' words (lifecycle.Rule's Words, in each rule's file), the
// commands' answers (lifecycle.Command's Words, keyed by the command's
// name), and the nudge's and the escalation's, which no rule of Decide
// makes. A reason a
// rule gives for a text gets its word in the rule's file;
// TestEveryReasonWorded fails until it does.
var words = table(lifecycle.Rules())

// table is the words of rules, each keyed by its rule's name, and the
// commands', the nudge's and the escalation's.
func table(rules []lifecycle.Rule) map[Key]word {
	t := map[Key]word{
		{KindNudge, "", lifecycle.ReasonReviewNudge, false}: {text: DefaultNudge},
		// On the maintainers' turn the nudge asks for the merge, whatever
		// review-nudge-message says: a project's own is written for a
		// review, and "waiting 8 days for a review" on an approved PR asks for
		// the wrong thing.
		{KindNudge, "", lifecycle.ReasonMergeNudge, false}:         {text: DefaultMergeNudge, fixed: true},
		{KindEscalation, "", lifecycle.ReasonEscalated, false}:     {text: DefaultEscalation},
		{KindEscalation, "", lifecycle.ReasonEscalatedAway, false}: {text: DefaultEscalationAway}, // no nudge went unanswered: its reviewers were away
	}
	for _, c := range lifecycle.Commands() {
		for _, w := range c.Words {
			t[Key{Kind: w.Kind, Rule: c.Name, Reason: w.Reason}] = word{text: w.Text}
		}
	}
	for _, r := range rules {
		for _, w := range r.Words {
			t[Key{Kind: w.Kind, Rule: r.Name, Reason: w.Reason, Never: w.Never}] = word{text: w.Text}
		}
	}
	return t
}

// inputs are the defaults of the message inputs, by the kind each serves:
// the runner passes action.yml's default as if set, so only a text that
// differs from it is the user's own.
var inputs = map[Kind]string{KindStale: lifecycle.DefaultStale, KindClose: lifecycle.DefaultClose, KindNudge: DefaultNudge,
	KindIntake: lifecycle.DefaultIntake, KindIntakeClose: lifecycle.DefaultIntakeClose}

// Text is the template posted for k. own is the message input of k's kind
// as set ("" posts nothing): a text of the user's own serves every reason
// of its kind but a fixed one. Otherwise it is the table's default for k;
// a key not in the table (an operation priced before any decision) gets
// its kind's first default, which costs what any of them does.
func Text(k Key, own string) string {
	w, ok := words[k]
	if def, input := inputs[k.Kind]; input && own != def && !w.fixed {
		return own
	}
	switch {
	case ok:
		return w.text
	case k.Kind == KindEscalation:
		return DefaultEscalation
	}
	return inputs[k.Kind]
}
