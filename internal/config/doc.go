// Package config turns the action's inputs into a validated Config. It owns
// every input's name, default and description (action.yml and docs/inputs.md
// are kept equal to this table by tests) and reports all bad inputs at once,
// before any request is made.
package config
