// Package sweep runs stalepr once over a repository: list what can change,
// read detail only where the listing cannot decide, apply the rules, then
// write, in an order that a crash or a concurrent run cannot turn into a
// duplicate notice or a wrong close.
package sweep
