package ghapi_test

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/stalepr/stalepr/internal/fakegithub"
)

// TestBranchHead: the commit a branch points at, through the client's
// transport (counted as any read); a branch that does not exist answers
// 404, which is no error; a name with slashes and characters a path must
// escape is sent one escaped segment per "/".
func TestBranchHead(t *testing.T) {
	t.Parallel()
	fake := newFake()
	n := fake.AddPR(fakegithub.Issue{Title: "Fix", User: fakegithub.Person("alice"), HeadRef: "fix/issue#12?",
		CreatedAt: t0.Add(-48 * time.Hour), UpdatedAt: t0.Add(-24 * time.Hour)})
	fake.AddBranch("release/1.x")
	pushed := fake.PushBranch("release/1.x", t0.Add(-time.Hour))
	c := serve(t, fake, "/api/v3")
	ctx := context.Background()

	for _, tc := range []struct {
		branch, sha string
		exists      bool
		path        string
	}{
		{"fix/issue#12?", fake.MustIssue(n).HeadSHA, true, "/api/v3/repos/octo-org/widgets/git/ref/heads/fix/issue%2312%3F"},
		{"release/1.x", pushed, true, "/api/v3/repos/octo-org/widgets/git/ref/heads/release/1.x"},
		{"fix", "", false, "/api/v3/repos/octo-org/widgets/git/ref/heads/fix"}, // a name that only begins one
		{"gone", "", false, "/api/v3/repos/octo-org/widgets/git/ref/heads/gone"},
	} {
		fake.Reset()
		before := c.Usage().Requests
		sha, exists, err := c.BranchHead(ctx, tc.branch)
		if err != nil || sha != tc.sha || exists != tc.exists {
			t.Errorf("BranchHead(%q) = %q, %v, %v; want %q, %v, no error", tc.branch, sha, exists, err, tc.sha, tc.exists)
		}
		if got := c.Usage().Requests - before; got != 1 {
			t.Errorf("BranchHead(%q) counted %d requests, want 1", tc.branch, got)
		}
		var paths []string
		for _, r := range fake.Requests() {
			paths = append(paths, r.Path)
			if r.Route != "GET /repos/{owner}/{repo}/git/ref/{ref}" {
				t.Errorf("BranchHead(%q) sent %s", tc.branch, r.Route)
			}
		}
		if !slices.Equal(paths, []string{tc.path}) {
			t.Errorf("BranchHead(%q) sent %v, want %s", tc.branch, paths, tc.path)
		}
	}

	// Deleted, it is gone for the read too.
	if err := c.DeleteBranch(ctx, "release/1.x"); err != nil {
		t.Fatal(err)
	}
	if sha, exists, err := c.BranchHead(ctx, "release/1.x"); err != nil || exists || sha != "" {
		t.Errorf("BranchHead after the deletion = %q, %v, %v; want gone", sha, exists, err)
	}
}
