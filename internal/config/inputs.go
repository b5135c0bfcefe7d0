package config

import (
	"strings"
	"time"

	"github.com/stalepr/stalepr/internal/lifecycle"
	"github.com/stalepr/stalepr/internal/notice"
)

// Kind says what values an input accepts. Parse validates by it and the help
// text names it.
type Kind int

// The kinds of input.
const (
	Text       Kind = iota // free text, such as a label name
	Message                // comment template (see package notice); present but empty: no comment
	Days                   // whole number of days, or -1 for never
	Count                  // whole number, 0 or more (operations-per-run: 1 or more)
	Bool                   // true or false, in any letter case
	List                   // comma-separated values, trimmed, empty ones dropped
	Date                   // ISO 8601, RFC 2822 or written date (see parseDate)
	Duration               // Go duration such as 1s or 500ms
	Choice                 // one of Input.Choices
	Repository             // owner/name
	Secret                 // the API token: never printed
	Ignored                // issue-only input of actions/stale: accepted, not used
)

var kindNames = [...]string{
	Text:       "text",
	Message:    "message",
	Days:       "days",
	Count:      "number",
	Bool:       "bool",
	List:       "list",
	Date:       "date",
	Duration:   "duration",
	Choice:     "choice",
	Repository: "owner/name",
	Secret:     "token",
	Ignored:    "ignored",
}

// String names the kind for help texts ("days", "list", ...).
func (k Kind) String() string {
	if k >= 0 && int(k) < len(kindNames) {
		return kindNames[k]
	}
	return "unknown"
}

// Input describes one input of the action. The table Inputs is the single
// source of truth for action.yml, the CLI's flags and -help, and the README.
type Input struct {
	Name        string
	Default     string // what Parse uses when the input is unset or blank
	Description string
	Kind        Kind
	// Choices lists the accepted values of a Choice input.
	Choices []string
	// Overrides names the generic input that this PR-specific input replaces
	// when it is set (days-before-pr-stale overrides days-before-stale).
	Overrides string
	// ActionDefault, when set, is the default action.yml declares instead of
	// Default: an expression the runner evaluates (${{ github.token }}).
	ActionDefault string

	// to parses the input's value by its kind into its field of Config (see
	// target). Every input but an override and an Ignored one has one; an
	// override parses into its generic input's field, when it is set.
	to target
	// noEffect, when set, says why a valid value other than Default
	// changes nothing: Parse warns with it (inputs kept for compatibility).
	noEffect string
}

// accepts says what values the input takes, for an error that names it.
func (in Input) accepts() string {
	switch in.Kind {
	case Message:
		return "a comment, empty for none"
	case Days:
		return "a whole number of days, or -1 for never"
	case Count:
		return "a whole number"
	case Bool:
		return "true or false"
	case List:
		return "comma-separated values"
	case Date:
		return "a date such as 2024-01-02"
	case Duration:
		return "a duration such as 1s"
	case Choice:
		return orList(in.Choices)
	case Repository:
		return "owner/name"
	case Secret:
		return "a token"
	}
	return "text"
}

// YAMLDefault is the default action.yml declares for the input.
func (in Input) YAMLDefault() string {
	if in.ActionDefault != "" {
		return in.ActionDefault
	}
	return in.Default
}

// Names of the inputs that code outside the table names (main, and the
// checks across inputs in parse.go), and of the environment variables Parse
// reads. A row and its checks share the constant, so they cannot disagree.
const (
	InputRepoToken  = "repo-token"
	InputRepository = "repository"
	// InputOperationsPerRun is named by sweep.CheckBudget, which knows
	// what one action costs.
	InputOperationsPerRun = "operations-per-run"
	inputCloseAction      = "close-action"
	inputStaleLabel       = "stale-pr-label"
	inputCloseLabel       = "close-pr-label"
	inputExemptLabels     = "exempt-pr-labels"
	inputOnlyLabels       = "only-labels"
	inputAnyOfLabels      = "any-of-labels"
	inputRemoveWhenStale  = "labels-to-remove-when-stale"
	inputAddWhenUnstale   = "labels-to-add-when-unstale"
	inputOnlyDraft        = "only-draft-pr"
	inputDeleteBranch     = "delete-branch"
	inputWriteInterval    = "write-interval"

	inputStaleClock            = "stale-clock"
	inputReviewNudgeDays       = "days-before-review-nudge"
	inputAgentStaleDays        = "days-before-agent-pr-stale"
	inputAgentCloseDays        = "days-before-agent-pr-close"
	inputReviewNudgeMessage    = "review-nudge-message"
	inputReviewNudgeLabel      = "review-nudge-label"
	inputReviewNudgesPerRun    = "review-nudges-per-run"
	inputRerequestOnAnswer     = "rerequest-reviewers-on-answer"
	inputEscalationDays        = "days-before-review-escalation"
	inputEscalationReviewers   = "escalation-reviewers"
	inputReviewers             = "reviewers"
	inputEscalationsPerRun     = "escalations-per-run"
	inputAwayReviewers         = "away-reviewers"
	inputAuthorTurnLabel       = "author-turn-label"
	inputAuthorTurnWhenLabeled = "author-turn-when-labeled"
	inputReviewersTurnLabel    = "reviewers-turn-label"
	inputConflictLabel         = "conflict-label"

	inputIntakeDays         = "days-before-intake-close"
	inputIntakeLabels       = "intake-accepted-labels"
	inputIntakeMessage      = "intake-message"
	inputIntakeCloseMessage = "intake-close-message"

	EnvToken      = "GITHUB_TOKEN"
	EnvRepository = "GITHUB_REPOSITORY"
	EnvAPIURL     = "GITHUB_API_URL"
)

// ignoredNote begins the description of every issue-only input.
const ignoredNote = "Ignored: stalepr handles pull requests only."

// maxDays bounds day counts, so that day arithmetic cannot overflow.
const maxDays = 36500

// maxWriteInterval bounds write-interval.
const maxWriteInterval = "1m"

// Inputs is every input of the action, in the order action.yml lists them
// (and Parse reads them: a generic input comes before its override). Treat
// it as read-only.
//
// To add an input, add a row: its name, kind, default and description (for
// action.yml, the flags, -help and the README), and as its to the target
// constructor of its kind (text, message, days, count, boolean, list, date,
// duration, choice; see parse.go) given the Config field it fills. A
// PR-specific override of a generic input names it in Overrides and has no
// to of its own. Parse needs nothing else; a check across inputs goes in
// parser.config. TestTable checks each row.

// run-timeout's bounds: a minute lets a run do something; 6h is the longest
// a GitHub-hosted job may run.
const (
	minRunTimeout = "1m"
	maxRunTimeout = "6h"
)

var Inputs = buildInputs()

func buildInputs() []Input {
	placeholders := strings.Join(notice.Placeholders(), " ")
	const order = "stalepr always works on the pull requests with the oldest activity first, which lets a capped run continue on the next one"
	ignored := func(name, def, what string) Input {
		return Input{Name: name, Default: def, Kind: Ignored,
			Description: ignoredNote + " In actions/stale: " + what + "."}
	}
	return []Input{
		{Name: InputRepoToken, to: token(), Kind: Secret, ActionDefault: "${{ github.token }}",
			Description: "Token for the GitHub API; it needs pull-requests: write and issues: write, and contents: write for delete-branch. " +
				"When unset, the GITHUB_TOKEN environment variable is used (the CLI reads only that)."},
		{Name: InputRepository, to: repository(), Kind: Repository, ActionDefault: "${{ github.repository }}",
			Description: "Repository whose pull requests are swept, as owner/name. When unset, the GITHUB_REPOSITORY environment variable is used."},

		{Name: "stale-pr-message", to: message(func(c *Config) *string { return &c.StaleMessage }), Kind: Message, Default: lifecycle.DefaultStale,
			Description: "Comment posted when a pull request is marked stale; set it to an empty string to mark without commenting. " +
				"The default is worded to stay true: a pull request that is never closed (days-before-close: -1) is told so, not given a close date; " +
				"under ignore-updates it says how long it has been open, and under stale-clock: author-turn whose turn it waits on. " +
				"Placeholders: " + placeholders + "."},
		{Name: "close-pr-message", to: message(func(c *Config) *string { return &c.CloseMessage }), Kind: Message, Default: lifecycle.DefaultClose,
			Description: "Comment posted when a stale pull request is closed; set it to an empty string to close without commenting. " +
				"The default is worded to stay true: a pull request closed without a mark (days-before-close: 0) is told how long it had no activity, " +
				"and under stale-clock: author-turn whose turn it waited on. " +
				"Placeholders: " + placeholders + "."},

		{Name: "days-before-stale", to: days(func(c *Config) *int { return &c.Policy.DaysBeforeStale }), Kind: Days, Default: "90",
			Description: "Days without activity before a pull request is marked stale: a whole number, or -1 to never mark."},
		{Name: "days-before-pr-stale", Kind: Days, Overrides: "days-before-stale",
			Description: "Overrides days-before-stale when set: a whole number of days, or -1 to never mark."},
		{Name: "days-before-close", to: days(func(c *Config) *int { return &c.Policy.DaysBeforeClose }), Kind: Days, Default: "30",
			Description: "Days a pull request stays marked stale without activity before it is closed: a whole number, or -1 to never close."},
		{Name: "days-before-pr-close", Kind: Days, Overrides: "days-before-close",
			Description: "Overrides days-before-close when set: a whole number of days, or -1 to never close."},
		{Name: inputAgentStaleDays, to: agentDays(func(c *Config) *int { return &c.Policy.AgentClock.DaysBeforeStale }), Kind: Days,
			Description: "Days without activity before a coding agent's pull request (see agent-accounts) is marked stale, instead of days-before-stale: a whole number, or -1 to never mark. " +
				"When this or days-before-agent-pr-close is set, agents' drafts are not exempt by exempt-draft-pr (the Copilot coding agent's pull requests stay drafts until a person marks them ready) and run on this clock; the one left unset follows everyone's. Empty (the default): agents' pull requests follow the same rules as everyone's."},
		{Name: inputAgentCloseDays, to: agentDays(func(c *Config) *int { return &c.Policy.AgentClock.DaysBeforeClose }), Kind: Days,
			Description: "Days a coding agent's pull request stays marked stale without activity before it is closed, instead of days-before-close: a whole number, or -1 to never close. Empty (the default): as days-before-close."},
		{Name: inputIntakeDays, to: intakeDays(func(c *Config) *int { return &c.Policy.Intake.DaysBeforeClose }), Kind: Days, Default: "-1",
			Description: "The intake clock: days after the intake notice before a pull request nobody asked for is closed. " +
				"Such a pull request's author may not push to the repository (as GitHub tells; when it cannot tell, never), and it links no issue a maintainer accepted (see intake-accepted-labels); " +
				"it is told once with intake-message, and closed after these days unless a maintainer comments, reviews, labels or reopens it or it links an accepted issue first, " +
				"after which the other clocks apply to it for good. Drafts, bots' pull requests and exempt ones are left to the other clocks. " +
				"A whole number, 1 or more, or -1 (the default) for off. Costs a few GraphQL points per 100 pull requests listed."},
		{Name: inputIntakeLabels, to: list(func(c *Config) *[]string { return &c.Policy.Intake.AcceptedLabels }), Kind: List,
			Description: "Comma-separated labels that mark an issue a maintainer accepted, for the intake clock. " +
				"Whatever this holds, an issue assigned to the pull request's author or opened by a maintainer (owner, member or collaborator) is accepted. Empty (the default): none."},
		{Name: inputIntakeMessage, to: message(func(c *Config) *string { return &c.IntakeMessage }), Kind: Message, Default: lifecycle.DefaultIntake,
			Description: "Comment posted once on a pull request the intake clock holds: say how an issue gets accepted in your project. " +
				"It cannot be empty while the intake clock is on. Placeholders: " + placeholders + "; {{close-date}} is when it closes."},
		{Name: inputIntakeCloseMessage, to: message(func(c *Config) *string { return &c.IntakeCloseMessage }), Kind: Message, Default: lifecycle.DefaultIntakeClose,
			Description: "Comment posted when the intake clock closes a pull request; empty to close without commenting. " +
				"Placeholders: " + placeholders + "; {{days-before-close}} is days-before-intake-close."},

		{Name: inputStaleLabel, to: text(func(c *Config) *string { return &c.Policy.StaleLabel }), Kind: Text, Default: "stale",
			Description: "Label that marks a pull request stale, added on marking and removed on activity. It may contain spaces and slashes (lifecycle/stale)."},
		{Name: inputCloseLabel, to: text(func(c *Config) *string { return &c.CloseLabel }), Kind: Text,
			Description: "Label added to a pull request when it is closed. Empty: none."},
		{Name: inputRemoveWhenStale, to: list(func(c *Config) *[]string { return &c.LabelsToRemoveWhenStale }), Kind: List,
			Description: "Comma-separated labels removed from a pull request when it is marked stale."},
		{Name: inputAddWhenUnstale, to: list(func(c *Config) *[]string { return &c.LabelsToAddWhenUnstale }), Kind: List,
			Description: "Comma-separated labels added to a pull request when activity removes its stale label."},
		{Name: "labels-to-remove-when-unstale", to: list(func(c *Config) *[]string { return &c.LabelsToRemoveWhenUnstale }), Kind: List,
			Description: "Comma-separated labels removed from a pull request when activity removes its stale label."},

		{Name: inputExemptLabels, to: list(func(c *Config) *[]string { return &c.Policy.ExemptLabels }), Kind: List,
			Description: "Comma-separated labels; a pull request carrying any of them is left alone."},
		{Name: inputOnlyLabels, to: list(func(c *Config) *[]string { return &c.Policy.OnlyLabels }), Kind: List,
			Description: "Comma-separated labels; when set, only pull requests carrying all of them are processed."},
		{Name: "only-pr-labels", Kind: List, Overrides: "only-labels",
			Description: "Overrides only-labels when set: comma-separated labels a pull request must all carry to be processed."},
		{Name: inputAnyOfLabels, to: list(func(c *Config) *[]string { return &c.Policy.AnyOfLabels }), Kind: List,
			Description: "Comma-separated labels; when set, only pull requests carrying at least one of them are processed."},
		{Name: "any-of-pr-labels", Kind: List, Overrides: "any-of-labels",
			Description: "Overrides any-of-labels when set: comma-separated labels of which a pull request must carry one to be processed."},
		{Name: "exempt-milestones", to: list(func(c *Config) *[]string { return &c.Policy.ExemptMilestones }), Kind: List,
			Description: "Comma-separated milestone titles; a pull request in any of them is left alone."},
		{Name: "exempt-pr-milestones", Kind: List, Overrides: "exempt-milestones",
			Description: "Overrides exempt-milestones when set: comma-separated milestone titles whose pull requests are left alone."},
		{Name: "exempt-all-milestones", to: boolean(func(c *Config) *bool { return &c.Policy.ExemptAllMilestones }), Kind: Bool, Default: "false",
			Description: "true or false: when true, every pull request with a milestone is left alone."},
		{Name: "exempt-all-pr-milestones", Kind: Bool, Overrides: "exempt-all-milestones",
			Description: "Overrides exempt-all-milestones when set: true or false."},
		{Name: "exempt-assignees", to: accounts(loginsOnly, func(c *Config) *[]string { return &c.Policy.ExemptAssignees }), Kind: List,
			Description: "Comma-separated logins; a pull request assigned to any of them is left alone."},
		{Name: "exempt-pr-assignees", Kind: List, Overrides: "exempt-assignees",
			Description: "Overrides exempt-assignees when set: comma-separated logins whose assigned pull requests are left alone."},
		{Name: "exempt-all-assignees", to: boolean(func(c *Config) *bool { return &c.Policy.ExemptAllAssignees }), Kind: Bool, Default: "false",
			Description: "true or false: when true, every pull request with an assignee is left alone."},
		{Name: "exempt-all-pr-assignees", Kind: Bool, Overrides: "exempt-all-assignees",
			Description: "Overrides exempt-all-assignees when set: true or false."},
		{Name: "exempt-draft-pr", to: boolean(func(c *Config) *bool { return &c.Policy.ExemptDraft }), Kind: Bool, Default: "false",
			Description: "true or false: when true, draft pull requests are left alone."},
		{Name: inputOnlyDraft, to: boolean(func(c *Config) *bool { return &c.Policy.OnlyDraft }), Kind: Bool, Default: "false",
			Description: "true or false: when true, only draft pull requests are processed (long-abandoned drafts); ready ones are left alone. Cannot be combined with exempt-draft-pr."},
		{Name: "exempt-pr-authors", to: authors(func(c *Config) *[]string { return &c.Policy.ExemptAuthors }), Kind: List,
			Description: "Comma-separated logins whose pull requests are left alone, compared ignoring case; * matches any characters, so *[bot] exempts every GitHub App (Dependabot, Renovate, ...). A name also matches its bot account: dependabot matches dependabot[bot]."},
		{Name: "exempt-approved", to: boolean(func(c *Config) *bool { return &c.Policy.ExemptApproved }), Kind: Bool, Default: "false",
			Description: "true or false: when true, an approved pull request (as GitHub decides it: an approval stands and no reviewer's latest review requests changes) is not marked stale: it waits on maintainers. " +
				"Costs one timeline read of each pull request about to be marked (the same read exempt-awaiting-review makes)."},
		{Name: "include-only-assigned", to: boolean(func(c *Config) *bool { return &c.Policy.IncludeOnlyAssigned }), Kind: Bool, Default: "false",
			Description: "true or false: when true, only pull requests with an assignee are processed."},
		{Name: "start-date", to: date(func(c *Config) *time.Time { return &c.Policy.StartDate }), Kind: Date,
			Description: "Pull requests created before this date are left alone. ISO 8601 (2024-01-02, 2024-01-02T15:04:05Z, 2024-01-02 15:04:05+02:00), " +
				"RFC 2822 (Tue, 02 Jan 2024 15:04:05 +0000) or written (January 2, 2024 15:04:05; Jan 2, 2024; 2024/01/02); " +
				"a time without a zone is UTC; empty: no limit."},

		{Name: "remove-stale-when-updated", to: boolean(func(c *Config) *bool { return &c.Policy.RemoveStaleWhenUpdated }), Kind: Bool, Default: "true",
			Description: "true or false: when true, activity on a stale pull request removes its stale label."},
		{Name: "remove-pr-stale-when-updated", Kind: Bool, Overrides: "remove-stale-when-updated",
			Description: "Overrides remove-stale-when-updated when set: true or false."},
		{Name: "ignore-updates", to: boolean(func(c *Config) *bool { return &c.Policy.IgnoreUpdates }), Kind: Bool, Default: "false",
			Description: "true or false: when true, inactivity is counted from a pull request's creation and updates do not reset it."},
		{Name: "ignore-pr-updates", Kind: Bool, Overrides: "ignore-updates",
			Description: "Overrides ignore-updates when set: true or false."},
		{Name: "activity-from", to: choice(func(c *Config) *lifecycle.ActivityFrom { return &c.Policy.ActivityFrom }), Kind: Choice, Default: string(lifecycle.Anyone), Choices: []string{string(lifecycle.Anyone), string(lifecycle.People)},
			Description: "Whose actions count as activity: anyone (any update, as actions/stale does) " +
				"or people (comments, reviews, pushes and reopenings by people; not bots, not stalepr)."},
		{Name: "exempt-awaiting-review", to: boolean(func(c *Config) *bool { return &c.Policy.ExemptAwaitingReview }), Kind: Bool, Default: "false",
			Description: "true or false: when true, a pull request whose author acted last (of the people on it) and which awaits a review requested and not given yet is left alone: it waits on the maintainers."},
		{Name: inputStaleClock, to: choice(func(c *Config) *lifecycle.StaleClock { return &c.Policy.StaleClock }), Kind: Choice, Default: string(lifecycle.ClockInactivity),
			Choices: []string{string(lifecycle.ClockInactivity), string(lifecycle.ClockAuthorTurn)},
			Description: "What time counts toward marking and closing: inactivity (time without activity, see activity-from) " +
				"or author-turn (only time on the author's turn: from a maintainer's review or comment, or the draft, until the author's push, reply or re-requested review; " +
				"a pull request waiting on its reviewers or approved and waiting to be merged is never marked nor closed). See \"Whose turn it is\" in docs/rules.md."},
		{Name: "bot-accounts", to: accounts(loginsOnly, func(c *Config) *[]string { return &c.Policy.BotAccounts }), Kind: List,
			Description: "Comma-separated logins that are bots whatever GitHub says (a CI account that is a plain user): what they do is never a person's activity (what activity-from: people and a stale pull request's un-staling count) and never passes the turn, under either stale-clock."},
		{Name: "agent-accounts", to: accounts(loginsOnly, func(c *Config) *[]string { return &c.Policy.AgentAccounts }), Kind: List,
			Description: "Comma-separated logins of coding agents, compared ignoring case, besides those known: the Copilot coding agent (Copilot, copilot-swe-agent[bot]), Devin (devin-ai-integration[bot]), Jules (google-labs-jules[bot]), Cursor's background agents (cursor[bot]). " +
				"An agent's pull request answers to its human of record (the person who assigned the agent, else who marked it ready, else the first person to push to it): " +
				"the author's turn is theirs, {{author}} names them, and no text ever mentions an agent. Its clock: days-before-agent-pr-stale."},
		{Name: inputReviewers, to: accounts(loginsAndTeams, func(c *Config) *[]string { return &c.Policy.Reviewers }), Kind: List,
			Description: "Comma-separated reviewers besides the accounts with write access to the repository, for whose turn it is (for projects whose reviewers are not all committers): " +
				"logins, counted as maintainers; and teams of the repository's organisation as org/slug, whose requested review a review by a member of the organisation answers as a maintainer's (team membership cannot be read with a repository token; anyone else's review answers for no team); a team of another organisation is refused."},
		{Name: inputAuthorTurnWhenLabeled, to: list(func(c *Config) *[]string { return &c.Policy.AuthorTurnLabels }), Kind: List,
			Description: "Comma-separated labels (such as needs-rebase, S-waiting-on-author) that put a pull request on its author's turn while it carries one, from when the label was added; not author-turn-label, reviewers-turn-label, stale-pr-label nor review-nudge-label, which stalepr adds itself. Empty: none."},
		{Name: "author-turn-when-checks-fail", to: boolean(func(c *Config) *bool { return &c.Policy.AuthorTurnWhenChecksFail }), Kind: Bool, Default: "false",
			Description: "true or false: when true, a required check (as GitHub's branch protection or rulesets require it) that completed failing on the pull request's head commit after its author's last push or answer puts the pull request on its author's turn, from the check's completion. " +
				"Pending, optional, cancelled and re-run-green checks and failures on older commits do not: a failure may be spurious. Only read where the turn is (stale-clock: author-turn, the nudge, the turn labels); costs one GraphQL point per 100 pull requests with a failing check, none per pull request (see docs/cost.md)."},
		{Name: inputAuthorTurnLabel, to: text(func(c *Config) *string { return &c.Policy.AuthorTurnLabel }), Kind: Text,
			Description: "Label kept on a pull request while it is its author's turn (e.g. waiting-on-author), added when the turn passes to the author and removed when it passes back; " +
				"a person adding it by hand hands the turn to the author, taking it off hands it to the reviewers, and stalepr never puts back a label a person took off while that turn lasts. Empty (the default): off. Costs one timeline read of every open pull request a run."},
		{Name: inputReviewersTurnLabel, to: text(func(c *Config) *string { return &c.Policy.ReviewersTurnLabel }), Kind: Text,
			Description: "Label kept on a pull request while it is its reviewers' turn (e.g. waiting-on-review), as author-turn-label; a person adding it by hand hands the turn to the reviewers, taking it off hands it to the author. Empty (the default): off."},
		{Name: inputConflictLabel, to: optionalLabel(func(c *Config) *string { return &c.Policy.ConflictLabel }), Kind: Text, Default: "merge-conflict",
			Description: "Label stalepr adds, under stale-clock: author-turn, to a pull request whose merge conflict puts it on its author's turn, and takes off once GitHub says it merges: " +
				"its addition records when stalepr first saw the conflict, and the conflict's turn counts from then at the latest, so it ages on a base branch pushed to every day (the base's latest push dates it otherwise). " +
				"stalepr trusts only its own addition and never puts back a label a person took off. Empty: off (a conflict then counts from the base's latest push)."},
		{Name: inputReviewNudgeDays, to: days(func(c *Config) *int { return &c.Policy.DaysBeforeReviewNudge }), Kind: Days, Default: "-1",
			Description: "Days on the reviewers' turn after which one comment (review-nudge-message) reminds the reviewers it waits on, at most once per turn " +
				"(on the maintainers' turn, an approved pull request nobody merges, a comment of its own names the merge instead, whatever review-nudge-message says): " +
				"a whole number, or -1 (the default) to never nudge. Works with either stale-clock; it never marks, labels stale or closes."},
		{Name: inputReviewNudgeMessage, to: message(func(c *Config) *string { return &c.NudgeMessage }), Kind: Message, Default: notice.DefaultNudge,
			Description: "Comment of the review nudge; it cannot be empty while the nudge is on. Placeholders: " + placeholders + "; {{reviewers}} mentions the reviewers it waits on " +
				"(the pending requested reviewers, and those who asked for changes that the author has since answered), " +
				"{{days-waiting}} is the days on the reviewers' turn."},
		{Name: inputReviewNudgeLabel, to: text(func(c *Config) *string { return &c.Policy.NudgeLabel }), Kind: Text,
			Description: "Label added with the review nudge and removed when the turn passes. Empty: none."},
		{Name: inputReviewNudgesPerRun, to: count(1, func(c *Config) *int { return &c.NudgesPerRun }), Kind: Count, Default: "20",
			Description: "Most review nudges one run posts, longest on the reviewers' turn first: a whole number, 1 or more. " +
				"A backlog's nudges are spread over the next runs instead of landing in the reviewers' inboxes at once."},
		{Name: inputEscalationDays, to: days(func(c *Config) *int { return &c.Policy.DaysBeforeEscalation }), Kind: Days, Default: "-1",
			Description: "Days after a review nudge that nobody answered (the PR still on the reviewers' turn) before one escalation, at most once per turn: " +
				"a review request of escalation-reviewers with a comment naming them, or, when none is set, a row in the dashboard issue's Escalated section. " +
				"A whole number, or -1 (the default) to never escalate; it needs days-before-review-nudge."},
		{Name: inputEscalationReviewers, to: accounts(loginsAndTeams, func(c *Config) *[]string { return &c.Policy.EscalationReviewers }), Kind: List,
			Description: "Comma-separated logins (without @) and teams of the repository's organisation (org/team) an escalation asks for a review, never the pull request's author; a bot, a coding agent or a team of another organisation is refused. Empty: escalations are listed in the dashboard issue only."},
		{Name: inputEscalationsPerRun, to: count(1, func(c *Config) *int { return &c.EscalationsPerRun }), Kind: Count, Default: "5",
			Description: "Most review escalations one run posts, longest on the reviewers' turn first: a whole number, 1 or more. " +
				"Each asks the same few escalation-reviewers, so a backlog (many pull requests waiting on one reviewer who is away or busy) " +
				"is spread over the next runs instead of landing in their inboxes at once; the job summary says how many wait and when they go."},
		{Name: inputAwayReviewers, to: accounts(loginsOnly, func(c *Config) *[]string { return &c.Policy.AwayReviewers }), Kind: List,
			Description: "Comma-separated logins of reviewers who are away: a review nudge does not mention them and says so; a pull request that waits on them alone gets no nudge, and, with days-before-review-escalation, is escalated on the day the nudge would have come. A reviewer whose GitHub status says busy (until it expires) counts as away too, read once a run when a nudge or escalation is due. Empty: none."},
		{Name: inputRerequestOnAnswer, to: boolean(func(c *Config) *bool { return &c.Policy.RerequestOnAnswer }), Kind: Bool, Default: "false",
			Description: "true or false: when true, once the author answers a change request (a push, a comment, a reply), stalepr requests the review of those who asked for changes again, " +
				"as the author would (a fork's author cannot): once per answer, never when they reviewed again or a review of them was requested or withdrawn since, never of the author or a bot; it un-requests nobody."},
		{Name: inputQuietPeriods, to: quietPeriods(func(c *Config) *lifecycle.Quiet { return &c.Policy.Quiet }), Kind: List,
			Description: "Quiet periods: comma-separated UTC date ranges (2026-12-20..2027-01-06, both days included), single dates (2026-12-25) or weekdays (sat, sunday), " +
				"at most 50, a range at most 366 days. On those days stalepr marks, closes and nudges nothing (un-stales and label clean-ups go on), " +
				"and the days-before-* clocks do not count them: whatever falls due is due that many days later. Empty: none."},
		{Name: inputCloseAction, to: choice(func(c *Config) *lifecycle.CloseAction { return &c.Policy.CloseAction }), Kind: Choice, Default: string(lifecycle.CloseClosed), Choices: []string{string(lifecycle.CloseClosed), string(lifecycle.CloseToDraft)},
			Description: "What closing a stale pull request does: close, or draft (convert it to a draft, post the closing comment and remove the stale label; it stays open and its author can mark it ready again). " +
				"draft needs a personal access token or a GitHub App token in repo-token: GitHub refuses the conversion to the workflow's GITHUB_TOKEN."},
		{Name: inputDeleteBranch, to: boolean(func(c *Config) *bool { return &c.DeleteBranch }), Kind: Bool, Default: "false",
			Description: "true or false: when true, closing a pull request also deletes its head branch, " +
				"only when that branch lives in this repository and is not its default branch."},

		{Name: "debug-only", to: boolean(func(c *Config) *bool { return &c.DebugOnly }), Kind: Bool, Default: "false",
			Description: "true or false: when true, nothing is written; the run reports what it would do."},
		{Name: InputOperationsPerRun, to: count(1, func(c *Config) *int { return &c.OperationsPerRun }), Kind: Count, Default: "500",
			Description: "Most API requests, reads and writes, one run may send: a whole number, at least what one action needs " +
				"(6 with the defaults, 12 with delete-branch; a smaller value is refused, naming the minimum). " +
				"The default stays within GitHub's 500 content-creating requests an hour and half a GITHUB_TOKEN's 1,000 an hour, " +
				"enough for a daily run to mark about 240 pull requests of a backlog (two writes each)."},
		{Name: "rate-limit-reserve", to: count(0, func(c *Config) *int { return &c.RateLimitReserve }), Kind: Count, Default: "100",
			Description: "The run stops when GitHub reports fewer remaining requests than this, leaving them to other workflows: a whole number, 0 or more."},
		{Name: inputWriteInterval, to: duration("0s", maxWriteInterval, "1s or 500ms", func(c *Config) *time.Duration { return &c.WriteInterval }), Kind: Duration, Default: "1s",
			Description: "Pause between writes, as GitHub asks: a duration from 0s to " + maxWriteInterval + " such as 1s or 500ms."},
		{Name: "dashboard-issue", to: issueTitle(func(c *Config) *string { return &c.DashboardIssue }), Kind: Text,
			Description: "Title of one issue stalepr keeps up to date on every run with the open pull requests by what they wait for (see docs/dashboard.md). Empty: none."},
		{Name: InputAuditClosedDays, to: auditDays(func(c *Config) *int { return &c.Policy.AuditClosedDays }), Kind: Count, Default: "0",
			Description: "Closure audit: replay the pull requests a stale bot closed in the last this many days (closed with close-pr-label, by stalepr, or by a bot's comment and close with the stale label on) " +
				"and report those closed while they waited on the reviewers or the maintainers (output wrongly-closed-prs, the job summary, the dashboard). 0 (the default): off."},
		{Name: InputReopenWronglyClosed, to: boolean(func(c *Config) *bool { return &c.ReopenWronglyClosed }), Kind: Bool, Default: "false",
			Description: "true or false: when true (with audit-closed-days), reopen the pull requests the closure audit finds closed on the reviewers' or maintainers' turn, with reopen-message, once each; " +
				"never one that was merged, that its author closed, or whose head branch is gone."},
		{Name: InputReopenMessage, to: message(func(c *Config) *string { return &c.ReopenMessage }), Kind: Message, Default: notice.DefaultReopen,
			Description: "Comment posted when reopening a wrongly closed pull request; it cannot be empty while reopen-wrongly-closed is on. Placeholders: " + placeholders + "; " +
				"{{days-waiting}} is the days it had waited on the reviewers or the maintainers when it was closed."},
		{Name: InputReopenCommand, to: command(func(c *Config) *string { return &c.Policy.ReopenCommand }), Kind: Text, Default: "/reopen",
			Description: "The word of the reopen command: a comment starting with it, by a pull request's author or by someone with write access, " +
				"reopens a pull request stalepr closed as stale (never a person's close, a merged or a locked one), takes close-pr-label off and answers once; " +
				"the closing comment names it. The event run acts on it with issue_comment in the workflow's triggers, the next scheduled run otherwise (see docs/rules.md). Empty: off."},
		{Name: "run-timeout", to: duration(minRunTimeout, maxRunTimeout, "30m or 1h", func(c *Config) *time.Duration { return &c.RunTimeout }), Kind: Duration, Default: "30m",
			Description: "The longest a run may take, so that a slow or hanging server cannot hold the job for hours: a duration from " +
				minRunTimeout + " to " + maxRunTimeout + " such as 30m or 1h. At it the run stops cleanly, as at operations-per-run: " +
				"a write under way is finished, the summary and outputs are written, and the pull requests not reached are left for the next run. " +
				"Keep it below the job's timeout-minutes."},
		{Name: "ascending", to: boolean(nil), Kind: Bool, Default: "false",
			Description: "true or false: process the oldest pull requests first (by sort-by). Accepted for compatibility with actions/stale.",
			noEffect:    order},
		{Name: "sort-by", to: choice[string](nil), Kind: Choice, Default: "created", Choices: []string{"created", "updated", "comments"},
			Description: "Order in which pull requests are processed: created, updated or comments. Accepted for compatibility with actions/stale.",
			noEffect:    order},
		{Name: "enable-statistics", to: boolean(nil), Kind: Bool, Default: "true",
			Description: "true or false. Accepted for compatibility with actions/stale; the log and the job summary always end with counts of what the run did.",
			noEffect:    "the log and the job summary always end with the counts"},

		ignored("stale-issue-message", "", "comment posted when an issue is marked stale"),
		ignored("close-issue-message", "", "comment posted when an issue is closed"),
		ignored("days-before-issue-stale", "", "days before an issue is marked stale"),
		ignored("days-before-issue-close", "", "days before a stale issue is closed"),
		ignored("stale-issue-label", "Stale", "label of stale issues"),
		ignored("close-issue-label", "", "label added to closed issues"),
		ignored("exempt-issue-labels", "", "labels that exempt an issue"),
		ignored("close-issue-reason", "not_planned", "state reason of closed issues"),
		ignored("exempt-issue-milestones", "", "milestones that exempt an issue"),
		ignored("exempt-all-issue-milestones", "", "exempt every issue with a milestone"),
		ignored("only-issue-labels", "", "labels an issue must all carry"),
		ignored("any-of-issue-labels", "", "labels of which an issue must carry one"),
		ignored("remove-issue-stale-when-updated", "", "unmark issues on activity"),
		ignored("exempt-issue-assignees", "", "assignees that exempt an issue"),
		ignored("exempt-all-issue-assignees", "", "exempt every issue with an assignee"),
		ignored("ignore-issue-updates", "", "count issue inactivity from creation"),
		ignored("only-issue-types", "", "issue types to process"),
	}
}

// Lookup returns the input named name from the table.
func Lookup(name string) (Input, bool) {
	for _, in := range Inputs {
		if in.Name == name {
			return in, true
		}
	}
	return Input{}, false
}
