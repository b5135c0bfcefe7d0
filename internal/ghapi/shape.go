package ghapi

import (
	"fmt"
	"net/url"
	"strconv"

	"github.com/google/go-github/v62/github"
)

// What one answer may hold, besides its bytes (Limits.MaxBody). Decoding
// costs memory per JSON value, not per byte: a 32 MiB page of {} is 16
// million objects, gigabytes once decoded into go-github's structs. GitHub's
// heaviest real pages stay far below these: 100 issues with 100 labels and
// 10 assignees each are about 12,000 objects and arrays and 110,000 values;
// 100 timeline events of review threads with 100 comments each, 80,000
// objects and 700,000 values. At these bounds a page decodes into tens of MB.
const (
	maxContainers = 200_000   // JSON objects and arrays in one answer
	maxValues     = 2_000_000 // JSON values in one answer, counted by their separators
)

// malformedError: an answer GitHub's API never gives (more items than asked
// for, a null item, pages that loop). It fails that read; the same request
// would meet it again, so it is not retried.
type malformedError struct {
	route string
	why   string
}

func (e *malformedError) Error() string {
	return fmt.Sprintf("%s: malformed answer, not read: %s", e.route, e.why)
}

// perPageOf is the per_page a request asked for; 0 when it is no listing.
func perPageOf(u *url.URL) int {
	n, err := strconv.Atoi(u.Query().Get("per_page"))
	if err != nil || n < 0 {
		return 0
	}
	return n
}

// checkShape scans a JSON body without decoding it and tells why it cannot
// be a real answer: too many objects and arrays or values in all, or, for a
// listing asked for perPage items (perPage > 0), more items than that or a
// null item. A listing's items are the elements of the top-level array, or
// of an array member of the top-level object ({"repositories": [...]}).
// Invalid JSON is left to the decoder.
func checkShape(body []byte, perPage int) string {
	var (
		depth, containers, values int
		pageDepth                 int  // depth inside the items' array; 0: not reached, -1: passed
		topObject                 bool // the answer is an object
		expectItem                bool // the next value is an item of the page
		items                     int
		inString, escaped         bool
	)
	for _, b := range body {
		if inString {
			switch {
			case escaped:
				escaped = false
			case b == '\\':
				escaped = true
			case b == '"':
				inString = false
			}
			continue
		}
		if b == ' ' || b == '\t' || b == '\r' || b == '\n' {
			continue
		}
		if expectItem {
			expectItem = false
			if b != ']' {
				items++
				if items > perPage {
					return fmt.Sprintf("more than the %d items asked for", perPage)
				}
				if b == 'n' {
					return fmt.Sprintf("item %d is null", items)
				}
			}
		}
		switch b {
		case '"':
			inString = true
		case '{', '[':
			if depth == 0 && b == '{' {
				topObject = true
			}
			depth++
			containers++
			if containers > maxContainers {
				return fmt.Sprintf("more than %d JSON objects and arrays", maxContainers)
			}
			if b == '[' && perPage > 0 && pageDepth == 0 && (depth == 1 || depth == 2 && topObject) {
				pageDepth, expectItem = depth, true
			}
		case '}', ']':
			if depth == pageDepth && pageDepth > 0 {
				pageDepth = -1
			}
			depth--
		case ',':
			values++
			if values > maxValues {
				return fmt.Sprintf("more than %d JSON values", maxValues)
			}
			if depth == pageDepth && pageDepth > 0 {
				expectItem = true
			}
		}
	}
	return ""
}

// nextPage is the page after page (0 for the first) from resp's Link
// header; 0 after the last. Pages only go forward: a Link to the page itself
// or back would be read for ever, so it fails the read.
func nextPage(resp *github.Response, page int) (int, error) {
	page = max(page, 1)
	if resp.NextPage == 0 || resp.NextPage > page {
		return resp.NextPage, nil
	}
	route := "a listing"
	if resp.Response != nil && resp.Request != nil {
		route = resp.Request.Method + " " + routeOf(resp.Request.URL.Path)
	}
	return 0, &malformedError{route: route, why: fmt.Sprintf("the Link header of page %d points to page %d, read already: the pages loop", page, resp.NextPage)}
}
