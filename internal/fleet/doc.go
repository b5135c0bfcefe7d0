// Package fleet is an organisation's fleet: .github/workflows/fleet.yml lists
// the repositories a GitHub App installation sees (stalepr
// -list-repositories OWNER, Command) and runs the action once per
// repository as a matrix job. The organisation's inputs arrive in
// STALEPR_FLEET_INPUTS; each repository may override them, or opt out, with
// .github/stalepr.yml (Inputs).
package fleet

const (
	// InputsEnv holds the organisation's inputs as a YAML (or JSON) map of
	// input names to values; set by fleet.yml.
	InputsEnv = "STALEPR_FLEET_INPUTS"
	// RepoFilePath is a repository's own overrides in a fleet run.
	RepoFilePath = ".github/stalepr.yml"
)
