package config

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"sort"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v4"
)

// A fleet's layers (the organisation's inputs, a repository's
// .github/stalepr.yml) and a sandbox's inputs.json are maps of input names
// to values, laid over a Source's Input one above the other.

// FirstOf looks an input up in each lookup in turn: the first that has it
// wins. A nil lookup has nothing.
func FirstOf(lookups ...func(string) (string, bool)) func(string) (string, bool) {
	return func(name string) (string, bool) {
		for _, l := range lookups {
			if l == nil {
				continue
			}
			if v, ok := l(name); ok {
				return v, true
			}
		}
		return "", false
	}
}

// InputMap looks inputs up in m.
func InputMap(m map[string]string) func(string) (string, bool) {
	return func(name string) (string, bool) { v, ok := m[name]; return v, ok }
}

// ParseOverrides reads a flat YAML (or JSON) map of input names to values,
// in one YAML document: a second one (after ---) is refused, never ignored,
// since it may hold an opt-out. Each value is taken as written (an unquoted
// 2024-01-02 is the text 2024-01-02, not a YAML timestamp); lists may be
// written as YAML sequences; null is an empty value (for a message: no
// comment). repo-token and repository cannot be overridden: a repository's
// file must not point the organisation's token elsewhere. enabled is allowed
// only in a repository's file (allowEnabled).
func ParseOverrides(data []byte, allowEnabled bool) (map[string]string, bool, error) {
	root, err := overridesMap(data)
	switch {
	case err != nil:
		return nil, false, err
	case root == nil:
		return map[string]string{}, true, nil // an empty file, or only comments
	}
	out, enabled, problems := overrideValues(root, allowEnabled)
	if len(problems) > 0 {
		sort.Strings(problems)
		return nil, false, errors.New(strings.Join(problems, "; "))
	}
	return out, enabled, nil
}

// overridesMap is the map of a file's one YAML document; nil when the file
// is empty or holds nothing but comments.
func overridesMap(data []byte) (*yaml.Node, error) {
	const want = "want a YAML map of input names to values"
	dec := yaml.NewDecoder(bytes.NewReader(data))
	var doc yaml.Node
	if err := dec.Decode(&doc); errors.Is(err, io.EOF) {
		return nil, nil
	} else if err != nil {
		return nil, fmt.Errorf("%s: %w", want, err)
	}
	var extra yaml.Node
	if err := dec.Decode(&extra); !errors.Is(err, io.EOF) {
		return nil, errors.New("holds more than one YAML document (a line ---): put every input in one map, as the README shows")
	}
	root := &doc
	if root.Kind == yaml.DocumentNode && len(root.Content) == 1 {
		root = root.Content[0]
	}
	if root.Kind == yaml.ScalarNode && root.Tag == "!!null" {
		return nil, nil
	}
	if root.Kind != yaml.MappingNode {
		return nil, errors.New(want + ", got " + kindOf(root))
	}
	return root, nil
}

// overrideValues reads the inputs of a file's map, and every problem with
// them: all are reported at once, so one fix of the file is enough.
func overrideValues(root *yaml.Node, allowEnabled bool) (out map[string]string, enabled bool, problems []string) {
	enabled = true
	out = map[string]string{}
	seen := map[string]bool{}
	for i := 0; i+1 < len(root.Content); i += 2 {
		k := root.Content[i].Value
		if seen[k] {
			problems = append(problems, k+": given twice")
			continue
		}
		seen[k] = true
		v, err := scalar(root.Content[i+1])
		if err != nil {
			problems = append(problems, fmt.Sprintf("%s: %v", k, err))
			continue
		}
		switch _, known := Lookup(k); {
		case k == "enabled" && allowEnabled:
			b, err := strconv.ParseBool(v)
			if err != nil || (v != "true" && v != "false") {
				problems = append(problems, fmt.Sprintf("enabled: want true or false, got %q", v))
			}
			enabled = b
		case k == InputRepoToken || k == InputRepository:
			problems = append(problems, fmt.Sprintf("%s cannot be set here: the fleet workflow sets it", k))
		case !known:
			// Refused, near an input or not: the file is stalepr's alone.
			problems = append(problems, unknownKey(k))
		default:
			out[k] = v
		}
	}
	return out, enabled, problems
}

// scalar is a value as written: a scalar's text, or a sequence of scalars
// joined with commas as a list input takes them.
func scalar(n *yaml.Node) (string, error) {
	switch n.Kind {
	case yaml.AliasNode:
		return scalar(n.Alias)
	case yaml.ScalarNode:
		if n.Tag == "!!null" {
			return "", nil
		}
		return n.Value, nil
	case yaml.SequenceNode:
		items := make([]string, 0, len(n.Content))
		for _, it := range n.Content {
			if it.Kind != yaml.ScalarNode {
				return "", errors.New("want a value or a list of values")
			}
			s, _ := scalar(it)
			items = append(items, s)
		}
		return listValue(items), nil
	}
	return "", errors.New("want a value or a list of values, not a map")
}

// unknownKey says what is wrong with the key k of a file, which is no
// input.
func unknownKey(k string) string {
	switch name := strings.ToLower(k); {
	case isDryRun(name):
		return fmt.Sprintf("%q is not an input of stalepr, whose dry run is debug-only", k)
	case nearestInput(name) != "":
		return fmt.Sprintf("%q is not an input of stalepr; did you mean %s?", k, nearestInput(name))
	}
	return fmt.Sprintf("%q is not an input of stalepr (see stalepr's docs/inputs.md)", k)
}

// listValue writes a YAML sequence's items as a list input reads them
// (SplitList): joined with commas, or, when that would read otherwise (an
// item holding a comma, a lone [WIP]), as a flow list of quoted items.
func listValue(items []string) string {
	joined := strings.Join(items, ",")
	if back, err := SplitList(joined); err == nil && slices.Equal(back, items) {
		return joined
	}
	b, _ := json.Marshal(items) // JSON's array is a YAML flow list
	return string(b)
}

// kindOf names what a YAML node holds, for an error.
func kindOf(n *yaml.Node) string {
	switch n.Kind {
	case yaml.SequenceNode:
		return "a list"
	case yaml.ScalarNode:
		return "a single value"
	}
	return "something else"
}
