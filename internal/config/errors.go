package config

import (
	"fmt"
	"strings"
)

// InputError is one bad input, or one bad environment variable when Env is
// true. Msg never holds the token.
type InputError struct {
	Name string // input name (days-before-stale), or variable name (GITHUB_API_URL) when Env
	Env  bool
	Msg  string // what is wrong: want ..., got "..."
}

func (e *InputError) Error() string {
	if e.Env {
		return "environment variable " + e.Name + ": " + e.Msg
	}
	return fmt.Sprintf("input %q: %s", e.Name, e.Msg)
}

// Errors is every problem Parse found, in the order of the table Inputs
// (environment variables last). Print one annotation per element.
type Errors []*InputError

// Error joins the problems, one a line.
func (es Errors) Error() string {
	lines := make([]string, len(es))
	for i, e := range es {
		lines[i] = e.Error()
	}
	return strings.Join(lines, "\n")
}

// Unwrap lets errors.As find each *InputError.
func (es Errors) Unwrap() []error {
	out := make([]error, len(es))
	for i, e := range es {
		out[i] = e
	}
	return out
}
