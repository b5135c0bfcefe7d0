package config

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/stalepr/stalepr/internal/api"
	"github.com/stalepr/stalepr/internal/lifecycle"
	"github.com/stalepr/stalepr/internal/notice"
	"go.yaml.in/yaml/v4"
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
	// Given lists the names of the inputs given, as spelled (a workflow's
	// with: keys, a sandbox's inputs.json keys); nil when the source
	// cannot tell. A name that is no input gets a warning with the nearest.
	Given func() []string
}

// GivenInEnv is the names of the inputs a Docker action was given, from
// its environment (os.Environ): every INPUT_<NAME> variable, lower-cased.
func GivenInEnv(environ []string) []string {
	var names []string
	for _, kv := range environ {
		k, _, _ := strings.Cut(kv, "=")
		if name, ok := strings.CutPrefix(k, "INPUT_"); ok {
			names = append(names, strings.ToLower(name))
		}
	}
	return names
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

// ParseConnection reads only what a client needs to reach the repository:
// the token, owner/name, GITHUB_API_URL and the limits every request keeps
// (run-timeout, rate-limit-reserve), by the same rows
// of the table and in the same words as Parse; every other field is zero.
// It is for a read that decides the other inputs (a fleet's
// .github/stalepr.yml): Parse then reads what that read found as one more
// layer of src, once.
func ParseConnection(src Source) (Config, error) {
	p := &parser{src: src}
	var c Config
	// A misspelt input is refused before any request, the file's read too.
	p.unknown()
	for _, name := range connectionInputs {
		in, _ := Lookup(name)
		in.to.parse(p, in, &c)
	}
	c.APIURL = p.apiURL()
	if len(p.errs) > 0 {
		return Config{}, p.errs
	}
	return c, nil
}

// connectionInputs are the rows ParseConnection reads.
var connectionInputs = []string{InputRepoToken, InputRepository, "run-timeout", "rate-limit-reserve"}

type parser struct {
	src  Source
	errs Errors
	// from names, for each generic input, the input its value came from:
	// its override when that is set (only-pr-labels for only-labels).
	from map[string]string
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

// failed reports whether the input name's value was refused: a check
// across inputs leaves it out, as its value is no value the user meant.
func (p *parser) failed(name string) bool {
	return slices.ContainsFunc(p.errs, func(e *InputError) bool { return !e.Env && e.Name == name })
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
func (p *parser) value(in Input) (v string, set bool) {
	v, _ = p.raw(in.Name)
	if v == "" {
		return in.Default, false
	}
	return v, true
}

// valueOrOff is the input's value where present but empty means off (a
// message posting nothing, a label or a command turned off): only an
// absent input takes its default.
func (p *parser) valueOrOff(in Input) string {
	if v, present := p.raw(in.Name); present {
		return v
	}
	v, _ := p.value(in)
	return v
}

// isSet says whether the user gave the input a non-blank value.
func (p *parser) isSet(name string) bool {
	v, _ := p.raw(name)
	return v != ""
}

// source names the input a generic input's value came from: its override
// when that is set.
func (p *parser) source(generic string) string {
	if n, ok := p.from[generic]; ok {
		return n
	}
	return generic
}

// A target is where one input's value goes in a Config, with the parser of
// the input's kind. Each constructor below binds a kind's parser to a field
// of that kind's type, so the compiler checks the pair; a nil field means
// the value is validated and then dropped (inputs kept for compatibility).
type target struct {
	kind Kind
	// parse validates in's value, reporting problems with p.fail, and stores
	// it in c. It reports whether the value was valid.
	parse func(p *parser, in Input, c *Config) bool
}

// store builds a target from a kind's parser: parse returns the value and
// whether it is valid.
func store[T any](kind Kind, field func(*Config) *T, parse func(p *parser, in Input) (T, bool)) target {
	return target{kind: kind, parse: func(p *parser, in Input, c *Config) bool {
		v, ok := parse(p, in)
		if field != nil {
			*field(c) = v
		}
		return ok
	}}
}

// issueTitle reads an issue title: one line of at most 256 characters,
// GitHub's limit, so the create request cannot fail on it mid-run.
func issueTitle(field func(*Config) *string) target {
	return store(Text, field, func(p *parser, in Input) (string, bool) {
		v, _ := p.value(in)
		v = strings.TrimSpace(v)
		switch {
		case strings.ContainsAny(v, "\r\n"):
			p.fail(in.Name, "want an issue title on one line, got %s", quote(v))
		case utf8.RuneCountInString(v) > 256:
			p.fail(in.Name, "want an issue title of at most 256 characters (GitHub's limit), got %d", utf8.RuneCountInString(v))
		default:
			return v, true
		}
		return v, false
	})
}

func text(field func(*Config) *string) target {
	return store(Text, field, func(p *parser, in Input) (string, bool) {
		v, _ := p.value(in)
		return v, true
	})
}

// optionalLabel reads a label that is on by default: present but empty
// means off (conflict-label: ”), so only an absent input takes the
// default.
func optionalLabel(field func(*Config) *string) target {
	return store(Text, field, func(p *parser, in Input) (string, bool) {
		return p.valueOrOff(in), true
	})
}

// message reads a template; present but empty means "no comment", so only
// an absent input takes the default.
func message(field func(*Config) *string) target {
	return store(Message, field, func(p *parser, in Input) (string, bool) {
		v := p.valueOrOff(in)
		if err := notice.Check(v); err != nil {
			p.fail(in.Name, "%v", err)
			return v, false
		}
		return v, true
	})
}

// agentDays reads one of the agent clock's days, which only a value turns
// on: unset, the input leaves the clock as it is, and parser.agentClock
// fills the half left unset from everyone's clock.
func agentDays(field func(*Config) *int) target {
	d := days(field)
	return target{kind: Days, parse: func(p *parser, in Input, c *Config) bool {
		if !p.isSet(in.Name) {
			return true
		}
		c.Policy.AgentClock.On = true
		return d.parse(p, in, c)
	}}
}

// agentClock fills the agent clock's unset half, when the other is set,
// from everyone's clock (days-before-stale, days-before-close or their
// pr- overrides).
func (p *parser) agentClock(pol *lifecycle.Policy) {
	if !pol.AgentClock.On {
		return
	}
	if !p.isSet(inputAgentStaleDays) {
		pol.AgentClock.DaysBeforeStale = pol.DaysBeforeStale
	}
	if !p.isSet(inputAgentCloseDays) {
		pol.AgentClock.DaysBeforeClose = pol.DaysBeforeClose
	}
}

func days(field func(*Config) *int) target {
	return store(Days, field, func(p *parser, in Input) (int, bool) {
		v, _ := p.value(in)
		n, err := strconv.Atoi(v)
		switch {
		case err != nil && isInteger(v), err == nil && n > maxDays:
			p.fail(in.Name, "want at most %d days (or -1 for never), got %s", maxDays, quote(v))
		case err != nil, n < -1:
			p.fail(in.Name, "want a whole number of days (or -1 for never), got %s", quote(v))
		default:
			return n, true
		}
		return n, false
	})
}

var integerRE = regexp.MustCompile(`^[+-]?[0-9]+$`)

func isInteger(s string) bool { return integerRE.MatchString(s) }

// count reads a whole number of at least min (0 or 1).
func count(min int, field func(*Config) *int) target {
	return store(Count, field, func(p *parser, in Input) (int, bool) {
		v, _ := p.value(in)
		n, err := strconv.Atoi(v)
		if err != nil || n < min {
			what := "0 or more"
			if min == 1 {
				what = "1 or more"
			}
			p.fail(in.Name, "want a whole number, %s, got %s", what, quote(v))
			return n, false
		}
		return n, true
	})
}

func boolean(field func(*Config) *bool) target {
	return store(Bool, field, func(p *parser, in Input) (bool, bool) {
		v, _ := p.value(in)
		switch strings.ToLower(v) {
		case "true":
			return true, true
		case "false":
			return false, true
		}
		p.fail(in.Name, "want true or false, got %s", quote(v))
		return false, false
	})
}

func list(field func(*Config) *[]string) target {
	return store(List, field, func(p *parser, in Input) ([]string, bool) {
		return p.list(in)
	})
}

// list reads in's value as a list (SplitList), refusing one it cannot
// read.
func (p *parser) list(in Input) ([]string, bool) {
	v, _ := p.value(in)
	items, err := SplitList(v)
	if err != nil {
		p.fail(in.Name, "%v", err)
		return nil, false
	}
	return items, true
}

// authors reads a list of logins where a GitHub App's name stands for its
// bot account too: dependabot also matches dependabot[bot], the login
// Dependabot's pull requests carry, as people write the App's name.
func authors(field func(*Config) *[]string) target {
	return store(List, field, func(p *parser, in Input) ([]string, bool) {
		items, ok := p.list(in)
		var out []string
		for _, l := range items {
			out = append(out, l)
			if !strings.HasSuffix(strings.ToLower(l), "[bot]") && !strings.HasSuffix(l, "*") {
				out = append(out, l+"[bot]")
			}
		}
		return out, ok && p.checkAccounts(in.Name, items, loginGlobs)
	})
}

// listForms is what a list input accepts, for its errors.
const listForms = "want comma-separated values (pinned, security) or a YAML list ([pinned, security])"

// SplitList reads a list value: it splits it on commas (and line breaks,
// for YAML block values), trims each item and drops empty ones. Labels
// may hold spaces and slashes. A value in brackets is a YAML flow list,
// items quoted or not: "[pinned, security]" is pinned and security, not
// the labels "[pinned" and "security]", which match nothing, so a
// pinned pull request would not be exempt. One bare item in brackets
// ("[WIP]") is refused: the list of WIP and the label [WIP] cannot be
// told apart. A value in brackets that is no YAML list ("[WIP], [bug]")
// is split on commas, as actions/stale reads it.
func SplitList(v string) ([]string, error) {
	if t := strings.TrimSpace(v); strings.HasPrefix(t, "[") && strings.HasSuffix(t, "]") {
		if items, ok, err := flowList(t); ok || err != nil {
			return items, err
		}
	}
	var out []string
	for _, item := range strings.FieldsFunc(v, func(r rune) bool { return r == ',' || r == '\n' || r == '\r' }) {
		if item = strings.TrimSpace(item); item != "" {
			out = append(out, item)
		}
	}
	return out, nil
}

// flowList reads v as a YAML flow list; ok is false when it is none.
func flowList(v string) (items []string, ok bool, err error) {
	var doc yaml.Node
	if yaml.Unmarshal([]byte(v), &doc) != nil || len(doc.Content) != 1 || doc.Content[0].Kind != yaml.SequenceNode {
		return nil, false, nil
	}
	seq := doc.Content[0].Content
	for _, n := range seq {
		if n.Kind != yaml.ScalarNode {
			return nil, false, fmt.Errorf("%s holds a list or a map as an item: %s", quote(v), listForms)
		}
		if s := strings.TrimSpace(n.Value); s != "" {
			items = append(items, s)
		}
	}
	if len(seq) == 1 && seq[0].Style&(yaml.SingleQuotedStyle|yaml.DoubleQuotedStyle) == 0 {
		one := seq[0].Value
		return nil, false, fmt.Errorf("%s may be a YAML list of the one value %s or the value %s itself: write %s for the first, [%s] for the second",
			quote(v), quote(one), quote(v), one, strconv.Quote(v))
	}
	return items, true, nil
}

// choice reads one of in.Choices, in any letter case; a refused value leaves
// the default.
func choice[T ~string](field func(*Config) *T) target {
	return store(Choice, field, func(p *parser, in Input) (T, bool) {
		v, _ := p.value(in)
		for _, c := range in.Choices {
			if strings.EqualFold(v, c) {
				return T(c), true
			}
		}
		p.fail(in.Name, "want %s, got %s", orList(in.Choices), quote(v))
		return T(in.Default), false
	})
}

func orList(words []string) string {
	if len(words) < 2 {
		return strings.Join(words, "")
	}
	return strings.Join(words[:len(words)-1], ", ") + " or " + words[len(words)-1]
}

// Date layouts accepted by start-date: ISO 8601, RFC 2822, and the written
// forms JavaScript's Date reads, which actions/stale uses (its own tests
// write January 1, 2000 00:00:00). A time without a zone is UTC, as on a
// hosted runner. Numeric dates with the year last (01/02/2024) are refused:
// the day and the month cannot be told apart.
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
	// writtenLayouts are every written date, with or without a time, with
	// or without a numeric zone. RFC 2822 is among them once its weekday
	// is cut and GMT or UT is read as +0000.
	writtenLayouts = func() []string {
		var out []string
		for _, d := range []string{"January 2, 2006", "January 2 2006", "Jan 2, 2006", "Jan 2 2006",
			"2 January 2006", "2 Jan 2006", "2006/1/2", "2006-01-02"} {
			for _, t := range []string{"", " 15:04:05", " 15:04"} {
				for _, z := range []string{"", " -0700", " -07:00"} {
					if t == "" && z != "" {
						continue
					}
					out = append(out, d+t+z)
				}
			}
		}
		return out
	}()
	// weekdayRE is a leading weekday, which the layouts leave out: time.Parse
	// would not check it against the date anyway.
	weekdayRE = regexp.MustCompile(`(?i)^(mon|tue|wed|thu|fri|sat|sun)[a-z]*,?\s+`)
	// isoSpaceRE is an ISO 8601 date and time separated by a space, as
	// RFC 3339 allows, instead of T.
	isoSpaceRE = regexp.MustCompile(`^(\d{4}-\d{2}-\d{2}) (\d)`)
)

const dateForms = "an ISO 8601 date (2024-01-02, 2024-01-02T15:04:05Z, 2024-01-02 15:04:05, 2024-01-02T15:04:05+02:00), " +
	"an RFC 2822 date (Tue, 02 Jan 2024 15:04:05 +0000, with or without the weekday) " +
	"or a written date (January 2, 2024; Jan 2, 2024 15:04; 2 Jan 2024; 2024/01/02), " +
	"a time without a zone being UTC (zones: +02:00, +0200, Z, UTC or GMT)"

// parseDate parses start-date (see isoLayouts); times without a zone are UTC.
func parseDate(v string) (time.Time, bool) {
	for _, s := range []string{v, isoSpaceRE.ReplaceAllString(v, "${1}T${2}")} {
		for _, l := range isoLayouts {
			if t, err := time.Parse(l, s); err == nil {
				return t.UTC(), true
			}
		}
	}
	// UTC is also written GMT or UT; other named zones (EST) are refused,
	// since time.Parse would take an unknown name for +0000.
	s := weekdayRE.ReplaceAllString(v, "")
	for _, z := range []string{" GMT", " UTC", " UT"} {
		if len(s) > len(z) && strings.EqualFold(s[len(s)-len(z):], z) {
			s = s[:len(s)-len(z)] + " +0000"
			break
		}
	}
	for _, l := range writtenLayouts {
		if t, err := time.Parse(l, s); err == nil {
			return t.UTC(), true
		}
	}
	return time.Time{}, false
}

// date reads a start-date; unset is the zero time, no limit.
func date(field func(*Config) *time.Time) target {
	return store(Date, field, func(p *parser, in Input) (time.Time, bool) {
		v, set := p.value(in)
		if !set {
			return time.Time{}, true
		}
		t, ok := parseDate(v)
		if !ok {
			p.fail(in.Name, "want %s, got %s", dateForms, quote(v))
		}
		return t, ok
	})
}

// duration reads a Go duration from least to most (both Go durations too);
// example shows the form in the error.
func duration(least, most, example string, field func(*Config) *time.Duration) target {
	lo, err1 := time.ParseDuration(least)
	hi, err2 := time.ParseDuration(most)
	if err1 != nil || err2 != nil {
		panic("config: bad duration bounds " + least + ", " + most)
	}
	return store(Duration, field, func(p *parser, in Input) (time.Duration, bool) {
		v, _ := p.value(in)
		d, err := time.ParseDuration(v)
		if err != nil || d < lo || d > hi {
			p.fail(in.Name, "want a duration from %s to %s such as %s, got %s", least, most, example, quote(v))
			return 0, false
		}
		return d, true
	})
}

// repoRE accepts GitHub's owner and repository names (letters, digits, -, _
// and, in repository names, .), so they are safe in URL paths.
var repoRE = regexp.MustCompile(`^([A-Za-z0-9_-]+)/([A-Za-z0-9_.-]+)$`)

// repository reads owner/name from the input, else from GITHUB_REPOSITORY.
func repository() target {
	return target{kind: Repository, parse: func(p *parser, _ Input, c *Config) bool {
		c.Owner, c.Repo = p.repository()
		return c.Owner != ""
	}}
}

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

// token reads the token from the input, else from GITHUB_TOKEN.
func token() target {
	return target{kind: Secret, parse: func(p *parser, _ Input, c *Config) bool {
		c.Token = Token(p.token())
		return c.Token != ""
	}}
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
	if _, err := api.ParseURL(v); err != nil {
		p.errs = append(p.errs, &InputError{Name: EnvAPIURL, Env: true, Msg: err.Error()})
		return ""
	}
	return v
}

// config parses every input of the table into its field, then checks the
// inputs that defeat each other.
func (p *parser) config() Config {
	var c Config
	p.from = map[string]string{}
	unknown := p.unknown()
	var noEffect []string
	for _, in := range Inputs {
		switch {
		case in.Kind == Ignored:
			continue
		case in.Overrides != "":
			// The override, when set, parses into its generic input's field,
			// which the table has already filled (and so validated).
			if !p.isSet(in.Name) {
				continue
			}
			g, ok := Lookup(in.Overrides)
			if !ok || g.to.parse == nil {
				panic("config: " + in.Name + " overrides " + in.Overrides + ", which has no target in the table") // TestTable
			}
			g.to.parse(p, in, &c)
			p.from[g.Name] = in.Name
		default:
			valid := in.to.parse(p, in, &c)
			// Only a valid value that asks for what stalepr does not do
			// gets a warning; a typo is an error.
			if v, set := p.value(in); valid && set && in.noEffect != "" && !strings.EqualFold(v, in.Default) {
				noEffect = append(noEffect, fmt.Sprintf("input %q has no effect: %s; remove it to silence this warning", in.Name, in.noEffect))
			}
		}
	}
	c.APIURL = p.apiURL()

	pol := &c.Policy
	if pol.OnlyDraft && pol.ExemptDraft {
		p.fail(inputOnlyDraft, "only-draft-pr and exempt-draft-pr are both true: only drafts would be considered and every draft is exempt, so nothing would ever be processed; set one of them to false")
	}
	if pol.OnlyDraft && pol.CloseAction == lifecycle.CloseToDraft {
		p.fail(inputCloseAction, "close-action draft with only-draft-pr true would \"close\" drafts by converting them to drafts; use close-action close, or set only-draft-pr to false")
	}

	p.teamsOfOwner(&c)
	p.turn(&c)
	p.audit(&c)
	p.agentClock(pol)
	p.intake(&c)
	// Without a stale notice our marks carry no marker: the rules must not
	// wait for one (see lifecycle.Policy.NoStaleNotice).
	pol.NoStaleNotice = c.StaleMessage == ""
	p.contradictions(c)
	if c.DeleteBranch && pol.CloseAction == lifecycle.CloseToDraft {
		// Deleting the head branch of an open PR closes it: the opposite of
		// keeping it open as a draft.
		p.fail(inputDeleteBranch, "delete-branch true with close-action draft would close the converted pull request by deleting its branch; set delete-branch to false, or use close-action close")
	}

	c.Warnings = append(p.ignored(), noEffect...)
	c.Warnings = append(c.Warnings, p.warnings(c, unknown)...)
	return c
}

// contradictions refuses inputs that each make sense but defeat each other,
// naming both, so a workflow cannot mark pull requests it can never close.
// Labels compare ignoring letter case, as GitHub does.
func (p *parser) contradictions(c Config) {
	const labelInput = inputStaleLabel
	stale := c.Policy.StaleLabel
	if strings.Contains(stale, ",") {
		// GitHub's labels= filter splits on commas: the label could not be
		// listed, so stale pull requests would never be found again.
		p.fail(labelInput, "%s holds a comma, which GitHub's label filter cannot search for; choose a label without one", quote(stale))
	}
	if c.CloseLabel != "" && strings.EqualFold(c.CloseLabel, stale) {
		p.fail(inputCloseLabel, "is %s, the same label as stale-pr-label: closed pull requests could not be told from stale open ones; "+
			"leave close-pr-label empty or choose another label", quote(c.CloseLabel))
	}
	exempt := inputExemptLabels
	for _, l := range c.Policy.ExemptLabels {
		if strings.EqualFold(l, stale) {
			p.fail(exempt, "holds %s, the stale-pr-label: a pull request marked stale would become exempt and never be closed", quote(l))
		}
	}
	only := p.source(inputOnlyLabels)
	anyOf := p.source(inputAnyOfLabels)
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
		{inputRemoveWhenStale, c.LabelsToRemoveWhenStale},
		{inputAddWhenUnstale, c.LabelsToAddWhenUnstale},
	} {
		for _, l := range in.labels {
			if strings.EqualFold(l, stale) {
				p.fail(in.name, "holds %s, the stale-pr-label, which would undo marking or unmarking", quote(l))
			}
		}
	}
}

// ignored warns once per issue-only input, and only when it is set to
// something other than its default: the runner passes every input of
// action.yml, defaults included. Ignored inputs are not validated.
func (p *parser) ignored() []string {
	var w []string
	for _, in := range Inputs {
		if in.Kind != Ignored {
			continue
		}
		if v, set := p.value(in); set && v != in.Default {
			w = append(w, fmt.Sprintf("input %q is ignored: stalepr handles pull requests only (keep actions/stale for issues); remove it to silence this warning", in.Name))
		}
	}
	return w
}

// warnings are notes on valid inputs that may not do what their author
// hopes.
func (p *parser) warnings(c Config, unknown []string) []string {
	if len(p.errs) > 0 {
		return nil
	}
	w := unknown
	if p.isSet(inputWriteInterval) && c.WriteInterval < time.Second {
		w = append(w, fmt.Sprintf("write-interval %s is shorter than the second GitHub asks for between writes; secondary rate limits may stop the run", c.WriteInterval))
	}
	if c.Policy.CloseAction == lifecycle.CloseToDraft && !c.Policy.ExemptDraft {
		w = append(w, "close-action draft without exempt-draft-pr: a converted draft is marked and converted again after another "+
			"days-before-stale days without activity; set exempt-draft-pr: true to leave converted drafts alone")
	}
	if c.Policy.CloseAction == lifecycle.CloseToDraft && c.Policy.AgentClock.On && c.Policy.AgentClock.DaysBeforeStale >= 0 {
		// The agent clock lifts exempt-draft-pr for agents' drafts, the
		// converted ones too.
		w = append(w, "close-action draft with days-before-agent-pr-stale or days-before-agent-pr-close: agents' drafts are not exempt, "+
			"so a coding agent's pull request converted to a draft is marked and converted again after another days-before-agent-pr-stale days without activity")
	}
	if !c.Policy.Marks() && !c.Policy.Closes() {
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
