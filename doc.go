// Command stalepr marks, un-stales and closes stale pull requests. It runs as
// a GitHub Action (inputs from INPUT_* variables), as a CLI preview (flags
// named like the inputs), or in an offline sandbox against the project's
// fake GitHub (-sandbox DIR). main.go is wiring only:
// env → config → client → sweep → report, and the one exit.
package main
