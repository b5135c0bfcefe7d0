package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/stalepr/stalepr/internal/release"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// run is the whole program; it returns the exit code (2 for a usage error,
// 1 when a file cannot be rewritten).
func run(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("pinimage", flag.ContinueOnError)
	fs.SetOutput(stderr)
	image := fs.String("image", "", "the image to run, pinned by digest: "+release.Image+"@sha256:<64 hex digits> (docker:// is added)")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: pinimage -image ghcr.io/OWNER/NAME@sha256:<64 hex digits> action.yml [WORKFLOW.yml ...]")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() == 0 || *image == "" {
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
	// Every file is rewritten in memory first: a file refused leaves them
	// all as they were.
	type rewrite struct {
		path, said string
		out        []byte
		mode       os.FileMode
	}
	var done []rewrite
	for _, path := range fs.Args() {
		out, mode, said, err := pinFile(path, ref)
		if err != nil {
			fmt.Fprintln(stderr, "pinimage:", err)
			return 1
		}
		done = append(done, rewrite{path, said, out, mode})
	}
	for _, r := range done {
		if err := os.WriteFile(r.path, r.out, r.mode); err != nil {
			fmt.Fprintln(stderr, "pinimage:", err)
			return 1
		}
		fmt.Fprintln(stdout, r.said)
	}
	return 0
}

// pinFile returns the file at path with the image pinned to ref, its mode,
// and what it changed.
func pinFile(path, ref string) (out []byte, mode os.FileMode, said string, err error) {
	info, err := os.Stat(path)
	if err != nil {
		return nil, 0, "", err
	}
	src, err := os.ReadFile(path)
	if err != nil {
		return nil, 0, "", err
	}
	if base := filepath.Base(path); base == "action.yml" || base == "action.yaml" {
		var old string
		out, old, err = release.Pin(src, ref)
		said = fmt.Sprintf("%s: runs.image is now %s (was %s)", path, ref, old)
	} else {
		var n int
		out, n, err = release.PinWorkflow(src, ref)
		said = fmt.Sprintf("%s: %d steps now use %s", path, n, ref)
	}
	if err != nil {
		return nil, 0, "", fmt.Errorf("%s: %w", path, err)
	}
	return out, info.Mode().Perm(), said, nil
}
