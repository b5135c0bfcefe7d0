package config

import (
	"flag"
	"fmt"
	"io"
	"slices"
	"strings"
)

// flagValue holds one input given on the command line. Validation is left to
// Parse, so the CLI reports bad values exactly as the action does.
type flagValue struct {
	kind Kind
	val  string
	set  bool
}

func (v *flagValue) String() string {
	if v == nil {
		return ""
	}
	return v.val
}

func (v *flagValue) Set(s string) error {
	v.val, v.set = s, true
	return nil
}

// IsBoolFlag lets a boolean input be given alone: -debug-only.
func (v *flagValue) IsBoolFlag() bool { return v != nil && v.kind == Bool }

// FromFlags defines every input as a flag of fs, next to the flags its caller
// defined there (the CLI's own, such as -version), and parses args (without
// the program name) with that one FlagSet, so a flag's value is never taken
// for a flag of its own. It returns a Source for Parse. Every input is a
// flag of the same name, a string checked by Parse; boolean inputs may be
// given alone (-debug-only), and -repo is short for -repository. The token is
// read from env("GITHUB_TOKEN") only, so it never shows in a process listing;
// GITHUB_REPOSITORY and GITHUB_API_URL are read from env too.
//
// It prints nothing: -help (or -h) returns flag.ErrHelp, for the caller to
// print Usage; other mistakes are returned for the caller to report.
func FromFlags(fs *flag.FlagSet, args []string, env func(string) string) (Source, error) {
	fs.SetOutput(io.Discard)
	fs.Usage = func() {} // flag calls it for -help too: the caller prints the text
	values := make(map[string]*flagValue, len(Inputs))
	for _, in := range Inputs {
		if in.Kind == Secret {
			continue
		}
		v := &flagValue{kind: in.Kind}
		values[in.Name] = v
		fs.Var(v, in.Name, in.Description)
		if in.Name == InputRepository {
			fs.Var(v, "repo", "short for -repository")
		}
	}
	if err := fs.Parse(args); err != nil {
		return Source{}, err
	}
	if fs.NArg() > 0 {
		return Source{}, fmt.Errorf("unexpected argument %q: every input is a flag, such as -days-before-stale 90", fs.Arg(0))
	}
	if env == nil {
		env = func(string) string { return "" }
	}
	return Source{
		Input: func(name string) (string, bool) {
			if v, ok := values[name]; ok && v.set {
				return v.val, true
			}
			return "", false
		},
		Env: env,
	}, nil
}

// Usage writes the CLI's help: the flags of fs that are not inputs (the
// CLI's own), then every input with its kind, default and description, from
// the table Inputs.
func Usage(w io.Writer, program string, fs *flag.FlagSet) {
	var b strings.Builder
	fmt.Fprintf(&b, "Usage: %s [-input value ...]\n\n", program)
	b.WriteString(wrap("Sweeps the open pull requests of one repository once, as the action does. "+
		"Every input of the action is a flag of the same name; a boolean may be given alone (-debug-only). "+
		"-repo is short for -repository. The token is read from the GITHUB_TOKEN environment variable, "+
		"an Enterprise Server's API URL from GITHUB_API_URL.", "", 80))
	var own strings.Builder
	fs.VisitAll(func(f *flag.Flag) {
		if f.Name == "repo" || slices.ContainsFunc(Inputs, func(in Input) bool { return in.Name == f.Name }) {
			return
		}
		arg, usage := flag.UnquoteUsage(f)
		fmt.Fprintf(&own, "  -%s", f.Name)
		if _, isBool := f.Value.(interface{ IsBoolFlag() bool }); !isBool && arg != "" {
			own.WriteString(" " + arg)
		}
		if f.DefValue != "" && f.DefValue != "false" {
			fmt.Fprintf(&own, " (default %q)", f.DefValue)
		}
		own.WriteString("\n" + wrap(usage, "        ", 80))
	})
	if own.Len() > 0 {
		b.WriteString("\nOther flags:\n" + own.String())
	}
	b.WriteString("\nInputs:\n")
	var ignored []Input
	for _, in := range Inputs {
		if in.Kind == Ignored {
			ignored = append(ignored, in)
			continue
		}
		writeInput(&b, in)
	}
	b.WriteString("\nIssue inputs of actions/stale, accepted and ignored (pull requests only):\n")
	for _, in := range ignored {
		fmt.Fprintf(&b, "  -%s\n", in.Name)
	}
	_, _ = io.WriteString(w, b.String())
}

func writeInput(b *strings.Builder, in Input) {
	const indent = "        "
	switch in.Kind {
	case Secret:
		fmt.Fprintf(b, "  %s (action input only; the CLI reads GITHUB_TOKEN)", in.Name)
	case Bool:
		fmt.Fprintf(b, "  -%s", in.Name)
	default:
		fmt.Fprintf(b, "  -%s %s", in.Name, in.Kind)
	}
	switch {
	case in.Kind == Secret:
	case in.Name == InputRepository:
		b.WriteString(" (default: $GITHUB_REPOSITORY)")
	case in.Overrides != "":
		fmt.Fprintf(b, " (default: -%s)", in.Overrides)
	case in.Kind == Message:
		b.WriteString(" (default: below)")
	case in.Default != "":
		fmt.Fprintf(b, " (default %q)", in.Default)
	}
	b.WriteString("\n")
	b.WriteString(wrap(in.Description, indent, 80))
	if in.Kind == Message {
		b.WriteString(indent + "Default:\n")
		for _, para := range strings.Split(in.Default, "\n") {
			b.WriteString(wrap(para, indent+"  ", 80))
		}
	}
}

// wrap fills text into lines of at most width columns, each prefixed.
func wrap(text, prefix string, width int) string {
	var b strings.Builder
	line := prefix
	for _, word := range strings.Fields(text) {
		if line != prefix && len(line)+1+len(word) > width {
			b.WriteString(line + "\n")
			line = prefix
		}
		if line != prefix {
			line += " "
		}
		line += word
	}
	if line != prefix {
		b.WriteString(line + "\n")
	}
	return b.String()
}
