package lifecycle

// TextKind is a kind of text stalepr posts on a pull request, and with it
// the message input that replaces its defaults (notice.Text).
type TextKind int

const (
	_               TextKind = iota
	TextStale                // the stale notice, of a mark or posted late: stale-pr-message
	TextClose                // the closing comment: close-pr-message
	TextNudge                // the review nudge: review-nudge-message
	TextEscalation           // the review escalation's comment: no input of its own
	TextIntake               // the intake notice: intake-message
	TextIntakeClose          // the intake clock's closing comment: intake-close-message
	TextAnswer               // a command's answer (Command.Words): no input of its own
)

// Word is a default text of a rule (Rule.Words), posted for the rule's
// decisions of its reason as its kind of text; a stale notice's words say
// too whether the PR is never closed (its decision's CloseAt zero), the one
// thing its reason does not tell. The text of each is true of the PR it is
// posted on; a user's own message input replaces it (notice.Text).
type Word struct {
	Kind   TextKind
	Reason Reason
	Never  bool
	Text   string
}

// thanks ends every default closing comment of the stale clocks;
// {{how-to-continue}} says what will bring the PR back, as this
// configuration has it: "Reopen it" was a promise a fork's contributor
// could not keep (GitHub lets them reopen only what they closed
// themselves).
const thanks = "Thank you for the contribution. {{how-to-continue}}"
