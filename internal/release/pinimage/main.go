// Command pinimage points a Docker action's action.yml at a prebuilt image:
// it sets runs.image to docker://NAME@sha256:DIGEST and leaves every other
// byte of the file as it was. The release workflow runs it on the release
// commit, so that a run of a released version pulls the image instead of
// building the Dockerfile:
//
//	go run ./internal/release/pinimage -image ghcr.io/stalepr/stalepr@sha256:<64 hex digits> action.yml
//
// It is a program rather than a sed line because it must refuse what sed
// would write silently: a digest that is not sha256 and 64 hex digits, a tag
// instead of a digest, an action that is not a Docker action, a runs.image it
// cannot find; and it must not touch the rest of the file (comments, quoting,
// the inputs' defaults). The pinning itself is package release's, which the
// tests of action.yml run too.
package main

import (
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/stalepr/stalepr/internal/release"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// run is the whole program; it returns the exit code (2 for a usage error,
// 1 when the file cannot be rewritten).
func run(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("pinimage", flag.ContinueOnError)
	fs.SetOutput(stderr)
	image := fs.String("image", "", "the image to run, pinned by digest: "+release.Image+"@sha256:<64 hex digits> (docker:// is added)")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: pinimage -image ghcr.io/OWNER/NAME@sha256:<64 hex digits> action.yml")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() != 1 || *image == "" {
		fs.Usage()
		return 2
	}
	ref, err := release.ImageRef(*image)
	if err == nil {
		// Only the project's own image: the tests of action.yml accept no
		// other, so a release commit pinning another would fail them.
		err = release.CheckImage(ref)
	}
	if err != nil {
		fmt.Fprintln(stderr, "pinimage:", err)
		return 2
	}
	path := fs.Arg(0)
	info, err := os.Stat(path)
	if err != nil {
		fmt.Fprintln(stderr, "pinimage:", err)
		return 1
	}
	src, err := os.ReadFile(path)
	if err != nil {
		fmt.Fprintln(stderr, "pinimage:", err)
		return 1
	}
	out, old, err := release.Pin(src, ref)
	if err != nil {
		fmt.Fprintf(stderr, "pinimage: %s: %v\n", path, err)
		return 1
	}
	if err := os.WriteFile(path, out, info.Mode().Perm()); err != nil {
		fmt.Fprintln(stderr, "pinimage:", err)
		return 1
	}
	fmt.Fprintf(stdout, "%s: runs.image is now %s (was %s)\n", path, ref, old)
	return 0
}
