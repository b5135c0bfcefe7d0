package ghapi

import (
	"context"
	"fmt"
	"strings"
	"time"

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

// statusField is one root field of the statuses' answer, decoded flat as
// aliased roots are: an account (uK), null when GitHub knows no such
// account (deleted, renamed), its Status null when it set none; or the
// rateLimit, whose fields it carries too.
type statusField struct {
	Status *struct {
		IndicatesLimitedAvailability bool
		ExpiresAt                    *time.Time
	}
	rateLimit
}

// statusData is the statuses' answer by root field: "rateLimit", "u0"...
type statusData map[string]*statusField

func (d *statusData) rate() *rateLimit {
	if r := (*d)["rateLimit"]; r != nil {
		return &r.rateLimit
	}
	return &rateLimit{}
}

func (d *statusData) repoNull() bool { return false }

// statusQuery is the query of n accounts' statuses: uK: user(login: $lK)
// for each.
func statusQuery(n int) string {
	var vars, users strings.Builder
	for k := range n {
		fmt.Fprintf(&vars, ", $l%d: String!", k)
		fmt.Fprintf(&users, "  u%d: user(login: $l%d) { status { indicatesLimitedAvailability expiresAt } }\n", k, k)
	}
	return "query(" + strings.TrimPrefix(vars.String(), ", ") + ") {\n  " + rateLimitField + "\n" + users.String() + "}"
}

// BusyStatuses reads the GitHub status of logins (at most
// sweep.StatusesPerRead, which the sweep batches) in one query, one point:
// those whose status says busy, with its expiresAt. An account GitHub does
// not know, or that set no status, or whose part of the answer is in
// error, is left out: not known busy. A query that fails altogether is an
// error.
//
// GitHub API docs: https://docs.github.com/graphql/reference/objects#userstatus
func (c *graphQL) BusyStatuses(ctx context.Context, logins []string) ([]lifecycle.Busy, error) {
	if len(logins) > sweep.StatusesPerRead {
		return nil, fmt.Errorf("read the GitHub status of %d accounts: at most %d a query", len(logins), sweep.StatusesPerRead)
	}
	vars := map[string]any{}
	for k, l := range logins {
		vars[fmt.Sprintf("l%d", k)] = l
	}
	q, errs, err := ask[statusData](rootsApart(ctx), c, false, statusQuery(len(logins)), vars)
	if err != nil {
		return nil, c.fail(opRead, err, "read the GitHub status of %d accounts", len(logins))
	}
	spoiled := errs.spoiled(0)
	var out []lifecycle.Busy
	for k, l := range logins {
		alias := fmt.Sprintf("u%d", k)
		f := (*q)[alias]
		if f == nil || spoiled[alias] {
			continue
		}
		st := f.Status
		if st == nil || !st.IndicatesLimitedAvailability {
			continue
		}
		b := lifecycle.Busy{Login: l}
		if st.ExpiresAt != nil {
			b.Until = *st.ExpiresAt
		}
		out = append(out, b)
	}
	return out, nil
}
