package ghapi

import (
	"bytes"
	"encoding"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"
)

// The answers to our queries are decoded here, not by githubv4: its decoder
// (shurcooL/graphql's jsonutil) looks every key up again in every fragment
// of every struct by reading the field tags, walks each object's fields for
// fragments again, and sets every scalar by encoding it back to JSON and
// decoding that: most of a run's CPU on a page of 74 PRs with 18 timeline
// fragments each. This decoder does what that one does, with the same
// result for every answer (TestDecodeAnswerAsGithubv4 compares them), but
// learns each struct type's fields and fragments once. githubv4 still
// writes the query from the struct and sends it.

// gqlAnswer is what query reads of a GraphQL answer beside the caller's data,
// from the one decoding of it (readAnswer).
type gqlAnswer struct {
	errors   gqlErrors
	data     bool // the answer holds data, not null
	repoNull bool // its repository is null
}

// readAnswer decodes a GraphQL answer once: its errors, and its data, when
// not null, into q as githubv4 would (q nil: the errors only). err is a
// body that does not decode, or data that does not fit q.
func readAnswer(body []byte, q any) (gqlAnswer, error) {
	var out struct {
		Data   *json.RawMessage
		Errors gqlErrors
	}
	if err := json.NewDecoder(bytes.NewReader(body)).Decode(&out); err != nil {
		return gqlAnswer{}, err
	}
	a := gqlAnswer{errors: out.Errors, data: out.Data != nil && string(*out.Data) != "null"}
	if !a.data || q == nil {
		return a, nil
	}
	nulls, err := unmarshalGraphQL(*out.Data, q)
	a.repoNull = slices.Contains(nulls, "repository")
	return a, err
}

// unmarshalGraphQL decodes data, one JSON value that encoding/json has
// read already (readAnswer's data), into the query struct q points to.
// nulls are the keys of data's top level that are null (a repository
// GitHub did not resolve).
func unmarshalGraphQL(data []byte, q any) (nulls []string, err error) {
	rv := reflect.ValueOf(q)
	if rv.Kind() != reflect.Pointer {
		return nil, fmt.Errorf("cannot decode into non-pointer %T", q)
	}
	d := gqlDecoder{b: data}
	if err := d.value([]reflect.Value{rv.Elem()}); err != nil {
		return d.topNulls, err
	}
	if d.skipSpace(); d.i < len(d.b) {
		return d.topNulls, fmt.Errorf("invalid token after top-level value at offset %d", d.i)
	}
	return d.topNulls, nil
}

// gqlDecoder decodes one JSON value into every place that takes it: a
// field named in several fragments of a union (a timeline item's author)
// takes the same value in each. It reads JSON that encoding/json has read
// already, so it checks no syntax: it tells the values apart and leaves
// what is not plain (a string with escapes, a number) to encoding/json.
type gqlDecoder struct {
	b        []byte
	i        int
	depth    int      // objects open
	topNulls []string // the top-level object's keys whose value is null
}

var errEnd = errors.New("unexpected end of JSON input")

func (d *gqlDecoder) skipSpace() {
	for d.i < len(d.b) && (d.b[d.i] == ' ' || d.b[d.i] == '\t' || d.b[d.i] == '\n' || d.b[d.i] == '\r') {
		d.i++
	}
}

// peek is the next byte that is not white space or a separator (',', ':'); 0 at the end.
func (d *gqlDecoder) peek() byte {
	for d.skipSpace(); d.i < len(d.b) && (d.b[d.i] == ',' || d.b[d.i] == ':'); d.skipSpace() {
		d.i++
	}
	if d.i == len(d.b) {
		return 0
	}
	return d.b[d.i]
}

// str reads the string at d.i, as encoding/json decodes it.
func (d *gqlDecoder) str() (string, error) {
	start, plain := d.i, true
	for d.i++; d.i < len(d.b) && d.b[d.i] != '"'; d.i++ {
		switch c := d.b[d.i]; {
		case c == '\\':
			plain = false
			d.i++ // the escaped byte cannot end the string
		case c >= utf8.RuneSelf:
			plain = false
		}
	}
	if d.i == len(d.b) {
		return "", errEnd
	}
	d.i++
	lit := d.b[start:d.i]
	if plain {
		return string(lit[1 : len(lit)-1]), nil
	}
	var s string
	err := json.Unmarshal(lit, &s)
	return s, err
}

// scalar reads the number, true, false or null at d.i as the token
// encoding/json's Decoder (with UseNumber) gives for it.
func (d *gqlDecoder) scalar() (json.Token, error) {
	start := d.i
	for d.i < len(d.b) && !strings.ContainsRune(" \t\n\r,:]}", rune(d.b[d.i])) {
		d.i++
	}
	switch lit := string(d.b[start:d.i]); lit {
	case "true":
		return true, nil
	case "false":
		return false, nil
	case "null":
		return nil, nil
	case "":
		return nil, errEnd
	default:
		return json.Number(lit), nil
	}
}

// value decodes the next JSON value into each of into.
func (d *gqlDecoder) value(into []reflect.Value) error {
	var tok json.Token
	var err error
	switch d.peek() {
	case 0:
		return errEnd
	case '{':
		d.i++
		return d.object(into)
	case '[':
		d.i++
		return d.array(into)
	case '}', ']':
		return errors.New("unexpected delimiter in JSON input")
	case '"':
		tok, err = d.str()
	default:
		tok, err = d.scalar()
	}
	if err != nil {
		return err
	}
	for _, v := range into {
		if err := setScalar(tok, v); err != nil {
			return err
		}
	}
	return nil
}

// object decodes an object's keys into the fields of that name of each of
// into, of their fragments and of their embedded structs; a nil pointer
// among into is given a new value first.
func (d *gqlDecoder) object(into []reflect.Value) error {
	d.depth++
	defer func() { d.depth-- }()
	var places []reflect.Value
	for _, v := range into {
		if v.Kind() == reflect.Pointer && v.IsNil() {
			v.Set(reflect.New(v.Type().Elem()))
		}
		if v.Kind() == reflect.Pointer {
			v = v.Elem()
		}
		if v.Kind() == reflect.Struct {
			places = append(places, v)
		}
	}
	var fields []reflect.Value
	for {
		switch d.peek() {
		case 0:
			return errEnd
		case '}':
			d.i++
			return nil
		case '"':
		default:
			return errors.New("unexpected non-key in JSON input")
		}
		key, err := d.str()
		if err != nil {
			return err
		}
		fields = fields[:0]
		for _, p := range places {
			for _, path := range planOf(p.Type()).fields(key) {
				fields = append(fields, p.FieldByIndex(path))
			}
		}
		if len(fields) == 0 {
			return fmt.Errorf("struct field for %q doesn't exist in any of %v places to unmarshal", key, max(len(places), 1))
		}
		if d.depth == 1 && d.peek() == 'n' {
			d.topNulls = append(d.topNulls, key)
		}
		// The value's own decoding may append to fields' backing array
		// no more: it gets a copy.
		if err := d.value(append([]reflect.Value(nil), fields...)); err != nil {
			return err
		}
	}
}

// array decodes an array's elements each into a new element of each slice
// among into (which is emptied first).
func (d *gqlDecoder) array(into []reflect.Value) error {
	var slices []reflect.Value
	for _, v := range into {
		if v.Kind() == reflect.Pointer {
			v = v.Elem()
		}
		if v.Kind() == reflect.Slice {
			v.Set(reflect.MakeSlice(v.Type(), 0, 0))
			slices = append(slices, v)
		}
	}
	for {
		switch d.peek() {
		case 0:
			return errEnd
		case ']':
			d.i++
			return nil
		}
		if len(slices) == 0 {
			return fmt.Errorf("slice doesn't exist in any of %v places to unmarshal", max(len(into), 1))
		}
		elems := make([]reflect.Value, len(slices))
		for i, s := range slices {
			s.Set(reflect.Append(s, reflect.Zero(s.Type().Elem())))
			elems[i] = s.Index(s.Len() - 1)
		}
		if err := d.value(elems); err != nil {
			return err
		}
	}
}

var (
	jsonUnmarshaler = reflect.TypeFor[json.Unmarshaler]()
	textUnmarshaler = reflect.TypeFor[encoding.TextUnmarshaler]()
)

// How a scalar is set into a type.
const (
	plainScalar     = iota // a string, bool, number or pointer: set directly
	unmarshalsJSON         // its UnmarshalJSON (a time) is called with the scalar
	viaEncodingJSON        // anything else: encoding/json decodes the scalar into it
)

var scalarKinds sync.Map // reflect.Type → int

func scalarKindOf(t reflect.Type) int {
	if k, ok := scalarKinds.Load(t); ok {
		return k.(int)
	}
	k := viaEncodingJSON
	switch pt := reflect.PointerTo(t); {
	case pt.Implements(jsonUnmarshaler):
		k = unmarshalsJSON
	case pt.Implements(textUnmarshaler):
	case t.Kind() == reflect.String, t.Kind() == reflect.Bool, t.Kind() == reflect.Pointer,
		t.Kind() >= reflect.Int && t.Kind() <= reflect.Int64:
		k = plainScalar
	}
	scalarKinds.Store(t, k)
	return k
}

// setScalar sets v to a JSON string, number, boolean or null as
// encoding/json decodes it into v (githubv4 has encoding/json decode each
// scalar into its field); the common kinds directly, the rest through
// encoding/json.
func setScalar(tok json.Token, v reflect.Value) error {
	switch scalarKindOf(v.Type()) {
	case plainScalar:
		if v.Kind() == reflect.Pointer {
			if tok == nil {
				v.SetZero()
				return nil
			}
			if v.IsNil() {
				v.Set(reflect.New(v.Type().Elem()))
			}
			return setScalar(tok, v.Elem())
		}
		if setPlain(tok, v) {
			return nil
		}
	case unmarshalsJSON:
		b, err := json.Marshal(tok)
		if err != nil {
			return err
		}
		return v.Addr().Interface().(json.Unmarshaler).UnmarshalJSON(b)
	}
	b, err := json.Marshal(tok)
	if err != nil {
		return err
	}
	return json.Unmarshal(b, v.Addr().Interface())
}

// setPlain sets v, a string, bool or integer without methods of its own,
// to tok when tok fits it, as encoding/json would; false when it does not
// fit (encoding/json then says why).
func setPlain(tok json.Token, v reflect.Value) bool {
	switch t := tok.(type) {
	case string:
		if v.Kind() == reflect.String {
			v.SetString(t)
			return true
		}
	case bool:
		if v.Kind() == reflect.Bool {
			v.SetBool(t)
			return true
		}
	case json.Number:
		if n, err := strconv.ParseInt(string(t), 10, 64); err == nil && v.CanInt() && !v.OverflowInt(n) {
			v.SetInt(n)
			return true
		}
	case nil:
		return true // encoding/json leaves a string, bool or number as it is on null
	}
	return false
}

// structPlan is what the decoder learns of a struct type once: where its
// fragments and embedded structs are, and which fields take a key.
type structPlan struct {
	t      reflect.Type
	places [][]int // the struct itself, then its fragments and embedded structs, breadth first

	mu    sync.Mutex
	byKey map[string][][]int
}

var plans sync.Map // reflect.Type → *structPlan

func planOf(t reflect.Type) *structPlan {
	if p, ok := plans.Load(t); ok {
		return p.(*structPlan)
	}
	p := &structPlan{t: t, places: placesOf(t), byKey: map[string][][]int{}}
	actual, _ := plans.LoadOrStore(t, p)
	return actual.(*structPlan)
}

// placesOf lists the struct t and, breadth first, the fragments ("... on
// X") and embedded structs in it, by index path. A fragment or embedded
// struct behind a pointer is never filled (githubv4 leaves it nil too).
func placesOf(t reflect.Type) [][]int {
	places := [][]int{nil}
	for i := 0; i < len(places); i++ {
		st := t
		if len(places[i]) > 0 {
			st = t.FieldByIndex(places[i]).Type
		}
		for j := range st.NumField() {
			f := st.Field(j)
			if (isFragment(f) || f.Anonymous) && f.Type.Kind() == reflect.Struct {
				places = append(places, append(append([]int(nil), places[i]...), j))
			}
		}
	}
	return places
}

// mostKeys bounds the keys a plan remembers: the names of its fields in
// every casing an answer could use them would be unbounded.
const mostKeys = 256

// fields lists, for each place of the struct that has one, the field that
// takes key: the first exported field whose GraphQL name is key.
func (p *structPlan) fields(key string) [][]int {
	p.mu.Lock()
	paths, ok := p.byKey[key]
	p.mu.Unlock()
	if ok {
		return paths
	}
	for _, place := range p.places {
		st := p.t
		if len(place) > 0 {
			st = p.t.FieldByIndex(place).Type
		}
		for j := range st.NumField() {
			if f := st.Field(j); f.IsExported() && hasGraphQLName(f, key) {
				paths = append(paths, append(append([]int(nil), place...), j))
				break
			}
		}
	}
	p.mu.Lock()
	if len(p.byKey) < mostKeys {
		p.byKey[key] = paths
	}
	p.mu.Unlock()
	return paths
}

// hasGraphQLName reports whether f takes the key name: its graphql tag's
// field name (before arguments, an alias's colon or a directive), or
// without a tag its Go name in any case.
func hasGraphQLName(f reflect.StructField, name string) bool {
	value, ok := f.Tag.Lookup("graphql")
	if !ok {
		return strings.EqualFold(f.Name, name)
	}
	value = strings.TrimSpace(value)
	if strings.HasPrefix(value, "...") {
		return false
	}
	if i := strings.IndexAny(value, "(:@"); i != -1 {
		value = value[:i]
	}
	return strings.TrimSpace(value) == name
}

func isFragment(f reflect.StructField) bool {
	value, ok := f.Tag.Lookup("graphql")
	return ok && strings.HasPrefix(strings.TrimSpace(value), "...")
}
