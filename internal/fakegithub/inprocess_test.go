package fakegithub

import (
	"errors"
	"io"
	"net/http"
	"testing"
)

// The in-process transport answers as the fake does over HTTP, and tells a
// connection the fake drops, or a body it cuts short, as net/http does.
func TestTransportInProcess(t *testing.T) {
	t.Parallel()
	s, ts := rich(t)
	get := func(c *http.Client, url string) (int, string, error) {
		resp, err := c.Get(url)
		if err != nil {
			return 0, "", err
		}
		defer resp.Body.Close()
		b, err := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b), err
	}
	inproc := &http.Client{Transport: s.Transport()}
	path := ts.URL + "/repos/octo-org/widgets/issues?per_page=3"
	wantCode, want, err := get(ts.Client(), path)
	if err != nil {
		t.Fatal(err)
	}
	if code, got, err := get(inproc, path); err != nil || code != wantCode || got != want {
		t.Errorf("in process: %d %v\n%s\nover HTTP: %d\n%s", code, err, got, wantCode, want)
	}

	s.InjectFault(FaultRule{Route: "GET /repos/{owner}/{repo}/issues", Fault: DropConnection()})
	if _, _, err := get(inproc, path); err == nil {
		t.Error("a dropped connection: no error")
	}
	s.InjectFault(FaultRule{Route: "GET /repos/{owner}/{repo}/issues", Fault: TruncatedBody()})
	if _, _, err := get(inproc, path); !errors.Is(err, io.ErrUnexpectedEOF) {
		t.Errorf("a body cut short: %v, want io.ErrUnexpectedEOF", err)
	}
}
