package fakegithub

import (
	_ "embed"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"math"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/vektah/gqlparser/v2"
	"github.com/vektah/gqlparser/v2/ast"
)

// This file is the fake's small GraphQL executor: a document is parsed and
// validated against the schema subset (schema.graphql, GitHub's, with its
// licence in schema.LICENSE), then executed field by field
// with one resolver table per type (gql_resolvers.go). A field the schema
// lacks fails validation before any resolver runs, so the fake cannot serve
// anything GitHub's schema does not have.

//go:embed schema.graphql
var schemaSDL string

var gqlSchema = gqlparser.MustLoadSchema(&ast.Source{Name: "schema.graphql", Input: schemaSDL})

// gobj is a resolved object: its concrete GraphQL type and the fake's value
// behind it, which that type's resolvers read.
type gobj struct {
	typ string
	v   any
}

// resolver answers one field of one type from the parent's value and the
// field's coerced arguments. A composite value is a gobj (or nil, or a
// []any of them); a leaf is a string, int, bool or nil.
type resolver func(x *gexec, src any, args map[string]any) (any, error)

// gqlFieldError is a resolver's error as GitHub reports it: an optional type
// ("NOT_FOUND", "FORBIDDEN"...) and a message. The field becomes null.
type gqlFieldError struct {
	typ, msg string
}

func (e *gqlFieldError) Error() string { return e.msg }

// errItem is a list element that failed on its own (partial data): the
// element is null and the error's path ends at its index.
type errItem struct{ err *gqlFieldError }

// gexec is one execution of one operation.
type gexec struct {
	s    *Server
	c    *call
	doc  *ast.QueryDocument
	vars map[string]any
	errs []gqlError
	rate rateInfo // what rateLimit answers

	fault      *GraphQLFault
	faultPR    int  // the pull request the fault targets, once known
	faultFired bool // the fault changed the answer

	plan *plan
}

// plan is what running a request derives from its document and variables
// alone: a page's 74 pull requests and their 100 timeline items each
// collect the same selection sets, look up the same resolvers and coerce
// the same arguments, which real executors cache per document. It is kept
// with the request read once per body (readCache), so every execution of
// the same body shares it, whichever server and test sends it.
type plan struct {
	mu   sync.Mutex
	sets map[collectKey]*planSet
}

// planSet is a selection set collected for an object type: its fields in
// answer order and their response keys, which every object answered for
// it shares.
type planSet struct {
	fields []planned
	keys   []string
}

// planned is a field with its resolver (nil for none), its coerced
// arguments, which resolvers only read, and its response key as a path's
// element.
type planned struct {
	f    *ast.Field
	r    resolver
	args map[string]any
	key  any
}

// collectKey names a selection set (by its first selection and length: a
// document's selection sets never share a backing array) collected for an
// object type.
type collectKey struct {
	typ   string
	first ast.Selection
	n     int
}

var noFields = &planSet{}

// fieldsOf is collect's answer for a selection set, with each field's
// resolver and arguments, once per plan.
func (x *gexec) fieldsOf(typ string, sel ast.SelectionSet) *planSet {
	if len(sel) == 0 {
		return noFields
	}
	k := collectKey{typ, sel[0], len(sel)}
	x.plan.mu.Lock()
	ps, done := x.plan.sets[k]
	x.plan.mu.Unlock()
	if done {
		return ps
	}
	fs := x.collect(typ, sel, nil)
	ps = &planSet{fields: make([]planned, len(fs)), keys: make([]string, len(fs))}
	for i, f := range fs {
		ps.fields[i] = planned{f: f, r: resolvers[typ][f.Name], args: f.ArgumentMap(x.vars), key: f.Alias}
		ps.keys[i] = f.Alias
	}
	x.plan.mu.Lock()
	if x.plan.sets == nil {
		x.plan.sets = map[collectKey]*planSet{}
	}
	x.plan.sets[k] = ps
	x.plan.mu.Unlock()
	return ps
}

// execute runs the operation's selection set on its root type.
func (x *gexec) execute(op *ast.OperationDefinition) *omap {
	root := "Query"
	if op.Operation == ast.Mutation {
		root = "Mutation"
	}
	// Room for a path as deep as a query may go, list indices included,
	// so that the paths below extend it rather than grow it.
	out, ok := x.selectionSet(root, nil, op.SelectionSet, make([]any, 0, 2*maxDepth))
	if !ok {
		return nil
	}
	return out
}

// selectionSet resolves sel on src. path is the answer's path to src; the
// fields' paths extend it in place, one after the other (fail copies the
// path it keeps), so that no field allocates one: it is given room for
// one more here, once for the object (and a path has room for the
// deeper levels' too once it grew), and each field's key is boxed in
// the plan.
func (x *gexec) selectionSet(typ string, src any, sel ast.SelectionSet, path []any) (*omap, bool) {
	ps := x.fieldsOf(typ, sel)
	// The keys are the plan's: every field sets one value, in their order.
	out := &omap{keys: ps.keys, vals: make([]any, 0, len(ps.fields))}
	path = slices.Grow(path, 1)
	for _, pf := range ps.fields {
		p := append(path, pf.key)
		if pf.f.Name == "__typename" {
			out.vals = append(out.vals, typ)
			continue
		}
		v, ok := x.field(typ, src, pf, p)
		if !ok {
			return nil, false
		}
		out.vals = append(out.vals, v)
	}
	return out, true
}

// field resolves and completes one field; false means the field is null
// although non-null, so its parent becomes null too (GraphQL's null
// propagation).
func (x *gexec) field(typ string, src any, pf planned, path []any) (any, bool) {
	f := pf.f
	if pf.r == nil {
		x.fail(path, f, &gqlFieldError{msg: "fakegithub: no resolver for " + typ + "." + f.Name})
		return nil, !f.Definition.Type.NonNull
	}
	v, err := pf.r(x, src, pf.args)
	if err != nil {
		fe, ok := err.(*gqlFieldError)
		if !ok {
			fe = &gqlFieldError{msg: err.Error()}
		}
		x.fail(path, f, fe)
		return nil, !f.Definition.Type.NonNull
	}
	return x.complete(f.Definition.Type, v, f, path)
}

func (x *gexec) complete(t *ast.Type, v any, f *ast.Field, path []any) (any, bool) {
	switch v := v.(type) {
	case nil:
		return nil, !t.NonNull
	case errItem:
		x.fail(path, f, v.err)
		return nil, !t.NonNull
	case []any:
		out := make([]any, len(v))
		for i, e := range v {
			ev, ok := x.complete(t.Elem, e, f, append(path, i))
			if !ok {
				return nil, !t.NonNull
			}
			out[i] = ev
		}
		return out, true
	case gobj:
		m, ok := x.selectionSet(v.typ, v.v, f.SelectionSet, path)
		if !ok {
			return nil, !t.NonNull
		}
		return m, true
	default:
		// A value of an object type needs no gobj: the type is the field's.
		if def := gqlSchema.Types[t.Name()]; def != nil && def.Kind == ast.Object {
			return x.complete(t, gobj{def.Name, v}, f, path)
		}
		return v, true
	}
}

func (x *gexec) fail(path []any, f *ast.Field, e *gqlFieldError) {
	x.errs = append(x.errs, gqlError{Type: e.typ, Path: slices.Clone(path),
		Locations: []gqlLocation{{Line: f.Position.Line, Column: f.Position.Column}}, Message: e.msg})
}

// collect flattens a selection set for an object type: fragments whose
// type condition the type meets are inlined, @skip/@include applied, and
// fields of one response key merged.
func (x *gexec) collect(typ string, sel ast.SelectionSet, out []*ast.Field) []*ast.Field {
	for _, s := range sel {
		switch s := s.(type) {
		case *ast.Field:
			if !x.included(s.Directives) {
				continue
			}
			i := slices.IndexFunc(out, func(f *ast.Field) bool { return f.Alias == s.Alias })
			if i < 0 {
				out = append(out, s)
				continue
			}
			merged := *out[i]
			merged.SelectionSet = append(slices.Clip(out[i].SelectionSet), s.SelectionSet...)
			out[i] = &merged
		case *ast.InlineFragment:
			if x.included(s.Directives) && applies(typ, s.TypeCondition) {
				out = x.collect(typ, s.SelectionSet, out)
			}
		case *ast.FragmentSpread:
			if fr := x.doc.Fragments.ForName(s.Name); fr != nil && x.included(s.Directives) && applies(typ, fr.TypeCondition) {
				out = x.collect(typ, fr.SelectionSet, out)
			}
		}
	}
	return out
}

func (x *gexec) included(ds ast.DirectiveList) bool {
	if d := ds.ForName("skip"); d != nil && d.ArgumentMap(x.vars)["if"] == true {
		return false
	}
	if d := ds.ForName("include"); d != nil && d.ArgumentMap(x.vars)["if"] == false {
		return false
	}
	return true
}

// applies reports whether a fragment on cond applies to an object of type typ.
func applies(typ, cond string) bool {
	if cond == "" || cond == typ {
		return true
	}
	def := gqlSchema.Types[cond]
	if def == nil {
		return false
	}
	for _, d := range gqlSchema.GetPossibleTypes(def) {
		if d.Name == typ {
			return true
		}
	}
	return false
}

// omap is a JSON object that keeps its keys in the order set, as a GraphQL
// response follows the query's field order.
type omap struct {
	keys []string
	vals []any
}

func (m *omap) set(k string, v any) {
	m.keys = append(m.keys, k)
	m.vals = append(m.vals, v)
}

// MarshalJSON writes the object in one pass, as encodeJSON does.
func (m *omap) MarshalJSON() ([]byte, error) { return m.appendJSON(nil) }

// appendJSON appends the object's JSON: the bytes encoding/json writes
// for it (through encodeJSON: no HTML escaping), the nested objects
// included, but without encoding/json's reflection and its compacting of
// every nested object's output again at each level above it, which made
// encoding an answer cost as much as resolving it. Values of other types
// than the executor's own go through encodeJSON.
func (m *omap) appendJSON(b []byte) ([]byte, error) {
	b = append(b, '{')
	for i, k := range m.keys {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendJSONString(b, k)
		b = append(b, ':')
		var err error
		if b, err = appendJSONValue(b, m.vals[i]); err != nil {
			return nil, err
		}
	}
	return append(b, '}'), nil
}

// appendJSONValue appends v's JSON as encodeJSON would encode it. An
// object's error is wrapped as encoding/json wraps a MarshalJSON error.
func appendJSONValue(b []byte, v any) ([]byte, error) {
	switch v := v.(type) {
	case nil:
		return append(b, "null"...), nil
	case string:
		return appendJSONString(b, v), nil
	case int:
		return strconv.AppendInt(b, int64(v), 10), nil
	case int64:
		return strconv.AppendInt(b, v, 10), nil
	case bool:
		return strconv.AppendBool(b, v), nil
	case *omap:
		if v == nil {
			return append(b, "null"...), nil
		}
		out, err := v.appendJSON(b)
		if err != nil {
			return nil, &json.MarshalerError{Type: reflect.TypeOf(v), Err: err}
		}
		return out, nil
	case []any:
		if v == nil {
			return append(b, "null"...), nil
		}
		b = append(b, '[')
		for i, e := range v {
			if i > 0 {
				b = append(b, ',')
			}
			var err error
			if b, err = appendJSONValue(b, e); err != nil {
				return nil, err
			}
		}
		return append(b, ']'), nil
	}
	j, err := encodeJSON(v)
	if err != nil {
		return nil, err
	}
	return append(b, j...), nil
}

const hexDigits = "0123456789abcdef"

// appendJSONString appends s quoted as encoding/json quotes a string
// without HTML escaping: '"', '\\' and control characters escaped (\b,
// \f, \n, \r, \t by name, others as \u00XX), invalid UTF-8 as \ufffd,
// U+2028 and U+2029 as \u2028 and \u2029 (JSONP's line terminators).
func appendJSONString(b []byte, s string) []byte {
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '"', '\\':
				b = append(b, '\\', c)
			case '\b':
				b = append(b, '\\', 'b')
			case '\f':
				b = append(b, '\\', 'f')
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				b = append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xf])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
		case r == '\u2028' || r == '\u2029':
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', hexDigits[r&0xf])
		default:
			i += size
			continue
		}
		i += size
		start = i
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}

// ---- arguments ----

// intArg reads an Int argument: a literal comes as int64, a variable as
// the JSON number the request carried.
func intArg(args map[string]any, name string) (int, bool) {
	switch v := args[name].(type) {
	case int:
		return v, true
	case int64:
		return int(v), true
	case float64:
		return int(math.Round(v)), true
	case json.Number:
		n, err := v.Int64()
		return int(n), err == nil
	}
	return 0, false
}

func strArg(args map[string]any, name string) string {
	s, _ := args[name].(string)
	return s
}

func strsArg(args map[string]any, name string) ([]string, bool) {
	list, ok := args[name].([]any)
	if !ok {
		return nil, false
	}
	out := make([]string, 0, len(list))
	for _, v := range list {
		if s, ok := v.(string); ok {
			out = append(out, s)
		}
	}
	return out, true
}

// ---- connections ----

// item is one element of a connection with its sort key: the connection
// is in ascending key order, and a cursor is the key, so paging survives
// items added or removed between pages (as GitHub's cursors do).
type item struct {
	key []int64
	v   any
}

// conn is a connection page as its resolvers serve it.
type conn struct {
	nodes    []any
	info     pageInfo
	total    int
	filtered int
}

// pageInfo is a page's PageInfo; the cursors are "" (null) for an empty page.
type pageInfo struct {
	start, end       string
	hasNext, hasPrev bool
}

const cursorPrefix = "cursor:v2:"

func encodeCursor(key []int64) string {
	parts := make([]string, len(key))
	for i, k := range key {
		parts[i] = strconv.FormatInt(k, 10)
	}
	return base64.StdEncoding.EncodeToString([]byte(cursorPrefix + strings.Join(parts, ",")))
}

func decodeCursor(arg, c string) ([]int64, error) {
	bad := &gqlFieldError{msg: fmt.Sprintf("`%s` does not appear to be a valid cursor.", arg)}
	raw, err := base64.StdEncoding.DecodeString(c)
	if err != nil {
		return nil, bad
	}
	body, ok := strings.CutPrefix(string(raw), cursorPrefix)
	if !ok {
		return nil, bad
	}
	var key []int64
	for _, p := range strings.Split(body, ",") {
		n, err := strconv.ParseInt(p, 10, 64)
		if err != nil {
			return nil, bad
		}
		key = append(key, n)
	}
	return key, nil
}

func cmpKey(a, b []int64) int { return slices.Compare(a, b) }

// paginate serves a page of items (in key order) by the connection
// arguments after, before, skip, first and last, as GitHub does: after and
// before bound the list, first takes from the front of what is left, last
// from its back. totalCount counts all items; filteredCount those between
// the cursors.
func paginate(items []item, args map[string]any) (conn, error) {
	lo, hi := 0, len(items)
	if c := strArg(args, "after"); c != "" {
		k, err := decodeCursor("after", c)
		if err != nil {
			return conn{}, err
		}
		lo = sortSearch(items, func(it item) bool { return cmpKey(it.key, k) > 0 })
	}
	if c := strArg(args, "before"); c != "" {
		k, err := decodeCursor("before", c)
		if err != nil {
			return conn{}, err
		}
		hi = max(lo, sortSearch(items, func(it item) bool { return cmpKey(it.key, k) >= 0 }))
	}
	filtered := hi - lo
	if n, ok := intArg(args, "skip"); ok && n > 0 {
		lo = min(lo+n, hi)
	}
	if n, ok := intArg(args, "first"); ok {
		hi = min(hi, lo+max(n, 0))
	}
	if n, ok := intArg(args, "last"); ok {
		lo = max(lo, hi-max(n, 0))
	}
	page := items[lo:hi]
	out := conn{total: len(items), filtered: filtered, nodes: make([]any, len(page))}
	for i, it := range page {
		out.nodes[i] = it.v
	}
	out.info = pageInfo{hasPrev: lo > 0, hasNext: hi < len(items)}
	if len(page) > 0 {
		out.info.start, out.info.end = encodeCursor(page[0].key), encodeCursor(page[len(page)-1].key)
	}
	return out, nil
}

func sortSearch(items []item, f func(item) bool) int {
	i, _ := slices.BinarySearchFunc(items, true, func(it item, _ bool) int {
		if f(it) {
			return 1
		}
		return -1
	})
	return i
}
