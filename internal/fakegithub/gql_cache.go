package fakegithub

import (
	"sync"

	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/parser"
	"github.com/vektah/gqlparser/v2/validator"
)

// The client sends the same few documents again and again (a page of pull
// requests, a PR's history, the viewer), and parsing and validating one
// cost more than resolving it. A document's parse and validation depend
// only on its text and the fixed schema, so they are kept by text, for
// every server of the process. A cached document is only read afterwards
// (validation, which fills in the field definitions, runs once before it is
// stored; the executor and the cost walk never write to it), so concurrent
// requests share it.

// maxCachedDocs bounds the cache: a test that sends many distinct
// documents (the fake's own tests) empties it when it is full rather than
// growing without end.
const maxCachedDocs = 256

// parsedDoc is a document's text parsed and validated once.
type parsedDoc struct {
	// doc is the parsed document, nil when it does not parse; it may
	// still be invalid (errs).
	doc *ast.QueryDocument
	// errs are the parse or validation errors as GitHub answers them.
	errs []gqlError
}

var docCache = newMemo[*parsedDoc](maxCachedDocs)

// parseCached parses and validates query against the schema subset, once
// per text.
func parseCached(query string) *parsedDoc {
	p, _ := docCache.get(query, func() (*parsedDoc, bool) { return parseUncached(query), true })
	return p
}

func parseUncached(query string) *parsedDoc {
	doc, err := parser.ParseQuery(&ast.Source{Name: "query", Input: query})
	if err != nil {
		return &parsedDoc{errs: fromParser(err)}
	}
	if list := validator.ValidateWithRules(gqlSchema, doc, nil); len(list) > 0 {
		return &parsedDoc{doc: doc, errs: fromParser(list)}
	}
	return &parsedDoc{doc: doc}
}

// Whole requests repeat to the byte too: every test's run asks for the
// first page of the same listing with the same variables. Reading one (its
// JSON, its variables coerced, the cost walk) cost as much as running it, and
// depends only on the body and the fixed schema, so a request GitHub would
// accept is read once per body, for every server of the process. What is
// kept is only read afterwards: the executor and the rate limit read the
// document, the variables and the cost, and never write to them (the plan,
// which the executions fill in, has its own lock). Refused
// requests are rare and read afresh, so their answers are never shared.
const maxCachedReads = 1024

// readBody is a request read once: what runs, and whether it only reads.
type readBody struct {
	q     gqlQuery
	dry   bool // a rateLimit(dryRun: true) query: it costs nothing
	query bool // no operation of the document is a mutation
}

var readCache = newMemo[*readBody](maxCachedReads)

// readCached reads body as readGraphQL does, once per body text.
func readCached(body []byte) (*readBody, reply, bool) {
	var refused reply
	r, good := readCache.get(string(body), func() (*readBody, bool) {
		q, why, good := readGraphQL(body, parseCached)
		if !good {
			refused = why
			return nil, false
		}
		return &readBody{q: q, dry: dryRun(q.doc, q.op, q.vars), query: onlyReads(q.doc)}, true
	})
	return r, refused, good
}

// memo keeps values by text for every server of the process, up to max:
// full, it starts again empty rather than grow without end (a test that
// sends many distinct documents, the fake's own tests).
type memo[V any] struct {
	mu  sync.Mutex
	m   map[string]V
	max int
}

func newMemo[V any](max int) *memo[V] { return &memo[V]{m: map[string]V{}, max: max} }

// get answers key's value, built once by build; a value build does not keep
// (false) is made afresh each time.
func (c *memo[V]) get(key string, build func() (V, bool)) (V, bool) {
	c.mu.Lock()
	v, hit := c.m[key]
	c.mu.Unlock()
	if hit {
		return v, true
	}
	v, keep := build()
	if !keep {
		return v, false
	}
	c.mu.Lock()
	if len(c.m) >= c.max {
		clear(c.m)
	}
	c.m[key] = v
	c.mu.Unlock()
	return v, true
}
