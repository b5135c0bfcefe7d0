package main

import "runtime/debug"

// buildVersion is the version -version prints.
func buildVersion() string { return versionOf(version, debug.ReadBuildInfo) }

// versionOf returns the version a release build stamped (-ldflags
// "-X main.version=v1.2.3"), else the module version the go command
// recorded in the binary: `go install github.com/stalepr/stalepr@v1.2.3`
// stamps nothing but records v1.2.3 (and a build in a git checkout records
// a pseudo-version). "dev" when neither is known.
func versionOf(stamped string, readBuildInfo func() (*debug.BuildInfo, bool)) string {
	if stamped != "" && stamped != "dev" {
		return stamped
	}
	if info, ok := readBuildInfo(); ok && info != nil {
		if v := info.Main.Version; v != "" && v != "(devel)" {
			return v
		}
	}
	return "dev"
}
