package sweep_test

import (
	"context"
	"errors"
	"fmt"
	"go/parser"
	gotoken "go/token"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stalepr/stalepr/internal/sweep"
)

// An adapter's error means a stop when errors.Is finds a Stop in it: the
// value itself, wrapped, or a *StopError carrying the adapter's own error.
func TestStopIsFoundThroughWrapping(t *testing.T) {
	t.Parallel()
	own := errors.New("the adapter's own rate-limit error")
	for _, tc := range []struct {
		name string
		err  error
		stop bool
		is   error // a value errors.Is must find; nil: none
	}{
		{"a stop value", sweep.Budget, true, sweep.Budget},
		{"wrapped", fmt.Errorf("list pull requests: %w", sweep.Deadline), true, sweep.Deadline},
		{"an adapter's error carrying a stop", fmt.Errorf("op: %w", &sweep.StopError{Reason: sweep.RateLimit, Err: own}), true, sweep.RateLimit},
		{"cancelled", fmt.Errorf("op: %w", context.Canceled), true, context.Canceled},
		{"an attempt's own timeout", fmt.Errorf("op: %w", context.DeadlineExceeded), false, nil},
		{"another error", errors.New("GitHub answered 500"), false, nil},
	} {
		if got := sweep.IsStop(tc.err); got != tc.stop {
			t.Errorf("%s: IsStop = %v, want %v", tc.name, got, tc.stop)
		}
		if tc.is != nil && !errors.Is(tc.err, tc.is) {
			t.Errorf("%s: errors.Is(%v, %v) = false", tc.name, tc.err, tc.is)
		}
	}
	carried := &sweep.StopError{Reason: sweep.Secondary, Err: own}
	if carried.Error() != own.Error() || !errors.Is(carried, own) || errors.Is(carried, sweep.RateLimit) {
		t.Errorf("StopError %q: want the carried error's text, errors.Is finding it and only its own reason", carried)
	}
}

// The sweep owns its port: neither it, nor the report that words its
// result, nor the dashboard step imports the HTTP adapter (their tests may,
// for the HTTP fake).
func TestPortPackagesDoNotImportGhapi(t *testing.T) {
	t.Parallel()
	for _, dir := range []string{".", "../report", "../dashboard"} {
		files, err := filepath.Glob(filepath.Join(dir, "*.go"))
		if err != nil || len(files) == 0 {
			t.Fatalf("%s: no Go files (%v)", dir, err)
		}
		for _, f := range files {
			if strings.HasSuffix(f, "_test.go") {
				continue
			}
			ast, err := parser.ParseFile(gotoken.NewFileSet(), f, nil, parser.ImportsOnly)
			if err != nil {
				t.Fatal(err)
			}
			for _, im := range ast.Imports {
				if path, _ := strconv.Unquote(im.Path.Value); strings.HasSuffix(path, "/internal/ghapi") {
					t.Errorf("%s imports %s: speak the port's types and Stop instead", f, path)
				}
			}
		}
	}
}
