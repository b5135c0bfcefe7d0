package sweep

// Outcome is what happened to a PR in a run (in a dry run, what would
// have): the sweep's word, where lifecycle.Action is the rules'. Every
// operation has one, every Item of a Result has one, and the report words
// each from one table keyed by it.
//
// The order of the write outcomes is the order a plan runs in: a capped
// budget goes first to what people wait for (the label off a PR someone
// revived), then to closes, then to telling and marking; the clean-ups come
// after the run's own work.
type Outcome int

const (
	_                 Outcome = iota
	Unstaled                  // a person acted after the mark: the stale label off
	Closed                    // closing comment, then close (or convert to draft), branch
	Notified                  // our label lacked its notice (a run stopped in between): posted
	Marked                    // the stale label, then the notice
	Nudged                    // the review nudge, then review-nudge-label (nudge.go)
	NudgeLabeled              // the nudge label added (a run stopped after the nudge) or removed (the turn passed)
	BranchFinished            // we closed it, a stopped run left its branch: deleted, stale label off
	LabelCleaned              // a person closed or merged it: the stale label off
	CloseLabelCleaned         // open again after a stale close: close-pr-label off
	DuplicateDeleted          // a concurrent run's copy of one of our notices, deleted

	// Outcomes that write nothing.
	StillStale // stale, waiting: with its close date
	Skipped    // exempt, filtered out, or left alone after a fresh read
	Failed     // a read or write failed: left untouched this run
)

// Writes reports whether the outcome is an operation's: it writes (or, in
// a dry run, would).
func (o Outcome) Writes() bool { return o >= Unstaled && o <= DuplicateDeleted }

// cleanUps are the outcomes that tidy after a close or a reopening.
var cleanUps = []Outcome{BranchFinished, LabelCleaned, CloseLabelCleaned}
