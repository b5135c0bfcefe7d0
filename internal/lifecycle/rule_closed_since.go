package lifecycle

// RuleClosedSince leaves alone a PR closed since it was listed.
const RuleClosedSince RuleName = "closed-since"

// closedSinceRule leaves alone a PR whose history, read since the listing
// said open, ends with a close: another run (or a person) closed it
// meanwhile. Nothing written on the listing's word may touch it now.
var closedSinceRule = Rule{
	Name: RuleClosedSince,
	Decide: func(f Facts) (Decision, bool) {
		if f.Act == nil || !f.Act.ClosedNow {
			return Decision{}, false
		}
		return Decision{Action: Skip, Reason: ReasonClosedSince}, true
	},
}
