package ghapi

import (
	"context"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"testing"

	"github.com/stalepr/stalepr/internal/sweep"
	"github.com/stalepr/stalepr/internal/testenv"
)

// endless streams a JSON array of issues until the client hangs up or limit
// bytes are sent, without holding more than one chunk in memory. With
// declare, it announces the full length up front as Content-Length.
func endless(limit int, declare bool) http.HandlerFunc {
	return func(w http.ResponseWriter, _ *http.Request) {
		item := `{"number":1,"pull_request":{"url":"x"},"body":"` + strings.Repeat("a", 64<<10) + `"},`
		w.Header().Set("Content-Type", "application/json")
		if declare {
			w.Header().Set("Content-Length", strconv.Itoa(limit))
		}
		sent := 0
		for sent+len(item) < limit {
			n, err := w.Write([]byte(item))
			sent += n
			if err != nil {
				return
			}
		}
	}
}

func TestOversizedBodyFailsCleanly(t *testing.T) {
	t.Parallel()
	const page80MB = 80 << 20
	for _, declare := range []bool{false, true} {
		t.Run(fmt.Sprintf("content-length declared %v", declare), func(t *testing.T) {
			srv, n := script(t, endless(page80MB, declare))
			c, _ := newTestClient(t, srv, Limits{MaxBody: 1 << 20})
			_, _, err := c.ListPRs(context.Background(), sweep.Query{}, 1)
			checkExplained(t, err, TooLarge, "GET /repos/{owner}/{repo}/issues", "larger than 1 MiB", "GITHUB_API_URL")
			if *n != 1 {
				t.Errorf("server saw %d requests, want 1: the same page would be too large again", *n)
			}
		})
	}
}

func TestDefaultBodyCapTakesTheLargestRealPage(t *testing.T) {
	t.Parallel()
	testenv.Long(t)
	if got := (Limits{}).withDefaults().MaxBody; got != defaultMaxBody {
		t.Fatalf("default MaxBody %d, want %d", got, defaultMaxBody)
	}
	// 100 pull requests whose bodies are at GitHub's 65,536-character cap.
	var b strings.Builder
	b.WriteString("[")
	for i := 1; i <= perPage; i++ {
		if i > 1 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, `{"number":%d,"pull_request":{"url":"x"},"updated_at":"2026-01-01T00:00:00Z","body":%q}`, i, strings.Repeat("é", 65536))
	}
	b.WriteString("]")
	page := b.String()
	srv, _ := script(t, status(200, map[string]string{"Content-Type": "application/json"}, page))
	c, _ := newTestClient(t, srv, Limits{})
	prs, _, err := c.ListPRs(context.Background(), sweep.Query{}, 1)
	if err != nil || len(prs) != perPage {
		t.Fatalf("a %d-byte page: %d PRs, err %v; want all %d", len(page), len(prs), err, perPage)
	}
}
