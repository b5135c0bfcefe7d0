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
	env := map[string]string{EnvToken: "tok"}
	var out bytes.Buffer
	src, err := FromFlags("stalepr", []string{"-repo", "octo/hello", "-debug-only", "-days-before-stale", "14",
		"-stale-pr-message=", "-exempt-pr-labels", "keep, pinned", "-ascending=false"},
		func(k string) string { return env[k] }, &out)
	if err != nil {
		t.Fatalf("%v\n%s", err, &out)
	}
	c, err := Parse(src)
	if err != nil {
		t.Fatal(err)
	}
	if c.Repository() != "octo/hello" || !c.DebugOnly || c.Policy.DaysBeforeStale != 14 || c.StaleMessage != "" ||
		c.Token != "tok" || fmt.Sprint(c.Policy.ExemptLabels) != "[keep pinned]" || c.Ascending ||
		c.Policy.DaysBeforeClose != 30 || c.CloseMessage == "" {
		t.Errorf("got %+v", c)
	}
	if out.Len() != 0 {
		t.Errorf("unexpected output: %s", &out)
	}
}

func TestFromFlagsMistakes(t *testing.T) {
	for _, args := range [][]string{
		{"-no-such-input", "1"},
		{"-repo-token", "secret"}, // the token is never a flag
		{"-debug-only", "true"},   // a bool given alone takes no separate value
	} {
		var out bytes.Buffer
		if _, err := FromFlags("stalepr", args, nil, &out); err == nil {
			t.Errorf("%q: no error", args)
		}
		if !strings.Contains(out.String(), "stalepr -help") || strings.Contains(out.String(), "Inputs:") {
			t.Errorf("%q: want a short hint, got:\n%s", args, &out)
		}
	}
}

func TestFromFlagsBadValueReportedByParse(t *testing.T) {
	src, err := FromFlags("stalepr", []string{"-repo", "o/r", "-debug-only=maybe"}, func(k string) string { return map[string]string{EnvToken: "t"}[k] }, &bytes.Buffer{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Parse(src); err == nil || err.Error() != `input "debug-only": want true or false, got "maybe"` {
		t.Errorf("got %v", err)
	}
}

func TestHelpListsEveryInput(t *testing.T) {
	for _, arg := range []string{"-help", "-h"} {
		var out bytes.Buffer
		_, err := FromFlags("stalepr", []string{arg}, nil, &out)
		if !errors.Is(err, flag.ErrHelp) {
			t.Errorf("%s: err %v, want flag.ErrHelp", arg, err)
		}
		help := out.String()
		for _, in := range Inputs {
			switch in.Kind {
			case Secret:
				if !strings.Contains(help, "  "+in.Name+" ") || !strings.Contains(help, "GITHUB_TOKEN") {
					t.Errorf("help lacks %s", in.Name)
				}
				continue
			case Ignored:
				if !strings.Contains(help, "  -"+in.Name+"\n") {
					t.Errorf("help lacks ignored input %s", in.Name)
				}
				continue
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
