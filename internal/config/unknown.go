package config

import (
	"fmt"
	"slices"
	"strings"
)

// unknown checks each name given that is no input. One within a small edit
// distance of an input (debug_only, days-befor-stale), and dry-run, are
// refused: the run would go on with that input's default, and a misspelt
// preview would write. The runner only warns of a with: key action.yml
// does not declare, and runs. A name nearest an issue-only input of
// actions/stale, which is ignored anyway, or near none, gets a warning,
// which unknown returns.
func (p *parser) unknown() []string {
	if p.src.Given == nil {
		return nil
	}
	var w []string
	seen := map[string]bool{}
	for _, g := range p.src.Given() {
		name := strings.ToLower(g)
		if _, ok := Lookup(name); ok || seen[name] {
			continue
		}
		seen[name] = true
		if msg, refuse := unknownInput(name); refuse {
			p.fail(g, "%s", msg)
		} else {
			w = append(w, fmt.Sprintf("%q %s", g, msg))
		}
	}
	slices.Sort(w)
	return w
}

// unknownInput says what is wrong with name, which is no input, and
// whether it is refused (see parser.unknown). name is lower-case.
func unknownInput(name string) (msg string, refuse bool) {
	if isDryRun(name) {
		return "is not an input of stalepr, whose dry run is debug-only (true or false): " +
			"refused rather than run writing; rename it debug-only", true
	}
	near := nearestInput(name)
	if near == "" {
		return "is not an input of stalepr and is ignored (stalepr's docs/inputs.md lists them)", false
	}
	in, _ := Lookup(near)
	if in.Kind == Ignored {
		return "is not an input of stalepr and is ignored; did you mean " + near + "?", false
	}
	return fmt.Sprintf("is not an input of stalepr; did you mean %s (%s)? Refused rather than run as if %s were unset", near, in.accepts(), near), true
}

// isDryRun reports whether name is a dry run's, however written (dry-run,
// dry_run, dryrun): stalepr's is debug-only.
func isDryRun(name string) bool {
	return strings.NewReplacer("-", "", "_", "", " ", "").Replace(name) == "dryrun"
}

// nearestInput is the input nearest to name in spelling, "" when none is
// near enough to be a misspelling.
func nearestInput(name string) string {
	names := make([]string, len(Inputs))
	for i, in := range Inputs {
		names[i] = in.Name
	}
	return Nearest(name, names)
}
