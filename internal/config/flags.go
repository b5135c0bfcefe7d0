package config

import (
	"errors"
	"flag"
	"fmt"
	"io"
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

// FromFlags parses the CLI's arguments (without the program name) into a
// Source for Parse. Every input is a flag of the same name, a string checked
// by Parse; boolean inputs may be given alone (-debug-only), and -repo is
// short for -repository. The token is read from env("GITHUB_TOKEN") only, so
// it never shows in a process listing; GITHUB_REPOSITORY and GITHUB_API_URL
// are read from env too.
//
// -help (or -h) writes Usage to out and returns flag.ErrHelp. Other mistakes
// are written to out with a hint and returned.
func FromFlags(program string, args []string, env func(string) string, out io.Writer) (Source, error) {
	fs := flag.NewFlagSet(program, flag.ContinueOnError)
	fs.SetOutput(out)
	fs.Usage = func() {} // flag calls it for -help too: the hint or the full text is printed below
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
		if errors.Is(err, flag.ErrHelp) {
			Usage(out, program)
		} else {
			fmt.Fprintf(out, "Run %s -help to list the inputs.\n", program)
		}
		return Source{}, err
	}
	if fs.NArg() > 0 {
		err := fmt.Errorf("unexpected argument %q: every input is a flag, such as -days-before-stale 90", fs.Arg(0))
		fmt.Fprintf(out, "%v\nRun %s -help to list the inputs.\n", err, program)
		return Source{}, err
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

// Usage writes the CLI's help: every input with its kind, default and
// description, from the table Inputs.
func Usage(w io.Writer, program string) {
	var b strings.Builder
	fmt.Fprintf(&b, "Usage: %s [-input value ...]\n\n", program)
	b.WriteString(wrap("Sweeps the open pull requests of one repository once, as the action does. "+
		"Every input of the action is a flag of the same name; a boolean may be given alone (-debug-only). "+
		"-repo is short for -repository. The token is read from the GITHUB_TOKEN environment variable, "+
		"an Enterprise Server's API URL from GITHUB_API_URL.", "", 80))
	b.WriteString("\nOther flags:\n  -sandbox DIR\n" + wrap("Run against the project's fake GitHub loaded with the sample in DIR (DIR/repo.json, and DIR/inputs.json for inputs), offline, e.g. -sandbox testdata/sandbox.", "        ", 80) +
		"  -version\n        Print the version and exit.\n")
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
