package notice

import "github.com/stalepr/stalepr/internal/lifecycle"

// Kind is a kind of text stalepr posts on a pull request, and with it the
// message input that replaces its defaults.
type Kind int

const (
	_               Kind = iota
	KindStale            // the stale notice, of a mark or posted late: stale-pr-message
	KindClose            // the closing comment: close-pr-message
	KindNudge            // the review nudge: review-nudge-message
	KindEscalation       // the review escalation's comment: no input of its own
	KindIntake           // the intake notice: intake-message
	KindIntakeClose      // the intake clock's closing comment: intake-close-message
)

// Key picks a default text: its kind, the rule that decided and the
// reason it gave, and for a stale notice whether the PR is never closed,
// the one thing its reason does not tell.
type Key struct {
	Kind   Kind
	Rule   lifecycle.RuleName // "" for the nudge and the escalation, which no rule of Decide makes
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
// text of each is true of the PR it is posted on. A mark under ignore-updates
// says how long the PR has been open (its days count from the opening);
// under author-turn, whose turn it is and since when, where "no activity"
// would be false (a maintainer's comment may have come since); a PR never
// closed is told so, not "closed on never"; a PR closed the run that
// finds it stale (days-before-close 0, never marked) is told how long it
// was inactive or open, not how long it stayed marked. A reason a rule
// gives for a text gets its row here; TestEveryReasonWorded fails until it
// does.
var words = map[Key]word{
	{KindStale, lifecycle.RuleInactivity, lifecycle.ReasonInactive, false}:            {text: DefaultStale},
	{KindStale, lifecycle.RuleInactivity, lifecycle.ReasonInactive, true}:             {text: DefaultStaleNoClose},
	{KindStale, lifecycle.RuleInactivity, lifecycle.ReasonNoticeMissing, false}:       {text: DefaultStale},
	{KindStale, lifecycle.RuleInactivity, lifecycle.ReasonNoticeMissing, true}:        {text: DefaultStaleNoClose},
	{KindStale, lifecycle.RuleInactivity, lifecycle.ReasonOpenTooLong, false}:         {text: DefaultStaleOpen},
	{KindStale, lifecycle.RuleInactivity, lifecycle.ReasonOpenTooLong, true}:          {text: DefaultStaleOpenNoClose},
	{KindStale, lifecycle.RuleInactivity, lifecycle.ReasonNoticeMissingOpen, false}:   {text: DefaultStaleOpen},
	{KindStale, lifecycle.RuleInactivity, lifecycle.ReasonNoticeMissingOpen, true}:    {text: DefaultStaleOpenNoClose},
	{KindStale, lifecycle.RuleAuthorTurn, lifecycle.ReasonWaitingOnAuthor, false}:     {text: DefaultStaleAuthorTurn},
	{KindStale, lifecycle.RuleAuthorTurn, lifecycle.ReasonWaitingOnAuthor, true}:      {text: DefaultStaleAuthorTurnNoClose},
	{KindStale, lifecycle.RuleAuthorTurn, lifecycle.ReasonNoticeMissing, false}:       {text: DefaultStaleAuthorTurn},
	{KindStale, lifecycle.RuleAuthorTurn, lifecycle.ReasonNoticeMissing, true}:        {text: DefaultStaleAuthorTurnNoClose},
	{KindClose, lifecycle.RuleInactivity, lifecycle.ReasonCloseDue, false}:            {text: DefaultClose},
	{KindClose, lifecycle.RuleInactivity, lifecycle.ReasonCloseDueSincePerson, false}: {text: DefaultClose},
	{KindClose, lifecycle.RuleInactivity, lifecycle.ReasonInactive, false}:            {text: DefaultCloseNow},
	{KindClose, lifecycle.RuleInactivity, lifecycle.ReasonOpenTooLong, false}:         {text: DefaultCloseNowOpen},
	{KindClose, lifecycle.RuleAuthorTurn, lifecycle.ReasonCloseDueAuthorTurn, false}:  {text: DefaultCloseAuthorTurn},
	{KindClose, lifecycle.RuleAuthorTurn, lifecycle.ReasonCloseDueSincePerson, false}: {text: DefaultCloseAuthorTurn},
	{KindClose, lifecycle.RuleAuthorTurn, lifecycle.ReasonWaitingOnAuthor, false}:     {text: DefaultCloseNowAuthorTurn},
	{KindNudge, "", lifecycle.ReasonReviewNudge, false}:                               {text: DefaultNudge},
	// On the maintainers' turn the nudge asks for the merge, whatever
	// review-nudge-message says: a project's own is written for a
	// review, and "waiting 8 days for a review" on an approved PR asks for
	// the wrong thing.
	{KindNudge, "", lifecycle.ReasonMergeNudge, false}:                        {text: DefaultMergeNudge, fixed: true},
	{KindEscalation, "", lifecycle.ReasonEscalated, false}:                    {text: DefaultEscalation},
	{KindEscalation, "", lifecycle.ReasonEscalatedAway, false}:                {text: DefaultEscalationAway}, // no nudge went unanswered: its reviewers were away
	{KindIntake, lifecycle.RuleIntake, lifecycle.ReasonIntakeUnasked, false}:  {text: DefaultIntake},
	{KindIntakeClose, lifecycle.RuleIntake, lifecycle.ReasonIntakeDue, false}: {text: DefaultIntakeClose},
}

// inputs are the defaults of the message inputs, by the kind each serves:
// the runner passes action.yml's default as if set, so only a text that
// differs from it is the user's own.
var inputs = map[Kind]string{KindStale: DefaultStale, KindClose: DefaultClose, KindNudge: DefaultNudge,
	KindIntake: DefaultIntake, KindIntakeClose: DefaultIntakeClose}

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
