package fakegithub

import (
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"
)

// page holds per_page/page parsed like GitHub does: per_page defaults to
// 30 and is capped at 100; bad or small values fall back to defaults.
type page struct{ per, num int }

func pageOf(q url.Values) page {
	p := page{per: 30, num: 1}
	if v, err := strconv.Atoi(q.Get("per_page")); err == nil && v > 0 {
		p.per = min(v, 100)
	}
	if v, err := strconv.Atoi(q.Get("page")); err == nil && v > 0 {
		p.num = v
	}
	return p
}

// bounds returns the slice bounds of the page within total items.
func (p page) bounds(total int) (lo, hi int) {
	lo = min((p.num-1)*p.per, total)
	if p.num > 1 && (p.num-1) > total/p.per+1 {
		lo = total // avoid overflow on absurd pages
	}
	hi = min(lo+p.per, total)
	return lo, hi
}

// link builds GitHub's Link header for total items: prev, next, last,
// first, as GitHub orders them; absolute URLs from the request, keeping
// every query parameter and changing page.
func link(c *call, p page, total int) string {
	last := max((total+p.per-1)/p.per, 1)
	if last == 1 && p.num == 1 {
		return ""
	}
	scheme := "http"
	if c.r.TLS != nil {
		scheme = "https"
	}
	base := scheme + "://" + c.r.Host + c.r.URL.EscapedPath()
	at := func(n int) string {
		q := url.Values{}
		for k, v := range c.r.URL.Query() {
			q[k] = v
		}
		q.Set("page", strconv.Itoa(n))
		return "<" + base + "?" + q.Encode() + ">"
	}
	var parts []string
	if p.num > 1 {
		parts = append(parts, at(p.num-1)+`; rel="prev"`)
	}
	if p.num < last {
		parts = append(parts, at(p.num+1)+`; rel="next"`, at(last)+`; rel="last"`)
	}
	if p.num > 1 {
		parts = append(parts, at(1)+`; rel="first"`)
	}
	return strings.Join(parts, ", ")
}

// pagedMap renders only the requested page of items.
func pagedMap[T, R any](c *call, items []T, render func(T) R) reply {
	p := pageOf(c.q)
	lo, hi := p.bounds(len(items))
	out := make([]R, 0, hi-lo)
	for _, it := range items[lo:hi] {
		out = append(out, render(it))
	}
	rep := ok(out)
	if l := link(c, p, len(items)); l != "" {
		rep.header = http.Header{"Link": {l}}
	}
	return rep
}

// parseSince parses GitHub's ISO 8601 "since": RFC 3339, or a bare date.
func parseSince(v string) (time.Time, bool) {
	if v == "" {
		return time.Time{}, true
	}
	for _, layout := range []string{time.RFC3339Nano, "2006-01-02T15:04:05Z0700", "2006-01-02T15:04:05", "2006-01-02"} {
		if t, err := time.Parse(layout, v); err == nil {
			return t.UTC(), true
		}
	}
	return time.Time{}, false
}

// listCache keeps the last filtered and sorted issue listing, valid while
// the state's version is unchanged: paging through a large repository then
// costs O(per_page) per page, and any write recomputes the listing on the
// next request, as GitHub's offset pagination does.
type listCache struct {
	key     string
	version uint64
	items   []*issueRec
}

type commentCache struct {
	key     string
	version uint64
	items   []commentRef
}

type commentRef struct {
	c    Comment
	isPR bool
}

func (db *store) cachedIssues(key string, build func() []*issueRec) []*issueRec {
	if db.issueCache.items != nil && db.issueCache.key == key && db.issueCache.version == db.version {
		return db.issueCache.items
	}
	items := build()
	if items == nil {
		items = []*issueRec{}
	}
	db.issueCache = listCache{key: key, version: db.version, items: items}
	return items
}

// sortIssues orders by created, updated or comments, ties by number, then
// reverses for desc.
func sortIssues(items []*issueRec, by string, desc bool) {
	cmpTime := func(a, b time.Time) int { return a.Compare(b) }
	slices.SortFunc(items, func(a, b *issueRec) int {
		var r int
		switch by {
		case "updated":
			r = cmpTime(a.UpdatedAt, b.UpdatedAt)
		case "comments", "popularity":
			r = len(a.comments) - len(b.comments)
		default:
			r = cmpTime(a.CreatedAt, b.CreatedAt)
		}
		if r == 0 {
			r = a.Number - b.Number
		}
		if desc {
			r = -r
		}
		return r
	})
}
