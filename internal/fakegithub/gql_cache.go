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

var docCache = struct {
	sync.Mutex
	m map[string]*parsedDoc
}{m: map[string]*parsedDoc{}}

// parseCached parses and validates query against the schema subset, once
// per text.
func parseCached(query string) *parsedDoc {
	docCache.Lock()
	p, hit := docCache.m[query]
	docCache.Unlock()
	if hit {
		return p
	}
	p = parseUncached(query)
	docCache.Lock()
	if len(docCache.m) >= maxCachedDocs {
		clear(docCache.m)
	}
	docCache.m[query] = p
	docCache.Unlock()
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
