package config

import (
	"fmt"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/stalepr/stalepr/internal/lifecycle"
	"github.com/stalepr/stalepr/internal/notice"
)

// Source is where Parse reads raw values. Either function may be nil, which
// reads as "nothing set".
type Source struct {
	// Input returns the raw value of the input called name (stale-pr-message)
	// and whether it is present at all: present but empty is how a message
	// input says "no comment".
	Input func(name string) (value string, present bool)
	// Env returns an environment variable: GITHUB_TOKEN, GITHUB_REPOSITORY
	// or GITHUB_API_URL.
	Env func(name string) string
}

// ActionsSource reads inputs as a Docker action receives them: input
// stale-pr-message is the variable INPUT_STALE-PR-MESSAGE (upper-cased,
// hyphens kept). Pass os.LookupEnv; tests pass a map's lookup.
func ActionsSource(lookupEnv func(string) (string, bool)) Source {
	return Source{
		Input: func(name string) (string, bool) {
			return lookupEnv("INPUT_" + strings.ToUpper(strings.ReplaceAll(name, " ", "_")))
		},
		Env: func(name string) string {
			v, _ := lookupEnv(name)
			return v
		},
	}
}

// Parse reads every input from src, applies the defaults of Inputs and
// validates. It returns all problems at once as Errors; then the Config is
// zero but for Warnings. Warnings are notes for the log, e.g. ignored
// issue-only inputs.
func Parse(src Source) (Config, error) {
	p := &parser{src: src}
	c := p.config()
	if len(p.errs) > 0 {
		slices.SortStableFunc(p.errs, func(a, b *InputError) int { return p.rank(a) - p.rank(b) })
		return Config{Warnings: c.Warnings}, p.errs
	}
	return c, nil
}

type parser struct {
	src  Source
	errs Errors
}

func (p *parser) rank(e *InputError) int {
	if !e.Env {
		for i, in := range Inputs {
			if in.Name == e.Name {
				return i
			}
		}
	}
	return len(Inputs)
}

func (p *parser) fail(name, format string, args ...any) {
	p.errs = append(p.errs, &InputError{Name: name, Msg: fmt.Sprintf(format, args...)})
}

func (p *parser) env(name string) string {
	if p.src.Env == nil {
		return ""
	}
	return strings.TrimSpace(p.src.Env(name))
}

// raw returns the trimmed value of an input and whether it is present.
func (p *parser) raw(name string) (string, bool) {
	if p.src.Input == nil {
		return "", false
	}
	v, ok := p.src.Input(name)
	return strings.TrimSpace(v), ok
}

// value returns the input's value, or its default when unset or blank; set
// says whether the user gave a non-blank value.
func (p *parser) value(name string) (v string, set bool) {
	in, ok := Lookup(name)
	if !ok {
		panic("config: input " + name + " is not in the table")
	}
	v, _ = p.raw(name)
	if v == "" {
		return in.Default, false
	}
	return v, true
}

func (p *parser) isSet(name string) bool {
	_, set := p.value(name)
	return set
}

// override reads a generic input and its PR-specific override, validating
// both, and returns the override's value when it is set.
func override[T any](p *parser, pr, generic string, get func(string) T) T {
	g := get(generic)
	if p.isSet(pr) {
		return get(pr)
	}
	return g
}

func (p *parser) text(name string) string {
	v, _ := p.value(name)
	return v
}

func (p *parser) message(name string) string {
	raw, present := p.raw(name)
	v := raw
	if !present {
		v, _ = p.value(name)
	}
	if err := notice.Check(v); err != nil {
		p.fail(name, "%v", err)
	}
	return v
}

func (p *parser) days(name string) int {
	v, _ := p.value(name)
	if v == "" {
		return 0 // an override's empty default; never used
	}
	n, err := strconv.Atoi(v)
	switch {
	case err != nil && isInteger(v), err == nil && n > maxDays:
		p.fail(name, "want at most %d days (or -1 for never), got %s", maxDays, quote(v))
	case err != nil, n < -1:
		p.fail(name, "want a whole number of days (or -1 for never), got %s", quote(v))
	}
	return n
}

var integerRE = regexp.MustCompile(`^[+-]?[0-9]+$`)

func isInteger(s string) bool { return integerRE.MatchString(s) }

func (p *parser) count(name string, min int) int {
	v, _ := p.value(name)
	n, err := strconv.Atoi(v)
	if err != nil || n < min {
		what := "0 or more"
		if min == 1 {
			what = "1 or more"
		}
		p.fail(name, "want a whole number, %s, got %s", what, quote(v))
	}
	return n
}

func (p *parser) boolean(name string) bool {
	v, _ := p.value(name)
	switch strings.ToLower(v) {
	case "true":
		return true
	case "false", "": // "": an override's empty default; never used
		return false
	}
	p.fail(name, "want true or false, got %s", quote(v))
	return false
}

func (p *parser) list(name string) []string {
	v, _ := p.value(name)
	return SplitList(v)
}

// SplitList splits a list value on commas (and line breaks, for YAML block
// values), trims each item and drops empty ones. Labels may hold spaces and
// slashes.
func SplitList(v string) []string {
	var out []string
	for _, item := range strings.FieldsFunc(v, func(r rune) bool { return r == ',' || r == '\n' || r == '\r' }) {
		if item = strings.TrimSpace(item); item != "" {
			out = append(out, item)
		}
	}
	return out
}

func (p *parser) choice(name string) string {
	in, _ := Lookup(name)
	v, _ := p.value(name)
	for _, c := range in.Choices {
		if strings.EqualFold(v, c) {
			return c
		}
	}
	p.fail(name, "want %s, got %s", orList(in.Choices), quote(v))
	return in.Default
}

func orList(words []string) string {
	if len(words) < 2 {
		return strings.Join(words, "")
	}
	return strings.Join(words[:len(words)-1], ", ") + " or " + words[len(words)-1]
}

// Date layouts accepted by start-date.
var (
	isoLayouts = []string{
		"2006-01-02",
		time.RFC3339, // fractional seconds are accepted too
		"2006-01-02T15:04:05Z0700",
		"2006-01-02T15:04:05",
		"2006-01-02T15:04Z07:00",
		"2006-01-02T15:04Z0700",
		"2006-01-02T15:04",
	}
	rfc2822Layouts = []string{
		"Mon, 2 Jan 2006 15:04:05 -0700",
		"Mon, 2 Jan 2006 15:04 -0700",
		"2 Jan 2006 15:04:05 -0700",
		"2 Jan 2006 15:04 -0700",
	}
)

const dateForms = "an ISO 8601 date (2024-01-02, 2024-01-02T15:04:05Z, 2024-01-02T15:04:05+02:00) " +
	"or an RFC 2822 date (Tue, 02 Jan 2024 15:04:05 +0000, with or without the weekday)"

// parseDate parses an ISO 8601 or RFC 2822 date; times without a zone are UTC.
func parseDate(v string) (time.Time, bool) {
	for _, l := range isoLayouts {
		if t, err := time.Parse(l, v); err == nil {
			return t.UTC(), true
		}
	}
	// RFC 2822 names UTC also as GMT or UT; obsolete letter zones are refused.
	s := v
	for _, z := range []string{" GMT", " UTC", " UT"} {
		if strings.HasSuffix(s, z) {
			s = strings.TrimSuffix(s, z) + " +0000"
			break
		}
	}
	for _, l := range rfc2822Layouts {
		if t, err := time.Parse(l, s); err == nil {
			return t.UTC(), true
		}
	}
	return time.Time{}, false
}

func (p *parser) date(name string) time.Time {
	v, set := p.value(name)
	if !set {
		return time.Time{}
	}
	t, ok := parseDate(v)
	if !ok {
		p.fail(name, "want %s, got %s", dateForms, quote(v))
	}
	return t
}

// duration reads a Go duration from least to most (both Go durations too).
func (p *parser) duration(name, least, most, example string) time.Duration {
	v, _ := p.value(name)
	d, err := time.ParseDuration(v)
	lo, _ := time.ParseDuration(least)
	hi, _ := time.ParseDuration(most)
	if err != nil || d < lo || d > hi {
		p.fail(name, "want a duration from %s to %s such as %s, got %s", least, most, example, quote(v))
		return 0
	}
	return d
}

// repoRE accepts GitHub's owner and repository names (letters, digits, -, _
// and, in repository names, .), so they are safe in URL paths.
var repoRE = regexp.MustCompile(`^([A-Za-z0-9_-]+)/([A-Za-z0-9_.-]+)$`)

// IsRepository reports whether s is owner/name as GitHub spells them.
func IsRepository(s string) bool {
	m := repoRE.FindStringSubmatch(s)
	return m != nil && m[2] != "." && m[2] != ".."
}

func (p *parser) repository() (owner, repo string) {
	v, _ := p.raw(InputRepository)
	if v == "" {
		v = p.env(EnvRepository)
	}
	if v == "" {
		p.fail(InputRepository, "not set: set the repository input or the %s environment variable to owner/name", EnvRepository)
		return "", ""
	}
	if !IsRepository(v) {
		p.fail(InputRepository, "want owner/name, got %s", quote(v))
		return "", ""
	}
	owner, repo, _ = strings.Cut(v, "/")
	return owner, repo
}

func (p *parser) token() string {
	t, _ := p.raw(InputRepoToken)
	if t == "" {
		t = p.env(EnvToken)
	}
	if t == "" {
		p.fail(InputRepoToken, "no token: set the repo-token input or the %s environment variable", EnvToken)
		return ""
	}
	// Never quote the token: say only what is wrong with it.
	if strings.ContainsFunc(t, func(r rune) bool { return unicode.IsSpace(r) || unicode.IsControl(r) }) || !utf8.ValidString(t) {
		p.fail(InputRepoToken, "the token holds spaces, control characters or invalid UTF-8; check the secret")
		return ""
	}
	return t
}

func (p *parser) apiURL() string {
	v := p.env(EnvAPIURL)
	if v == "" {
		return ""
	}
	u, err := url.Parse(v)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.User != nil {
		// Printed before the token is masked, and the userinfo may be a
		// token or a password: never repeat it.
		p.errs = append(p.errs, &InputError{Name: EnvAPIURL, Env: true,
			Msg: "want an absolute http or https URL without credentials, such as https://github.example.com/api/v3, got " + quote(redactUserinfo(v))})
		return ""
	}
	return v
}

// redactUserinfo replaces the user:password@ part of a URL-like string with
// ***@, also when the string does not parse.
func redactUserinfo(s string) string {
	prefix, rest := "", s
	if i := strings.Index(s, "://"); i >= 0 {
		prefix, rest = s[:i+3], s[i+3:]
	}
	end := strings.IndexAny(rest, "/?#")
	if end < 0 {
		end = len(rest)
	}
	if at := strings.LastIndex(rest[:end], "@"); at >= 0 {
		rest = "***" + rest[at:]
	}
	return prefix + rest
}

func (p *parser) config() Config {
	var c Config
	c.Token = Token(p.token())
	c.Owner, c.Repo = p.repository()
	c.APIURL = p.apiURL()

	c.StaleMessage = p.message("stale-pr-message")
	c.CloseMessage = p.message("close-pr-message")
	c.CloseLabel = p.text("close-pr-label")

	pol := &c.Policy
	pol.DaysBeforeStale = override(p, "days-before-pr-stale", "days-before-stale", p.days)
	pol.DaysBeforeClose = override(p, "days-before-pr-close", "days-before-close", p.days)
	pol.StaleLabel = p.text("stale-pr-label")
	pol.ExemptLabels = p.list("exempt-pr-labels")
	pol.OnlyLabels = override(p, "only-pr-labels", "only-labels", p.list)
	pol.AnyOfLabels = override(p, "any-of-pr-labels", "any-of-labels", p.list)
	pol.ExemptMilestones = override(p, "exempt-pr-milestones", "exempt-milestones", p.list)
	pol.ExemptAllMilestones = override(p, "exempt-all-pr-milestones", "exempt-all-milestones", p.boolean)
	pol.ExemptAssignees = override(p, "exempt-pr-assignees", "exempt-assignees", p.list)
	pol.ExemptAllAssignees = override(p, "exempt-all-pr-assignees", "exempt-all-assignees", p.boolean)
	pol.ExemptDraft = p.boolean("exempt-draft-pr")
	pol.IncludeOnlyAssigned = p.boolean("include-only-assigned")
	pol.StartDate = p.date("start-date")
	pol.IgnoreUpdates = override(p, "ignore-pr-updates", "ignore-updates", p.boolean)
	pol.RemoveStaleWhenUpdated = override(p, "remove-pr-stale-when-updated", "remove-stale-when-updated", p.boolean)
	pol.ActivityFrom = lifecycle.ActivityFrom(p.choice("activity-from"))
	pol.ExemptAwaitingReview = p.boolean("exempt-awaiting-review")
	pol.OnlyDraft = p.boolean("only-draft-pr")
	pol.ExemptAuthors = p.list("exempt-pr-authors")
	pol.ExemptApproved = p.boolean("exempt-approved")
	pol.CloseAction = lifecycle.CloseAction(p.choice(inputCloseAction))
	if pol.OnlyDraft && pol.ExemptDraft {
		p.fail("only-draft-pr", "only-draft-pr and exempt-draft-pr are both true: only drafts would be considered and every draft is exempt, so nothing would ever be processed; set one of them to false")
	}
	if pol.OnlyDraft && pol.CloseAction == lifecycle.CloseToDraft {
		p.fail(inputCloseAction, "close-action draft with only-draft-pr true would \"close\" drafts by converting them to drafts; use close-action close, or set only-draft-pr to false")
	}

	c.LabelsToRemoveWhenStale = p.list("labels-to-remove-when-stale")
	c.LabelsToAddWhenUnstale = p.list("labels-to-add-when-unstale")
	c.LabelsToRemoveWhenUnstale = p.list("labels-to-remove-when-unstale")
	p.contradictions(c)

	c.DeleteBranch = p.boolean("delete-branch")
	if c.DeleteBranch && pol.CloseAction == lifecycle.CloseToDraft {
		// Deleting the head branch of an open PR closes it: the opposite of
		// keeping it open as a draft.
		p.fail("delete-branch", "delete-branch true with close-action draft would close the converted pull request by deleting its branch; set delete-branch to false, or use close-action close")
	}
	c.DebugOnly = p.boolean("debug-only")
	c.OperationsPerRun = p.count("operations-per-run", 1)
	c.RateLimitReserve = p.count("rate-limit-reserve", 0)
	c.WriteInterval = p.duration("write-interval", "0s", maxWriteInterval, "1s or 500ms")
	c.RunTimeout = p.duration("run-timeout", minRunTimeout, maxRunTimeout, "30m or 1h")

	c.Warnings = p.warnings(c)
	return c
}

// effective names the input a PR-specific override pair takes its value
// from: the override when it is set.
func (p *parser) effective(pr, generic string) string {
	if p.isSet(pr) {
		return pr
	}
	return generic
}

// contradictions refuses inputs that each make sense but defeat each other,
// naming both, so a workflow cannot mark pull requests it can never close.
// Labels compare ignoring letter case, as GitHub does.
func (p *parser) contradictions(c Config) {
	const labelInput = "stale-pr-label"
	stale := c.Policy.StaleLabel
	if strings.Contains(stale, ",") {
		// GitHub's labels= filter splits on commas: the label could not be
		// listed, so stale pull requests would never be found again.
		p.fail(labelInput, "%s holds a comma, which GitHub's label filter cannot search for; choose a label without one", quote(stale))
	}
	if c.CloseLabel != "" && strings.EqualFold(c.CloseLabel, stale) {
		p.fail("close-pr-label", "is %s, the same label as stale-pr-label: closed pull requests could not be told from stale open ones; "+
			"leave close-pr-label empty or choose another label", quote(c.CloseLabel))
	}
	exempt := "exempt-pr-labels"
	for _, l := range c.Policy.ExemptLabels {
		if strings.EqualFold(l, stale) {
			p.fail(exempt, "holds %s, the stale-pr-label: a pull request marked stale would become exempt and never be closed", quote(l))
		}
	}
	only := p.effective("only-pr-labels", "only-labels")
	anyOf := p.effective("any-of-pr-labels", "any-of-labels")
	for _, sel := range []struct {
		name   string
		labels []string
		why    string
	}{
		{only, c.Policy.OnlyLabels, "every pull request it selects would be exempt"},
		{anyOf, c.Policy.AnyOfLabels, "pull requests it selects by that label would be exempt"},
	} {
		for _, l := range sel.labels {
			if slices.ContainsFunc(c.Policy.ExemptLabels, func(e string) bool { return strings.EqualFold(e, l) }) {
				p.fail(sel.name, "holds %s, which %s also holds: %s; remove it from one of the two", quote(l), exempt, sel.why)
			}
		}
	}
	for _, in := range []struct {
		name   string
		labels []string
	}{
		{"labels-to-remove-when-stale", c.LabelsToRemoveWhenStale},
		{"labels-to-add-when-unstale", c.LabelsToAddWhenUnstale},
	} {
		for _, l := range in.labels {
			if strings.EqualFold(l, stale) {
				p.fail(in.name, "holds %s, the stale-pr-label, which would undo marking or unmarking", quote(l))
			}
		}
	}
}

// warnings are one per input that is accepted but has no effect, and only
// when it is set to something other than its default: the runner passes
// every input of action.yml, defaults included.
func (p *parser) warnings(c Config) []string {
	var w []string
	for _, in := range Inputs {
		if in.Kind != Ignored {
			continue
		}
		if v, set := p.value(in.Name); set && v != in.Default {
			w = append(w, fmt.Sprintf("input %q is ignored: stalepr handles pull requests only (keep actions/stale for issues); remove it to silence this warning", in.Name))
		}
	}
	// ascending, sort-by and enable-statistics change nothing, but are read
	// (so a typo is still an error) before asking whether they are set: only
	// a valid value that asks for what stalepr does not do gets a warning.
	const order = "stalepr always works on the pull requests with the oldest activity first, which lets a capped run continue on the next one"
	if p.boolean("ascending") && p.isSet("ascending") {
		w = append(w, fmt.Sprintf("input %q has no effect: %s; remove it to silence this warning", "ascending", order))
	}
	if p.choice("sort-by") != "created" && p.isSet("sort-by") {
		w = append(w, fmt.Sprintf("input %q has no effect: %s; remove it to silence this warning", "sort-by", order))
	}
	p.boolean("enable-statistics") // for its validation: a value such as "no" is an error
	if v, set := p.value("enable-statistics"); set && strings.EqualFold(v, "false") {
		w = append(w, fmt.Sprintf("input %q has no effect: the log and the job summary always end with the counts; remove it to silence this warning", "enable-statistics"))
	}
	if p.isSet("write-interval") && c.WriteInterval < time.Second && len(p.errs) == 0 {
		w = append(w, fmt.Sprintf("write-interval %s is shorter than the second GitHub asks for between writes; secondary rate limits may stop the run", c.WriteInterval))
	}
	if len(p.errs) == 0 && c.Policy.CloseAction == lifecycle.CloseToDraft && !c.Policy.ExemptDraft {
		w = append(w, "close-action draft without exempt-draft-pr: a converted draft is marked and converted again after another "+
			"days-before-stale days without activity; set exempt-draft-pr: true to leave converted drafts alone")
	}
	if len(p.errs) == 0 && c.Policy.DaysBeforeStale < 0 && c.Policy.DaysBeforeClose < 0 {
		w = append(w, "days before stale and before close are both -1 (never): the run will neither mark nor close pull requests")
	}
	return w
}

// quote quotes a value for an error message, shortened when long.
func quote(v string) string {
	const max = 80
	if utf8.RuneCountInString(v) > max {
		r := []rune(v)
		return strconv.Quote(string(r[:max])) + "…"
	}
	return strconv.Quote(v)
}
