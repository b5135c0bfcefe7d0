package config

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"strings"
	"testing"
)

func TestFromFlags(t *testing.T) {
	t.Parallel()
	env := map[string]string{EnvToken: "tok"}
	src, err := FromFlags(flag.NewFlagSet("stalepr", flag.ContinueOnError), []string{"-repo", "octo/hello", "-debug-only", "-days-before-stale", "14",
		"-stale-pr-message=", "-exempt-pr-labels", "keep, pinned", "-ascending=false"},
		func(k string) string { return env[k] })
	if err != nil {
		t.Fatal(err)
	}
	c, err := Parse(src)
	if err != nil {
		t.Fatal(err)
	}
	if c.Repository() != "octo/hello" || !c.DebugOnly || c.Policy.DaysBeforeStale != 14 || c.StaleMessage != "" ||
		c.Token != "tok" || fmt.Sprint(c.Policy.ExemptLabels) != "[keep pinned]" ||
		c.Policy.DaysBeforeClose != 30 || c.CloseMessage == "" {
		t.Errorf("got %+v", c)
	}
}

// TestFromFlagsOneFlagSet: the caller's own flags and the inputs are parsed
// together, so a flag's value that looks like a flag stays a value.
func TestFromFlagsOneFlagSet(t *testing.T) {
	t.Parallel()
	fs := flag.NewFlagSet("stalepr", flag.ContinueOnError)
	version := fs.Bool("version", false, "Print the version and exit.")
	src, err := FromFlags(fs, []string{"-repo", "o/r", "-stale-pr-label", "-version"}, func(k string) string { return map[string]string{EnvToken: "t"}[k] })
	if err != nil {
		t.Fatal(err)
	}
	if *version {
		t.Error("-version was taken as a flag, but it is the value of -stale-pr-label")
	}
	if v, _ := src.Input("stale-pr-label"); v != "-version" {
		t.Errorf("stale-pr-label = %q, want -version", v)
	}
	if _, err := FromFlags(flag.NewFlagSet("stalepr", flag.ContinueOnError), []string{"-repo", "o/r", "-version"}, nil); err == nil {
		t.Error("-version accepted without being defined by the caller")
	}
}

func TestFromFlagsMistakes(t *testing.T) {
	t.Parallel()
	for _, args := range [][]string{
		{"-no-such-input", "1"},
		{"-repo-token", "secret"}, // the token is never a flag
		{"-debug-only", "true"},   // a bool given alone takes no separate value
	} {
		fs := flag.NewFlagSet("stalepr", flag.ContinueOnError)
		var out bytes.Buffer
		fs.SetOutput(&out)
		if _, err := FromFlags(fs, args, nil); err == nil {
			t.Errorf("%q: no error", args)
		}
		if out.Len() != 0 {
			t.Errorf("%q: FromFlags printed %q; the caller reports errors", args, &out)
		}
	}
}

func TestFromFlagsBadValueReportedByParse(t *testing.T) {
	t.Parallel()
	src, err := FromFlags(flag.NewFlagSet("stalepr", flag.ContinueOnError), []string{"-repo", "o/r", "-debug-only=maybe"}, func(k string) string { return map[string]string{EnvToken: "t"}[k] })
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Parse(src); err == nil || err.Error() != `input "debug-only": want true or false, got "maybe"` {
		t.Errorf("got %v", err)
	}
}

func TestHelpListsEveryInput(t *testing.T) {
	t.Parallel()
	for _, arg := range []string{"-help", "-h"} {
		fs := flag.NewFlagSet("stalepr", flag.ContinueOnError)
		fs.String("sandbox", "", "Run offline against the sample in `DIR`.")
		_, err := FromFlags(fs, []string{arg}, nil)
		if !errors.Is(err, flag.ErrHelp) {
			t.Errorf("%s: err %v, want flag.ErrHelp", arg, err)
		}
		var out bytes.Buffer
		Usage(&out, "stalepr", fs)
		help := out.String()
		if !strings.Contains(help, "Other flags:\n  -sandbox DIR\n        Run offline") {
			t.Errorf("help does not list the caller's own flag -sandbox:\n%s", help)
		}
		for _, in := range Inputs {
			checkHelpListsInput(t, help, in)
		}
		for _, line := range strings.Split(help, "\n") {
			if len(line) > 80 {
				t.Errorf("help line longer than 80 columns: %q", line)
			}
		}
		if !strings.Contains(help, "-repo is short for -repository") {
			t.Errorf("help does not mention -repo")
		}
	}
}

// checkHelpListsInput checks that help lists in: its flag (a secret by its
// name and GITHUB_TOKEN), its default and the start of its description.
func checkHelpListsInput(t *testing.T, help string, in Input) {
	t.Helper()
	switch in.Kind {
	case Secret:
		if !strings.Contains(help, "  "+in.Name+" ") || !strings.Contains(help, "GITHUB_TOKEN") {
			t.Errorf("help lacks %s", in.Name)
		}
		return
	case Ignored:
		if !strings.Contains(help, "  -"+in.Name+"\n") {
			t.Errorf("help lacks ignored input %s", in.Name)
		}
		return
	}
	if !strings.Contains(help, "  -"+in.Name+" ") && !strings.Contains(help, "  -"+in.Name+"\n") {
		t.Errorf("help lacks -%s", in.Name)
	}
	if in.Kind == Message {
		if !strings.Contains(strings.Join(strings.Fields(help), " "), strings.Join(strings.Fields(in.Default), " ")) {
			t.Errorf("help lacks the default of %s", in.Name)
		}
	} else if in.Default != "" && !strings.Contains(help, fmt.Sprintf("(default %q)", in.Default)) {
		t.Errorf("help lacks the default of %s", in.Name)
	}
	if first := strings.Fields(in.Description)[0]; !strings.Contains(help, first) {
		t.Errorf("help lacks the description of %s", in.Name)
	}
}
