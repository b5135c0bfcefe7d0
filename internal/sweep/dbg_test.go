package sweep_test
import ("testing";"fmt";"context";"time";"github.com/stalepr/stalepr/internal/sweep";"github.com/stalepr/stalepr/internal/fakegithub";"github.com/stalepr/stalepr/internal/lifecycle")
func TestDbg(t *testing.T) {
	w := newWorld(t)
	n := w.markedPR(31)
	pushOldCommits(w, n, daysAgo(40), daysAgo(3))
	w.fake.Comment(n, fakegithub.Bot("codecov[bot]"), daysAgo(3).Add(time.Minute), "Coverage: 71.0% (+1.0%)")
	cfg := w.config(map[string]string{})
	c := w.client(cfg, w.clock, nil)
	l, _, err := c.OpenPulls(context.Background(), sweep.Query{Sort: "updated", Direction: "asc"}, "")
	for _, x := range l { fmt.Printf("%+v\n", x.PR); for _, e := range x.History { fmt.Printf("  %+v\n", e) } 
	a := lifecycle.Summarize(x.PR, x.History, "stale", []string{"github-actions[bot]"}); fmt.Printf("%+v\n", a)}
	fmt.Println(err)
}
