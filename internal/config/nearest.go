package config

// Nearest is the candidate nearest to name in spelling (days-befor-stale:
// days-before-stale), for a "did you mean"; "" when none is near enough to
// be a misspelling (more than a quarter of the name, at least 2, apart).
func Nearest(name string, candidates []string) string {
	best, bestDist := "", max(2, len(name)/4)+1
	for _, c := range candidates {
		if d := editDistance(name, c); d < bestDist {
			best, bestDist = c, d
		}
	}
	return best
}

// editDistance is the Levenshtein distance of a and b, in bytes (input and
// flag names are ASCII).
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur := make([]int, len(b)+1)
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev = cur
	}
	return prev[len(b)]
}
