package main

import (
	"runtime/debug"
	"testing"
)

func TestVersionOf(t *testing.T) {
	t.Parallel()
	info := func(v string) func() (*debug.BuildInfo, bool) {
		return func() (*debug.BuildInfo, bool) {
			return &debug.BuildInfo{Main: debug.Module{Path: "github.com/stalepr/stalepr", Version: v}}, true
		}
	}
	none := func() (*debug.BuildInfo, bool) { return nil, false }
	for _, tc := range []struct {
		name, stamped string
		read          func() (*debug.BuildInfo, bool)
		want          string
	}{
		{"release build: the stamp wins", "v1.2.3", info("v0.0.0-20260101000000-abcdef123456"), "v1.2.3"},
		{"go install @v1.4.0", "dev", info("v1.4.0"), "v1.4.0"},
		{"go install @latest of a pre-release", "dev", info("v2.0.0-rc.1"), "v2.0.0-rc.1"},
		{"go build in a checkout", "dev", info("v1.4.1-0.20260101000000-abcdef123456+dirty"), "v1.4.1-0.20260101000000-abcdef123456+dirty"},
		{"go build without VCS information", "dev", info("(devel)"), "dev"},
		{"empty module version", "dev", info(""), "dev"},
		{"no build information", "dev", none, "dev"},
		{"empty stamp", "", info("v1.4.0"), "v1.4.0"},
	} {
		if got := versionOf(tc.stamped, tc.read); got != tc.want {
			t.Errorf("%s: versionOf(%q) = %q, want %q", tc.name, tc.stamped, got, tc.want)
		}
	}
}
