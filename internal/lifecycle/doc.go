// Package lifecycle holds the rules of stalepr: given what is known about one
// pull request, the time and the policy, it decides what to do. It performs no
// I/O and knows nothing of GitHub's wire format.
package lifecycle
