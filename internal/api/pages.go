package api

import (
	"errors"
	"fmt"
)

// ErrEndlessPages: a paged read (a listing, a PR's history) whose pages
// keep saying there is more, each with a new cursor, so none points back to
// a page already read. Read on, it would spend the run's whole budget on
// one read; Pages gives it up after a few requests instead, as a failed
// read of that PR or listing.
var ErrEndlessPages = errors.New("GitHub's pages do not end")

// emptyPagesAllowed is how many empty pages in a row that say there is more
// a read takes: GitHub may thin a page out (items the token cannot see),
// but not page after page.
const emptyPagesAllowed = 2

// Pages bounds one paged read. The zero value is ready for its first page.
type Pages struct {
	empty   int // empty pages in a row that said there was more
	counted int // what the pages read so far count toward the limit
}

// Next takes one page: it held items items and counts for counted of the
// read's limit (a page shorter than asked for still counts in full, so a
// server cannot stretch a listing with short pages), and more is whether it
// says there is more. limit is the most that GitHub's totalCount allows the
// pages to count, some slack for items added during the read included; -1
// when unknown. The error wraps ErrEndlessPages and says what to do.
func (p *Pages) Next(items, counted, limit int, more bool) error {
	if !more {
		return nil
	}
	p.counted += counted
	if items == 0 {
		p.empty++
	} else {
		p.empty = 0
	}
	var why string
	switch {
	case p.empty > emptyPagesAllowed:
		why = fmt.Sprintf("%d empty pages in a row, each saying there is more", p.empty)
	case limit >= 0 && p.counted > limit:
		why = fmt.Sprintf("more pages than its totalCount allows (%d items counted, at most %d expected)", p.counted, limit)
	default:
		return nil
	}
	return fmt.Errorf("%w: %s; given up after a few requests rather than spend the run's budget. "+
		"The next run reads it again; if this persists, check https://www.githubstatus.com and any proxy between stalepr and GitHub",
		ErrEndlessPages, why)
}
