package lifecycle

// The reasons the words are keyed by (notice.Text) where a reason of its
// own says what the text must: a decision's reason is the one key from it
// to what stalepr posts, so two decisions whose texts differ have reasons
// that differ.

// Under ignore-updates the days count from the PR's opening (or its last
// reopening), whatever happened since: ReasonOpenTooLong marks (or, with
// days-before-close 0, closes) it where ReasonInactive would, and
// ReasonNoticeMissingOpen posts its missing notice where
// ReasonNoticeMissing would. Their texts say how long it has been open,
// not "no activity".
const (
	ReasonOpenTooLong       Reason = "open too long (ignore-updates)"
	ReasonNoticeMissingOpen Reason = "labelled without notice (ignore-updates)"
)

// The reasons of the review nudge and the escalation, which the sweep
// plans beside the rules' decisions (DecideNudge, DecideEscalation):
// ReasonReviewNudge on the reviewers' turn, ReasonMergeNudge on the
// maintainers', to merge; ReasonEscalated when the nudge went unanswered,
// ReasonEscalatedAway when none was posted, every reviewer being away or
// busy.
const (
	ReasonReviewNudge   Reason = "waiting on reviewers: review nudge"
	ReasonMergeNudge    Reason = "approved, waiting on maintainers to merge: merge nudge"
	ReasonEscalated     Reason = "the review nudge went unanswered: escalated"
	ReasonEscalatedAway Reason = "every reviewer it waits on is away or busy: escalated"
)
