package config

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"go.yaml.in/yaml/v4"

	"github.com/stalepr/stalepr/internal/testenv"
)

var actionYMLPath = filepath.Join("..", "..", "action.yml")

// outputs of the action, in action.yml's order.
var actionOutputs = []struct{ name, description string }{
	{"staled-issues-prs", "JSON array of the pull requests this run marked stale, each {number, title, url} (named as in actions/stale)."},
	{"closed-issues-prs", "JSON array of the pull requests this run closed, each {number, title, url} (named as in actions/stale)."},
	{"unstaled-prs", "JSON array of the pull requests this run un-staled after activity, each {number, title, url}."},
}

// renderActionYML generates action.yml from Inputs.
func renderActionYML() string {
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
	b.WriteString("runs:\n  using: docker\n  image: Dockerfile\n")
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

	// The file must mean what the table says, whatever its layout.
	var a actionFile
	if err := yaml.Unmarshal(got, &a); err != nil {
		t.Fatalf("action.yml: %v", err)
	}
	if a.Name != "stalepr" || a.Author != "stalepr" || a.Description == "" {
		t.Errorf("action.yml: name %q, author %q, description %q", a.Name, a.Author, a.Description)
	}
	if a.Runs.Using != "docker" || a.Runs.Image != "Dockerfile" {
		t.Errorf("action.yml runs: using %q image %q, want docker Dockerfile", a.Runs.Using, a.Runs.Image)
	}
	colors := []string{"white", "black", "yellow", "blue", "green", "orange", "red", "purple", "gray-dark"}
	if a.Branding.Icon == "" || !slices.Contains(colors, a.Branding.Color) {
		t.Errorf("action.yml branding: icon %q color %q", a.Branding.Icon, a.Branding.Color)
	}
	if a.Inputs.Kind != yaml.MappingNode {
		t.Fatal("action.yml: inputs is not a mapping")
	}
	var names []string
	for i := 0; i+1 < len(a.Inputs.Content); i += 2 {
		name := a.Inputs.Content[i].Value
		names = append(names, name)
		var in actionInput
		if err := a.Inputs.Content[i+1].Decode(&in); err != nil {
			t.Errorf("input %s: %v", name, err)
			continue
		}
		def, ok := Lookup(name)
		switch {
		case !ok:
			t.Errorf("action.yml declares input %s, which the table lacks", name)
			continue
		case strings.TrimSpace(in.Description) == "":
			t.Errorf("input %s: no description", name)
		case in.Description != def.Description:
			t.Errorf("input %s: description differs from the table:\n got %q\nwant %q", name, in.Description, def.Description)
		}
		if in.Required == nil || *in.Required {
			t.Errorf("input %s: want required: false", name)
		}
		if in.Default == nil {
			t.Errorf("input %s: no default", name)
		} else if *in.Default != def.YAMLDefault() {
			t.Errorf("input %s: default %q, table says %q", name, *in.Default, def.YAMLDefault())
		}
	}
	var tableNames []string
	for _, in := range Inputs {
		tableNames = append(tableNames, in.Name)
	}
	if !slices.Equal(names, tableNames) {
		t.Errorf("action.yml inputs differ from the table:\n got %v\nwant %v", names, tableNames)
	}
	var outputs []string
	for i := 0; i < len(a.Outputs.Content); i += 2 {
		outputs = append(outputs, a.Outputs.Content[i].Value)
	}
	for _, o := range actionOutputs {
		if !slices.Contains(outputs, o.name) {
			t.Errorf("action.yml lacks output %s", o.name)
		}
	}

	// Only the keys GitHub knows, each input once (names are case-insensitive).
	seen := map[string]bool{}
	for i := 0; i+1 < len(a.Inputs.Content); i += 2 {
		name := strings.ToLower(a.Inputs.Content[i].Value)
		if seen[name] {
			t.Errorf("input %s declared twice", name)
		}
		seen[name] = true
		v := a.Inputs.Content[i+1]
		for j := 0; j+1 < len(v.Content); j += 2 {
			if k := v.Content[j].Value; k != "description" && k != "required" && k != "default" {
				t.Errorf("input %s: unexpected key %q", name, k)
			}
		}
	}

	// And the file is exactly the generated one, so no edit drifts.
	if !bytes.Equal(got, []byte(want)) {
		t.Errorf("action.yml is not the generated file; run go test ./internal/config -run TestActionYML -update")
	}
}
