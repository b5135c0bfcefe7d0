// Package ghapi is stalepr's only door to GitHub: GraphQL reads
// (documents decoded once by encoding/json) and REST writes (go-github) on one transport that
// counts, paces, retries and stops, and every answer is converted to the
// lifecycle package's pointer-free types and the sweep's port's.
package ghapi
