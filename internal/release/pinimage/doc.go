// Command pinimage points a Docker action's action.yml at a prebuilt image:
// it sets runs.image to docker://NAME@sha256:DIGEST and leaves every other
// byte of the file as it was. The release workflow runs it on the release
// commit, so that a run of a released version pulls the image instead of
// building the Dockerfile; and on the fleet workflow, whose listing step
// runs the image (docker://NAME on main), so that a released workflow names
// the image by digest rather than by a tag that moves:
//
//	go run ./internal/release/pinimage -image ghcr.io/stalepr/stalepr@sha256:<64 hex digits> action.yml .github/workflows/fleet.yml
//
// A file named action.yml (or action.yaml) is an action; any other, a
// workflow.
//
// It is a program rather than a sed line because it must refuse what sed
// would write silently: a digest that is not sha256 and 64 hex digits, a tag
// instead of a digest, an action that is not a Docker action, a runs.image it
// cannot find; and it must not touch the rest of the file (comments, quoting,
// the inputs' defaults). The pinning itself is package release's, which the
// tests of action.yml run too.
package main
