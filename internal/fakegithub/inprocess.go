package fakegithub

import (
	"bytes"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
)

// Transport serves the client's requests by calling the fake's handler in
// the same process, with no connection: for tests of what a run decides
// and sends, where the loopback's TCP, its goroutines and syscalls are a
// third of the cost and none of the subject. What the wire does (a
// dropped connection, a body cut short) it tells as net/http's transport
// tells it: an error, a body that ends in io.ErrUnexpectedEOF. Tests of the
// transport itself serve the fake over HTTP (httptest.NewServer).
func (s *Server) Transport() http.RoundTripper { return inProcess{s} }

type inProcess struct{ s *Server }

func (p inProcess) RoundTrip(r *http.Request) (resp *http.Response, err error) {
	rec := httptest.NewRecorder()
	if r.Body == nil {
		r.Body = http.NoBody
	}
	func() {
		defer func() {
			if v := recover(); v != nil {
				if v != http.ErrAbortHandler {
					panic(v)
				}
				err = errAborted
			}
		}()
		p.s.ServeHTTP(rec, r)
	}()
	if cerr := r.Context().Err(); cerr != nil {
		return nil, cerr
	}
	switch {
	case err != nil && !rec.Flushed:
		return nil, err // closed before anything was sent
	case err != nil:
		// The status line and part of the body were sent, then the
		// connection closed: the body ends short.
		resp = rec.Result()
		resp.Body = io.NopCloser(io.MultiReader(bytes.NewReader(rec.Body.Bytes()), errReader{io.ErrUnexpectedEOF}))
	default:
		resp = rec.Result()
	}
	resp.Request = r
	return resp, nil
}

var errAborted = errors.New("fakegithub: connection closed by the server (EOF)")

type errReader struct{ err error }

func (e errReader) Read([]byte) (int, error) { return 0, e.err }
