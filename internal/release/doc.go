// Package release holds what the release workflow runs and the tests check
// on a release commit: pinning action.yml's runs.image, and the fleet
// workflow's steps that run the image, to the pushed image by digest
// (command pinimage), and telling a valid image reference from one a
// release must never ship.
package release
