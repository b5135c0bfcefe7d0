package ghapi_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/stalepr/stalepr/internal/fakegithub"
	"github.com/stalepr/stalepr/internal/ghapi"
)

func TestListRepositories(t *testing.T) {
	t.Parallel()
	fake := newFake() // its own repository, octo-org/widgets, comes first
	fake.AddInstalledRepo(
		fakegithub.InstalledRepo{Name: "old", Archived: true},
		fakegithub.InstalledRepo{Name: "upstream-copy", Fork: true},
		fakegithub.InstalledRepo{Name: "secret", Private: true},
	)
	for i := range 120 {
		fake.AddInstalledRepo(fakegithub.InstalledRepo{Name: fmt.Sprintf("r%03d", i)})
	}
	c := serve(t, fake, "/api/v3")
	ctx := context.Background()

	got, err := ghapi.FleetOf(c).ListRepositories(ctx, "OCTO-ORG", ghapi.RepoListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 122 || got[0] != "octo-org/widgets" || got[1] != "octo-org/secret" || got[121] != "octo-org/r119" {
		t.Errorf("got %d repositories %v..., want 122: widgets, secret and r000..r119, archived and forks left out", len(got), got[:min(3, len(got))])
	}
	if slices.Contains(got, "octo-org/old") || slices.Contains(got, "octo-org/upstream-copy") {
		t.Error("archived or forked repository listed without being asked")
	}
	if pages := fake.CountBy()["GET /installation/repositories"]; pages != 2 {
		t.Errorf("%d requests for 124 repositories, want 2 pages of 100", pages)
	}

	all, err := ghapi.FleetOf(c).ListRepositories(ctx, "octo-org", ghapi.RepoListOptions{IncludeArchived: true, IncludeForks: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(all) != 124 || !slices.Contains(all, "octo-org/old") || !slices.Contains(all, "octo-org/upstream-copy") {
		t.Errorf("with archived and forks: %d repositories, want 124", len(all))
	}

	other, err := ghapi.FleetOf(c).ListRepositories(ctx, "someone-else", ghapi.RepoListOptions{})
	if err != nil || len(other) != 0 {
		t.Errorf("another owner: %v, %v; want none", other, err)
	}
}

func TestRepoFile(t *testing.T) {
	t.Parallel()
	fake := newFake()
	content := "# stalepr overrides\ndays-before-stale: 30\nstale-pr-message: |\n  " + strings.Repeat("long line ", 20) + "\n"
	fake.SetFile(".github/stalepr.yml", []byte(content))
	c := serve(t, fake, "/api/v3")
	ctx := context.Background()

	got, found, err := ghapi.FleetOf(c).RepoFile(ctx, ".github/stalepr.yml")
	if err != nil || !found || string(got) != content {
		t.Fatalf("RepoFile = %q, %v, %v; want the file", got, found, err)
	}
	got, found, err = ghapi.FleetOf(c).RepoFile(ctx, ".github/absent.yml")
	if err != nil || found || got != nil {
		t.Errorf("absent file: %q, %v, %v; want not found and no error", got, found, err)
	}
	if n := fake.Count(); n != 2 {
		t.Errorf("%d requests for two reads, want 2", n)
	}
	if by := c.Usage().ByRoute["GET /repos/{owner}/{repo}/contents/{path}"]; by != 2 {
		t.Errorf("usage by route: %v", c.Usage().ByRoute)
	}
}
