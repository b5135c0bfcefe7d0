package fakegithub

import (
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stalepr/stalepr/internal/testenv"
)

const commentsRoute = "POST /repos/{owner}/{repo}/issues/{issue_number}/comments"

func TestFaultStatusHasNoEffect(t *testing.T) {
	t.Parallel()
	s, ts := rich(t)
	before := len(s.Comments(1))
	s.failNext("POST", "/repos/{owner}/{repo}/issues/{issue_number}/comments", ServerError(502))
	got := do(t, ts, "POST", repoPath+"/issues/1/comments", `{"body":"x"}`)
	if got.status != 502 || !strings.Contains(string(got.body), `"message"`) {
		t.Fatalf("%d %s", got.status, got.body)
	}
	if len(s.Comments(1)) != before {
		t.Error("a failed request took effect")
	}
	if got := do(t, ts, "POST", repoPath+"/issues/1/comments", `{"body":"x"}`); got.status != 201 {
		t.Errorf("rule fired twice: %d", got.status)
	}
	if r := s.Requests(); r[0].Fault != "502" || r[0].Status != 502 || r[1].Fault != "" {
		t.Errorf("log %+v", r)
	}
}

func TestFaultAfterWrite(t *testing.T) {
	t.Parallel()
	s, ts := rich(t)
	before := len(s.Comments(1))
	s.failNext("", commentsRoute, FailAfterWrite())
	got := do(t, ts, "POST", repoPath+"/issues/1/comments", `{"body":"x"}`)
	if got.status != 502 {
		t.Fatalf("%d", got.status)
	}
	if len(s.Comments(1)) != before+1 {
		t.Error("the write did not happen")
	}
}

// TestEditAnswer: the request takes effect, and its answer is sent as
// edited, its length with it.
func TestEditAnswer(t *testing.T) {
	t.Parallel()
	s, ts := rich(t)
	before := len(s.Comments(1))
	s.failNext("", commentsRoute, EditAnswer(func(a map[string]any) { a["created_at"] = nil }))
	got := do(t, ts, "POST", repoPath+"/issues/1/comments", `{"body":"x"}`)
	if got.status != 201 || !strings.Contains(string(got.body), `"created_at":null`) || got.header.Get("Content-Length") != fmt.Sprint(len(got.body)) {
		t.Fatalf("%d %v %s", got.status, got.header, got.body)
	}
	if len(s.Comments(1)) != before+1 {
		t.Error("the request did not take effect")
	}
	if r := s.Requests(); r[0].Fault != "reshape" {
		t.Errorf("log %+v", r[0])
	}
}

func TestSecondaryRateLimit(t *testing.T) {
	t.Parallel()
	s, ts := rich(t)
	s.InjectFault(FaultRule{Route: "GET /repos/{owner}/{repo}/issues", Fault: SecondaryRateLimit(403, 60)})
	s.InjectFault(FaultRule{Route: "GET /repos/{owner}/{repo}/issues", Nth: 2, Fault: SecondaryRateLimit(429, 0)})
	got := do(t, ts, "GET", repoPath+"/issues", "")
	if got.status != 403 || got.header.Get("Retry-After") != "60" || !strings.Contains(string(got.body), secondaryRateLimitMessage) ||
		got.header.Get("X-Ratelimit-Remaining") == "0" {
		t.Fatalf("403: %d %v %s", got.status, got.header, got.body)
	}
	got = do(t, ts, "GET", repoPath+"/issues", "")
	if got.status != 429 || got.header.Get("Retry-After") != "" {
		t.Fatalf("429: %d %v", got.status, got.header)
	}
	if got := do(t, ts, "GET", repoPath+"/issues", ""); got.status != 200 {
		t.Fatalf("third: %d", got.status)
	}
	reset := t0.Add(time.Hour)
	s.failNext("GET", "", PrimaryRateLimit(403, reset))
	got = do(t, ts, "GET", repoPath+"/issues", "")
	if got.status != 403 || got.header.Get("X-Ratelimit-Remaining") != "0" || got.header.Get("X-Ratelimit-Reset") != fmt.Sprint(reset.Unix()) {
		t.Fatalf("primary: %d %v", got.status, got.header)
	}
}

func rawGet(ts interface{ Client() *http.Client }, url string) (int, []byte, error) {
	req, _ := http.NewRequest("GET", url, nil)
	req.Header.Set("Authorization", "token sekret")
	res, err := ts.Client().Do(req)
	if err != nil {
		return 0, nil, err
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	return res.StatusCode, b, err
}

func TestDropAndTruncate(t *testing.T) {
	t.Parallel()
	s, ts := rich(t)
	s.failNext("", "", DropConnection())
	if _, _, err := rawGet(ts, ts.URL+repoPath+"/pulls/1"); err == nil {
		t.Error("dropped connection: no error")
	}
	s.failNext("", "", TruncatedBody())
	status, body, err := rawGet(ts, ts.URL+repoPath+"/pulls/1")
	if status != 200 || !errors.Is(err, io.ErrUnexpectedEOF) || len(body) == 0 {
		t.Errorf("truncated: %d %v (%d bytes)", status, err, len(body))
	}
	// Drop after write: the client gets no answer, but the write happened.
	before := len(s.Comments(1))
	s.failNext("POST", "", DropAfterWrite())
	req, _ := http.NewRequest("POST", ts.URL+repoPath+"/issues/1/comments", strings.NewReader(`{"body":"x"}`))
	req.Header.Set("Authorization", "token sekret")
	if res, err := ts.Client().Do(req); err == nil {
		res.Body.Close()
		t.Errorf("drop after write: got %d", res.StatusCode)
	}
	if len(s.Comments(1)) != before+1 {
		t.Error("drop after write: the write did not happen")
	}
	if status, _, err := rawGet(ts, ts.URL+repoPath+"/pulls/1"); err != nil || status != 200 {
		t.Errorf("server unusable after faults: %d %v", status, err)
	}
	log := s.Requests()
	if log[0].Status != 0 || log[0].Fault != "drop" || log[1].Fault != "truncate" {
		t.Errorf("log %+v", log[:2])
	}
}

// LateWrite: no answer; the write lands only after the client's next
// request has been answered, so that request does not see it.
func TestFaultLateWrite(t *testing.T) {
	testenv.Long(t)
	t.Parallel()
	s, ts := rich(t)
	before := len(s.Comments(1))
	s.failNext("", commentsRoute, LateWrite())
	client := &http.Client{Timeout: 100 * time.Millisecond}
	req, _ := http.NewRequest("POST", ts.URL+repoPath+"/issues/1/comments", strings.NewReader(`{"body":"late"}`))
	req.Header.Set("Authorization", "token sekret")
	if resp, err := client.Do(req); err == nil {
		resp.Body.Close()
		t.Fatalf("answered %d, want no answer", resp.StatusCode)
	}
	if got := len(s.Comments(1)); got != before {
		t.Fatal("the write landed before the next request")
	}
	got := do(t, ts, "GET", repoPath+"/issues/1/comments", "")
	if strings.Contains(string(got.body), "late") {
		t.Error("the next request saw the late write")
	}
	if got := len(s.Comments(1)); got != before+1 {
		t.Errorf("%d comments after the next request, want %d", got, before+1)
	}
	if r := s.Requests(); r[len(r)-1].Fault != "late" || r[len(r)-1].Status != 201 {
		t.Errorf("log %+v", r[len(r)-1])
	}
}
