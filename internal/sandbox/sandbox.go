package sandbox

import (
	"fmt"
	"net/http/httptest"
	"path/filepath"

	"github.com/stalepr/stalepr/internal/config"
	"github.com/stalepr/stalepr/internal/event"
	"github.com/stalepr/stalepr/internal/ghapi"
)

// Sandbox is a sample repository served by a fake GitHub; Close it when done.
type Sandbox struct {
	Src   config.Source // the command line's inputs over the sample's; the fake's environment
	Clock ghapi.Clock   // the fake's clock: waits between writes cost no real time
	srv   *httptest.Server
	dir   string // the sample's directory
	repo  string // the sample repository's owner/name
	// happen is Happen's work on the fake GitHub (open.go: release builds
	// carry no fake).
	happen func(ev event.Event, payload []byte) (string, error)
}

// Happen makes the sample what GitHub shows when it delivers ev, whose
// payload is payload: the comment, the review or the push the event
// reports is made at the run's time, by its sender, since GitHub sends the
// event after it happened. It returns the line that says what it made (or
// that the sample is evaluated as it is, for an event it makes nothing
// of); an error when the event's pull request is not in the sample.
func (s *Sandbox) Happen(ev event.Event, payload []byte) (string, error) {
	return s.happen(ev, payload)
}

// MaxSynthetic bounds -sandbox-synthetic: a large repository's queue, in
// a few seconds of this machine's time.
const MaxSynthetic = 50_000

// Web is the web address of the sandbox's links.
const Web = "http://sandbox.invalid"

// Note ends a sandbox run's summary.
const Note = "Sandbox run: nothing on GitHub was read or changed; the links lead to " + Web + ", a name for the fake GitHub, which stopped with the run."

// Banner says, before anything else, that the run is a sandbox's.
func (s *Sandbox) Banner() string {
	return fmt.Sprintf("Sandbox: %s from %s, served by a fake GitHub on this machine; offline, nothing on GitHub is read or changed.",
		s.repo, filepath.Join(s.dir, "repo.json"))
}

// Close stops the fake GitHub.
func (s *Sandbox) Close() { s.srv.Close() }
