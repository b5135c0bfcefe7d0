package config

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"go.yaml.in/yaml/v4"

	"github.com/stalepr/stalepr/internal/release"
	"github.com/stalepr/stalepr/internal/testenv"
)

var actionYMLPath = filepath.Join("..", "..", "action.yml")

// outputs of the action, in action.yml's order.
var actionOutputs = []struct{ name, description string }{
	{"staled-issues-prs", "JSON array of the pull requests this run marked stale, and of those it closed in the run that found them stale (days-before-close: 0), each {number, title, url} (named as in actions/stale)."},
	{"closed-issues-prs", "JSON array of the pull requests this run closed, each {number, title, url} (named as in actions/stale)."},
	{"unstaled-prs", "JSON array of the pull requests this run un-staled after activity, each {number, title, url}."},
	{"wrongly-closed-prs", "JSON array of the numbers of the pull requests the closure audit (audit-closed-days) found closed as stale while they waited on the reviewers or the maintainers, most recently closed first."},
}

// renderActionYML generates action.yml from Inputs, as main has it: the
// action builds its Dockerfile.
func renderActionYML() string { return renderActionYMLImage("Dockerfile") }

// renderActionYMLImage generates action.yml with runs.image image: a
// release commit's is the pinned image (see package release).
func renderActionYMLImage(image string) string {
	var b strings.Builder
	b.WriteString(`# Generated from internal/config/inputs.go: edit the table there, then run
#   go test ./internal/config -run TestActionYML -update
name: stalepr
description: Mark stale pull requests, un-stale them on activity and close them, with the pull request inputs of actions/stale.
author: stalepr
branding:
  icon: git-pull-request
  color: orange
inputs:
`)
	for _, in := range Inputs {
		b.WriteString("  " + in.Name + ":\n")
		b.WriteString("    description: " + yamlScalar(in.Description, "      ") + "\n")
		b.WriteString("    required: false\n")
		b.WriteString("    default: " + yamlScalar(in.YAMLDefault(), "      ") + "\n")
	}
	b.WriteString("outputs:\n")
	for _, o := range actionOutputs {
		b.WriteString("  " + o.name + ":\n")
		b.WriteString("    description: " + yamlScalar(o.description, "      ") + "\n")
	}
	b.WriteString("runs:\n  using: docker\n  image: " + image + "\n")
	return b.String()
}

// yamlScalar writes s single-quoted, or as a literal block when it spans lines.
func yamlScalar(s, indent string) string {
	if !strings.Contains(s, "\n") {
		return "'" + strings.ReplaceAll(s, "'", "''") + "'"
	}
	var b strings.Builder
	b.WriteString("|-")
	for _, line := range strings.Split(s, "\n") {
		b.WriteString("\n")
		if line != "" {
			b.WriteString(indent + line)
		}
	}
	return b.String()
}

type actionFile struct {
	Name        string `yaml:"name"`
	Description string `yaml:"description"`
	Author      string `yaml:"author"`
	Branding    struct {
		Icon  string `yaml:"icon"`
		Color string `yaml:"color"`
	} `yaml:"branding"`
	Inputs  yaml.Node `yaml:"inputs"`
	Outputs yaml.Node `yaml:"outputs"`
	Runs    struct {
		Using string `yaml:"using"`
		Image string `yaml:"image"`
	} `yaml:"runs"`
}

type actionInput struct {
	Description string  `yaml:"description"`
	Required    *bool   `yaml:"required"`
	Default     *string `yaml:"default"`
}

// TestActionYML is serial: with -update it writes action.yml, which other
// tests of the package read.
func TestActionYML(t *testing.T) {
	want := renderActionYML()
	if testenv.Update() {
		if err := os.WriteFile(actionYMLPath, []byte(want), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, err := os.ReadFile(actionYMLPath)
	if err != nil {
		t.Fatalf("%v (generate it: go test ./internal/config -run TestActionYML -update)", err)
	}
	for _, p := range actionYMLProblems(got) {
		t.Error(p)
	}
}

// TestActionYMLOfARelease: the release commit's action.yml, as pinimage
// writes it, passes the same check, so a release passes its own tests; a
// runs.image a release must not ship does not.
func TestActionYMLOfARelease(t *testing.T) {
	t.Parallel()
	const digest = "sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"
	pinned, old, err := release.Pin([]byte(renderActionYML()), "docker://"+release.Image+"@"+digest)
	if err != nil || old != "Dockerfile" {
		t.Fatalf("Pin: replaced %q, %v", old, err)
	}
	if ps := actionYMLProblems(pinned); len(ps) > 0 {
		t.Errorf("the release commit's action.yml fails the check:\n%s", strings.Join(ps, "\n"))
	}
	for _, bad := range []string{
		"docker://" + release.Image + ":v1.2.3",                     // a tag moves
		"docker://ghcr.io/someone/else@" + digest,                   // not the project's image
		"docker://" + release.Image + "@sha256:0123",                // not a digest
		release.Image + "@" + digest,                                // not docker://
		"docker://" + release.Image + ":v1@" + digest,               // tag and digest
		"docker://" + strings.ToUpper(release.Image) + "@" + digest, // not a registry's name
		"Dockerfile.release",
	} {
		if ps := actionYMLProblems([]byte(renderActionYMLImage(bad))); len(ps) == 0 {
			t.Errorf("runs.image %q passes the check", bad)
		}
	}
}

// actionYMLProblems checks an action.yml against the table: what it means,
// key by key, and its bytes, which are the generated file's (with runs.image
// pinned on a release commit).
func actionYMLProblems(got []byte) []string {
	var problems []string
	errorf := func(format string, args ...any) { problems = append(problems, fmt.Sprintf(format, args...)) }

	// The file must mean what the table says, whatever its layout.
	var a actionFile
	if err := yaml.Unmarshal(got, &a); err != nil {
		return []string{fmt.Sprintf("action.yml: %v", err)}
	}
	if a.Name != "stalepr" || a.Author != "stalepr" || a.Description == "" {
		errorf("action.yml: name %q, author %q, description %q", a.Name, a.Author, a.Description)
	}
	if a.Runs.Using != "docker" {
		errorf("action.yml runs: using %q, want docker", a.Runs.Using)
	}
	if err := release.CheckImage(a.Runs.Image); err != nil {
		errorf("action.yml: %v", err)
	}
	colors := []string{"white", "black", "yellow", "blue", "green", "orange", "red", "purple", "gray-dark"}
	if a.Branding.Icon == "" || !slices.Contains(colors, a.Branding.Color) {
		errorf("action.yml branding: icon %q color %q", a.Branding.Icon, a.Branding.Color)
	}
	if a.Inputs.Kind != yaml.MappingNode {
		return append(problems, "action.yml: inputs is not a mapping")
	}
	var names []string
	for i := 0; i+1 < len(a.Inputs.Content); i += 2 {
		name := a.Inputs.Content[i].Value
		names = append(names, name)
		var in actionInput
		if err := a.Inputs.Content[i+1].Decode(&in); err != nil {
			errorf("input %s: %v", name, err)
			continue
		}
		def, ok := Lookup(name)
		switch {
		case !ok:
			errorf("action.yml declares input %s, which the table lacks", name)
			continue
		case strings.TrimSpace(in.Description) == "":
			errorf("input %s: no description", name)
		case in.Description != def.Description:
			errorf("input %s: description differs from the table:\n got %q\nwant %q", name, in.Description, def.Description)
		}
		if in.Required == nil || *in.Required {
			errorf("input %s: want required: false", name)
		}
		if in.Default == nil {
			errorf("input %s: no default", name)
		} else if *in.Default != def.YAMLDefault() {
			errorf("input %s: default %q, table says %q", name, *in.Default, def.YAMLDefault())
		}
	}
	var tableNames []string
	for _, in := range Inputs {
		tableNames = append(tableNames, in.Name)
	}
	if !slices.Equal(names, tableNames) {
		errorf("action.yml inputs differ from the table:\n got %v\nwant %v", names, tableNames)
	}
	var outputs []string
	for i := 0; i < len(a.Outputs.Content); i += 2 {
		outputs = append(outputs, a.Outputs.Content[i].Value)
	}
	for _, o := range actionOutputs {
		if !slices.Contains(outputs, o.name) {
			errorf("action.yml lacks output %s", o.name)
		}
	}

	// Only the keys GitHub knows, each input once (names are case-insensitive).
	seen := map[string]bool{}
	for i := 0; i+1 < len(a.Inputs.Content); i += 2 {
		name := strings.ToLower(a.Inputs.Content[i].Value)
		if seen[name] {
			errorf("input %s declared twice", name)
		}
		seen[name] = true
		v := a.Inputs.Content[i+1]
		for j := 0; j+1 < len(v.Content); j += 2 {
			if k := v.Content[j].Value; k != "description" && k != "required" && k != "default" {
				errorf("input %s: unexpected key %q", name, k)
			}
		}
	}

	// And the file is exactly the generated one, so no edit drifts.
	if !bytes.Equal(got, []byte(renderActionYMLImage(a.Runs.Image))) {
		errorf("action.yml is not the generated file; run go test ./internal/config -run TestActionYML -update")
	}
	return problems
}
