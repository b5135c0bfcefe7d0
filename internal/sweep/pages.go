package sweep

import (
	"context"
	"fmt"

	"github.com/stalepr/stalepr/internal/api"
	"github.com/stalepr/stalepr/internal/lifecycle"
)

func everyPage(Page) bool { return true }

// lister reads one page of a listing: the issue listing (label filter) or
// the pulls listing (head commits, no issues).
type lister func(ctx context.Context, q Query, page int) ([]lifecycle.PR, Page, error)

// listUntil pages through a listing of the issue listing (closed PRs,
// label hygiene); more decides after each page whether the next is worth
// reading. A PR met twice (pages shift when something is updated during the
// listing) is passed on once, and a Link header that points back to a page
// already read ends the listing.
func listUntil(ctx context.Context, log Logger, fetch lister, q Query, seen map[int]bool, each func(lifecycle.PR), more func(Page) bool) error {
	read := map[int]bool{}
	for page := 1; page != 0; {
		read[page] = true
		prs, pg, err := fetch(ctx, q, page)
		if err != nil {
			return err
		}
		for _, pr := range prs {
			if seen[pr.Number] {
				continue
			}
			seen[pr.Number] = true
			each(pr)
		}
		if !more(pg) {
			return nil
		}
		if read[pg.Next] {
			log.Printf("GitHub's listing links back to page %d, read already: the listing ends here", pg.Next)
			return nil
		}
		page = pg.Next
	}
	return nil
}

// bound takes a cursor listing's page of n PRs into p (api.Pages), which
// fails the listing (what it is) when its pages do not end. The pages may
// count its totalCount, and a tenth and a page more for the PRs listed
// twice or opened while it is read (keyset pages list a PR updated
// meanwhile again). A cursor already read is the listing's loop check's
// (read: the cursors read so far), which ends it keeping what it read.
func bound(p *api.Pages, n int, pg Page, read map[string]bool, what string) error {
	limit := -1 // GitHub gave no count
	if pg.Total >= 0 {
		limit = pg.Total + pg.Total/10 + 100
	}
	if err := p.Next(n, n+pg.Unread, limit, pg.After != "" && !read[pg.After]); err != nil {
		return fmt.Errorf("%s: %w", what, err)
	}
	return nil
}

func commentEvents(cs []Comment) []lifecycle.Event {
	out := make([]lifecycle.Event, len(cs))
	for i, c := range cs {
		out[i] = c.Event
	}
	return out
}
