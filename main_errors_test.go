package main

// A run that cannot list says why, with what to do, in one ::error:: line per
// failure class; never a generic hint, never a JSON decoding error.

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/stalepr/stalepr/internal/testenv"

	"github.com/stalepr/stalepr/internal/fakegithub"
)

func TestRunListingFailureSaysWhatToDo(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name  string
		setup func(t *testing.T, w *world, e env) env
		want  []string
	}{
		{"bad credentials", func(t *testing.T, w *world, e env) env {
			w.fake.SetToken("ghs_another")
			return e
		}, []string{"401 Bad credentials", "repo-token"}},
		{"repository not visible", func(t *testing.T, w *world, e env) env {
			e[inputVar("repository")] = "octo/elsewhere"
			return e
		}, []string{"octo/elsewhere does not exist or this token cannot see it"}},
		{"missing permission", func(t *testing.T, w *world, e env) env {
			w.fake.SetFaultHook(func(fakegithub.RequestInfo) *fakegithub.Fault {
				return fakegithub.StatusFault(403, `{"message":"Resource not accessible by integration"}`)
			})
			return e
		}, []string{"Resource not accessible by integration", "`pull-requests: write`"}},
		{"web URL instead of the API", func(t *testing.T, w *world, e env) env {
			web := httptest.NewServer(http.HandlerFunc(func(rw http.ResponseWriter, _ *http.Request) {
				rw.Header().Set("Content-Type", "text/html; charset=utf-8")
				rw.Write([]byte("<!DOCTYPE html><html><body>Sign in to GitHub</body></html>"))
			}))
			t.Cleanup(web.Close)
			e["GITHUB_API_URL"] = web.URL
			return e
		}, []string{"answered an HTML page", "/api/v3", "not the web address"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			w, _ := newWorld(t, false)
			o := runWith(t, tc.setup(t, w, w.env(t)))
			if o.code != 1 {
				t.Fatalf("exit %d, want 1\n%s", o.code, o)
			}
			errs := testenv.ErrorLines(o.stdout)
			if len(errs) != 1 {
				t.Fatalf("%d error annotations, want 1\n%s", len(errs), o)
			}
			for _, s := range tc.want {
				if !strings.Contains(errs[0], s) {
					t.Errorf("error line %q\nwant it to mention %q", errs[0], s)
				}
			}
			// The token appears once, in the mask command the runner consumes.
			log := strings.Replace(o.stdout, "::add-mask::"+testToken+"\n", "", 1) + o.stderr + o.summaryFile
			for _, s := range []string{"invalid character", "Check the token's permissions", tokenSecret, "pull requests left for the next run"} {
				if strings.Contains(log, s) {
					t.Errorf("the log or summary holds %q\n%s", s, o)
				}
			}
		})
	}
}

// A listing refused with a long error (a 422 listing thousands of
// "errors", which go-github puts in its text) gives an annotation of one
// bounded line: the log and the summary cut it, and so does the ::error::.
func TestRunListingFailureAnnotationIsBounded(t *testing.T) {
	t.Parallel()
	w, _ := newWorld(t, false)
	var errs strings.Builder
	for i := 0; i < 5000; i++ {
		if i > 0 {
			errs.WriteString(",")
		}
		errs.WriteString(`{"resource":"Issue","field":"labels","code":"invalid"}`)
	}
	body := `{"message":"Validation Failed","errors":[` + errs.String() + `]}`
	w.fake.SetFaultHook(func(fakegithub.RequestInfo) *fakegithub.Fault { return fakegithub.StatusFault(422, body) })
	o := runWith(t, w.env(t))
	lines := testenv.ErrorLines(o.stdout)
	if o.code != 1 || len(lines) != 1 {
		t.Fatalf("exit %d, %d error annotations; want 1 and 1\n%.2000s", o.code, len(lines), o)
	}
	if n := len([]rune(lines[0])); n > 2000 || !strings.Contains(lines[0], "Validation Failed") {
		t.Errorf("the annotation is %d characters, want at most 2000 and the cause named: %.300s", n, lines[0])
	}
}
