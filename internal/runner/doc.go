// Package runner is how a run talks to what runs it: the Actions runner
// (workflow commands, the outputs and job summary files) or a person at a
// terminal (plain lines), and the exit codes both read. Every command of
// stalepr (the sweep, the fleet's listing) speaks through one IO.
package runner
