package sweep

import (
	"context"
	"fmt"
	"time"

	"github.com/stalepr/stalepr/internal/api"
	"github.com/stalepr/stalepr/internal/config"
	"github.com/stalepr/stalepr/internal/lifecycle"
)

// A write that replaces what a listing minutes old showed (a close's
// labels, a mark's PUT) is sent on facts read just before it (readOpen).
// One read per PR would cost one REST request per close; instead the
// writer reads the next group of PRs about to be written to in one query
// (Reader.PullsNow, one point), at the first of them, and each operation
// of the group takes its PR's facts from it. The group is sized so that
// no facts guard a write more than MaxFactsAge after they were read: the
// writes are paced (write-interval), so the writes between the read and
// each guarded write bound its age.

// reqNow is the fresh read: the PR as it is now, with the next ones
// written to.
var reqNow = request{name: "POST graphql (PRs now)", n: 1, now: true}

// MaxFactsAge is the longest time from a fresh read to the last write it
// guards, at the write pace asked (write-interval).
const MaxFactsAge = 30 * time.Second

// facts are the PRs of the last group read afresh, each kept until its
// operation has run.
type facts struct {
	got   map[int]Now
	wrote int       // the writes sent before the group was read (writer.wrote)
	at    time.Time // when it was read, by the transport's clock (api.Usage.At)
}

// writePace is the time between two writes: write-interval, or the slower pace
// a secondary limit set since (u, the transport's usage now).
func writePace(cfg config.Config, u api.Usage) time.Duration {
	return max(cfg.WriteInterval, u.WriteInterval)
}

// freshWrites is how many writes may be sent between a fresh read and the
// last write it guards: those that MaxFactsAge holds at the pace.
func (w *writer) freshWrites() int {
	pace := writePace(w.cfg, w.gh.Usage())
	if pace <= 0 {
		return int(^uint(0) >> 1) // unpaced: the group is bounded by NowPerRead alone
	}
	return int(MaxFactsAge / pace)
}

// tooOld reports whether the facts would be older than MaxFactsAge at the
// last of writes more, after u, the transport's usage now, at cfg's pace:
// a wait the writes do not count (a secondary limit's, a backoff's) ages
// them too.
func (f *facts) tooOld(cfg config.Config, u api.Usage, writes int) bool {
	return u.At.Sub(f.at)+time.Duration(writes)*writePace(cfg, u) > MaxFactsAge
}

// writesOf is how many writes steps send at most, and whether one of them
// is a fresh read.
func writesOf(steps []step) (writes int, fresh bool) {
	for _, st := range steps {
		if st.write {
			writes += st.n
		}
		fresh = fresh || st.now
	}
	return writes, fresh
}

// useFacts, just before o's steps are counted and sent, makes its fresh
// read free when the group read before holds its PR and is recent enough
// for o's writes; otherwise the read sends a new group's query.
func (w *writer) useFacts(o *op, steps []step) {
	writes, fresh := writesOf(steps)
	if !fresh {
		return
	}
	if _, ok := w.facts.got[o.pr.Number]; !ok || w.wrote-w.facts.wrote+writes > w.freshWrites() || w.facts.tooOld(w.cfg, w.gh.Usage(), writes) {
		delete(w.facts.got, o.pr.Number)
		return
	}
	for i := range steps {
		if steps[i].now {
			steps[i].n = 0
		}
	}
}

// done forgets PR n's facts once an operation on it has run: its own
// writes made them old.
func (f *facts) done(n int) { delete(f.got, n) }

// readNow is PR n as it is now: from the group read, or read with the group
// of operations ahead (w.ahead, the one on n first) that need fresh facts,
// as many as the writes between the read and their last write allow.
func (w *writer) readNow(ctx context.Context, n int) (Now, error) {
	if got, ok := w.facts.got[n]; ok {
		return got, got.Err
	}
	group := w.group(n)
	at := w.gh.Usage().At // before the read: what it finds may be that old
	got, err := w.gh.PullsNow(ctx, group)
	if err != nil {
		return Now{}, err
	}
	w.facts = facts{got: got, wrote: w.wrote, at: at}
	if now, ok := got[n]; ok {
		return now, now.Err
	}
	return Now{}, errNotRead(n)
}

// readAgain reads PR listed alone, afresh, for a retry of a write that its
// facts guard: the group read was made before the wait the retry comes
// after.
func (w *writer) readAgain(ctx context.Context, listed lifecycle.PR) (Now, error) {
	got, err := w.gh.PullsNow(ctx, []lifecycle.PR{listed})
	if err != nil {
		return Now{}, err
	}
	if now, ok := got[listed.Number]; ok {
		return now, now.Err
	}
	return Now{}, errNotRead(listed.Number)
}

// group is the PRs the next fresh read reads: n, then those of the
// operations ahead that read afresh, while the writes before each one's
// last write stay within freshWrites.
func (w *writer) group(n int) []lifecycle.PR {
	ahead := w.ahead
	if len(ahead) == 0 || ahead[0].pr.Number != n {
		return []lifecycle.PR{{Number: n}}
	}
	var group []lifecycle.PR
	seen := map[int]bool{}
	writes, most := 0, w.freshWrites()
	for i := range ahead {
		o := ahead[i] // a copy: building steps may fill it
		wr, fresh := writesOf(w.steps(&o))
		if i > 0 && writes+wr > most || len(group) == NowPerRead {
			break
		}
		if fresh && !seen[o.pr.Number] {
			seen[o.pr.Number] = true
			group = append(group, o.pr)
		}
		writes += wr
	}
	return group
}

// errNotRead is a fresh read's answer that leaves out a PR it was asked
// for: unknown, so left for the next run.
func errNotRead(n int) error {
	return fmt.Errorf("read #%d afresh: the answer leaves it out: left for the next run", n)
}
