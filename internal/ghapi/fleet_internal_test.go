package ghapi

import (
	"context"
	"errors"
	"net/http"
	"testing"
	"time"

	"github.com/stalepr/stalepr/internal/fakegithub"
)

func TestListRepositoriesNeedsInstallationToken(t *testing.T) {
	t.Parallel()
	srv, _ := script(t, status(http.StatusForbidden, map[string]string{"Content-Type": "application/json"},
		`{"message":"You must authenticate with an installation access token in order to list repositories for an installation.","documentation_url":"https://docs.github.com/rest","status":"403"}`))
	c, err := New(Options{APIURL: srv.URL, Clock: fakegithub.NewClock(time.Time{})})
	if err != nil {
		t.Fatal(err)
	}
	_, err = FleetOf(c).ListRepositories(context.Background(), "octo-org", RepoListOptions{})
	if !errors.Is(err, errNotInstallation) {
		t.Errorf("err = %v, want ErrNotInstallation", err)
	}
}
