package ghapi

import (
	"context"
	"fmt"
	"reflect"
	"sync"

	"github.com/shurcooL/githubv4"

	"github.com/stalepr/stalepr/internal/lifecycle"
	"github.com/stalepr/stalepr/internal/sweep"
)

// Reviewers' GitHub status (availability): User.status says whether an
// account set itself busy (indicatesLimitedAvailability) and until when
// (expiresAt). The listing pages do not read it, which would be one more
// field on every requested reviewer of every PR: the sweep asks once a run,
// for the distinct logins its nudges and escalations wait on, each as an
// aliased user(login:) field of one query. No connection: a query of
// sweep.StatusesPerRead users costs one point.

// userStatus is what a query reads of one account: null when GitHub knows
// no such account (deleted, renamed), a null status when it set none.
type userStatus struct {
	Status *struct {
		IndicatesLimitedAvailability bool
		ExpiresAt                    *githubv4.DateTime
	}
}

// BusyStatuses reads the GitHub status of logins (at most
// sweep.StatusesPerRead, which the sweep batches) in one query, one point:
// those whose status says busy, with its expiresAt. An account GitHub does
// not know, or that set no status, or whose part of the answer is in
// error, is left out: not known busy. A query that fails altogether is an
// error.
//
// GitHub API docs: https://docs.github.com/graphql/reference/objects#userstatus
func (c *Client) BusyStatuses(ctx context.Context, logins []string) ([]lifecycle.Busy, error) {
	if len(logins) > sweep.StatusesPerRead {
		return nil, fmt.Errorf("read the GitHub status of %d accounts: at most %d a query", len(logins), sweep.StatusesPerRead)
	}
	q := reflect.New(statusQueryType(len(logins)))
	vars := map[string]any{}
	for k, l := range logins {
		vars[fmt.Sprintf("l%d", k)] = githubv4.String(l)
	}
	errs, err := c.query(rootsApart(ctx), false, q.Interface(), vars)
	if err != nil {
		return nil, c.fail(opRead, err, "read the GitHub status of %d accounts", len(logins))
	}
	spoiled := errs.spoiled(0)
	var out []lifecycle.Busy
	for k, l := range logins {
		f := q.Elem().Field(k + 1) // after RateLimit
		if f.IsNil() || spoiled[fmt.Sprintf("u%d", k)] {
			continue
		}
		st := f.Interface().(*userStatus).Status
		if st == nil || !st.IndicatesLimitedAvailability {
			continue
		}
		b := lifecycle.Busy{Login: l}
		if st.ExpiresAt != nil {
			b.Until = st.ExpiresAt.Time
		}
		out = append(out, b)
	}
	return out, nil
}

var statusTypes sync.Map // int → reflect.Type

// statusQueryType is the query of n accounts' statuses: RateLimit, then
// uK: user(login: $lK) { status {...} } for each. The logins are
// variables, so the type depends on n alone and is built (and learnt by the
// decoder) once per size.
func statusQueryType(n int) reflect.Type {
	if t, ok := statusTypes.Load(n); ok {
		return t.(reflect.Type)
	}
	fields := []reflect.StructField{{Name: "RateLimit", Type: reflect.TypeOf(rateLimit{})}}
	for k := range n {
		fields = append(fields, reflect.StructField{Name: fmt.Sprintf("U%d", k), Type: reflect.TypeOf(&userStatus{}),
			Tag: reflect.StructTag(fmt.Sprintf(`graphql:"u%d: user(login: $l%d)"`, k, k))})
	}
	t, _ := statusTypes.LoadOrStore(n, reflect.StructOf(fields))
	return t.(reflect.Type)
}
