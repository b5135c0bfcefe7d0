package ghapi

import (
	"bytes"
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

// malformedError is an answer GitHub's API never gives (more items than asked
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
	for i := 0; i < len(body); i++ {
		if b := body[i]; b == '"' {
			// Nothing inside a string counts: jump to its closing quote.
			// Strings are most of a real page's bytes (bodies, URLs, keys),
			// so skipping them is most of this scan's speed.
			if why := sc.item(b); why != "" {
				return why
			}
			i += stringEnd(body[i+1:]) + 1
		} else if why := sc.step(b); why != "" {
			return why
		}
	}
	return ""
}

// stringEnd is the index in s, the bytes after a string's opening quote,
// of its closing quote: the first quote after an even number of
// backslashes; len(s) when the string is not closed.
func stringEnd(s []byte) int {
	for from := 0; ; {
		q := bytes.IndexByte(s[from:], '"')
		if q < 0 {
			return len(s)
		}
		q += from
		escapes := 0
		for j := q - 1; j >= from && s[j] == '\\'; j-- {
			escapes++
		}
		if escapes%2 == 0 {
			return q
		}
		from = q + 1 // an escaped quote, \"
	}
}

// shapeScan is checkShape's state between the bytes outside strings.
type shapeScan struct {
	perPage                   int
	depth, containers, values int
	pageDepth                 int  // depth inside the items' array; 0: not reached, -1: passed
	topObject                 bool // the answer is an object
	expectItem                bool // the next value is an item of the page
	items                     int
}

// step takes one byte outside strings.
func (sc *shapeScan) step(b byte) string {
	if b == ' ' || b == '\t' || b == '\r' || b == '\n' {
		return ""
	}
	if why := sc.item(b); why != "" {
		return why
	}
	switch b {
	case '{', '[':
		return sc.open(b)
	case '}', ']':
		if sc.inPage() {
			sc.pageDepth = -1
		}
		sc.depth--
	case ',':
		sc.values++
		if sc.values > maxValues {
			return fmt.Sprintf("more than %d JSON values", maxValues)
		}
		sc.expectItem = sc.inPage()
	}
	return ""
}

// item counts the value starting at b when it is an item of the page.
func (sc *shapeScan) item(b byte) string {
	if !sc.expectItem {
		return ""
	}
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

// inPage reports whether the scan is at the level of the page's items.
func (sc *shapeScan) inPage() bool { return sc.pageDepth > 0 && sc.depth == sc.pageDepth }

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
