// Package sandbox is an offline run's world: a sample repository in a
// directory, served by the project's fake GitHub on a local port (stalepr
// -sandbox DIR). Everything else in a run is the same as for a real
// repository.
package sandbox
