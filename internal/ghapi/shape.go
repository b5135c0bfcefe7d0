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
	sc := shapeScan{perPage: perPage}
	for _, b := range body {
		if why := sc.next(b); why != "" {
			return why
		}
	}
	return ""
}

// shapeScan is checkShape's state between two bytes.
type shapeScan struct {
	perPage                   int
	depth, containers, values int
	pageDepth                 int  // depth inside the items' array; 0: not reached, -1: passed
	topObject                 bool // the answer is an object
	expectItem                bool // the next value is an item of the page
	items                     int
	inString, escaped         bool
}

// next takes one byte of the body; it returns why the body cannot be a
// real answer, or "".
func (sc *shapeScan) next(b byte) string {
	if sc.inString {
		sc.stringByte(b)
		return ""
	}
	if b == ' ' || b == '\t' || b == '\r' || b == '\n' {
		return ""
	}
	if sc.expectItem {
		if why := sc.item(b); why != "" {
			return why
		}
	}
	switch b {
	case '"':
		sc.inString = true
	case '{', '[':
		return sc.open(b)
	case '}', ']':
		if sc.depth == sc.pageDepth && sc.pageDepth > 0 {
			sc.pageDepth = -1
		}
		sc.depth--
	case ',':
		sc.values++
		if sc.values > maxValues {
			return fmt.Sprintf("more than %d JSON values", maxValues)
		}
		if sc.depth == sc.pageDepth && sc.pageDepth > 0 {
			sc.expectItem = true
		}
	}
	return ""
}

// stringByte takes a byte inside a JSON string.
func (sc *shapeScan) stringByte(b byte) {
	switch {
	case sc.escaped:
		sc.escaped = false
	case b == '\\':
		sc.escaped = true
	case b == '"':
		sc.inString = false
	}
}

// item takes the first byte of a value where the page's next item stands.
func (sc *shapeScan) item(b byte) string {
	sc.expectItem = false
	if b == ']' {
		return ""
	}
	sc.items++
	if sc.items > sc.perPage {
		return fmt.Sprintf("more than the %d items asked for", sc.perPage)
	}
	if b == 'n' {
		return fmt.Sprintf("item %d is null", sc.items)
	}
	return ""
}

// open takes the start of an object or an array; the page's items are the
// top-level array's, or those of an array member of the top-level object.
func (sc *shapeScan) open(b byte) string {
	if sc.depth == 0 && b == '{' {
		sc.topObject = true
	}
	sc.depth++
	sc.containers++
	if sc.containers > maxContainers {
		return fmt.Sprintf("more than %d JSON objects and arrays", maxContainers)
	}
	if b == '[' && sc.perPage > 0 && sc.pageDepth == 0 && (sc.depth == 1 || sc.depth == 2 && sc.topObject) {
		sc.pageDepth, sc.expectItem = sc.depth, true
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
