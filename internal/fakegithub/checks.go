package fakegithub

import (
	"slices"
	"time"
)

// Check is one context of a commit's status check rollup: a check run
// (Status set: COMPLETED, IN_PROGRESS, QUEUED...; Conclusion once
// completed: SUCCESS, FAILURE, CANCELLED...) or, with Status empty, a
// commit status (its state in Conclusion: SUCCESS, FAILURE, ERROR, PENDING).
type Check struct {
	Name       string
	Status     string
	Conclusion string
	// At is a check run's completion (zero while not completed) or a
	// commit status's creation.
	At time.Time
}

// checkRec is a check as stored: its node ID's number, and the commit it
// is on.
type checkRec struct {
	Check
	id  int64
	sha string
}

func (c *checkRec) typename() string {
	if c.Status != "" {
		return "CheckRun"
	}
	return "StatusContext"
}

func (c *checkRec) nodeID() string {
	if c.Status != "" {
		return nodeID("CR", c.id)
	}
	return nodeID("SC", c.id)
}

// AddCheck adds a context to the rollup of PR n's head commit (a re-run is
// another context of the same name, as GitHub lists it) and returns that
// commit.
func (s *Server) AddCheck(n int, c Check) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	rec := s.db.mustGet(n)
	if s.db.checks == nil {
		s.db.checks = map[string][]*checkRec{}
	}
	s.db.checks[rec.HeadSHA] = append(s.db.checks[rec.HeadSHA], &checkRec{Check: c, id: s.db.newID(), sha: rec.HeadSHA})
	s.db.version++
	return rec.HeadSHA
}

// SetRequiredChecks names the checks the base branch's protection requires:
// isRequired is true for contexts of these names.
func (s *Server) SetRequiredChecks(names ...string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.db.requiredChecks = slices.Clone(names)
	s.db.version++
}

// checkByNodeID finds a check run or commit status by its global ID.
func (x *gexec) checkByNodeID(id string) *checkRec {
	for _, cs := range x.s.db.checks {
		for _, c := range cs {
			if c.nodeID() == id {
				return c
			}
		}
	}
	return nil
}

// rollup is PullRequest.statusCheckRollup: the head commit's contexts,
// null when it has none (as GitHub answers for a commit without checks).
func (x *gexec) rollup(rec *issueRec) any {
	if len(x.s.db.checks[rec.HeadSHA]) == 0 {
		return nil
	}
	return gobj{"StatusCheckRollup", rec.HeadSHA}
}

// rollupState is the rollup's combined state over the latest context of
// each name (the last added): FAILURE when one failed (a conclusion other
// than SUCCESS, NEUTRAL and SKIPPED, or a status's FAILURE or ERROR), else
// PENDING when one is not done, else SUCCESS.
func (db *store) rollupState(sha string) string {
	latest := map[string]*checkRec{}
	for _, c := range db.checks[sha] {
		latest[c.Name] = c
	}
	pending := false
	for _, c := range latest {
		switch {
		case c.Status != "" && c.Status != "COMPLETED", c.Status == "" && (c.Conclusion == "PENDING" || c.Conclusion == "EXPECTED"):
			pending = true
		case c.Conclusion != "SUCCESS" && c.Conclusion != "NEUTRAL" && c.Conclusion != "SKIPPED":
			return "FAILURE"
		}
	}
	if pending {
		return "PENDING"
	}
	return "SUCCESS"
}

// isRequired is GitHub's CheckRun/StatusContext.isRequired: whether the
// base branch requires the check for the pull request named by number or
// ID, one of which GitHub insists on.
func isRequired(x *gexec, src any, args map[string]any) (any, error) {
	c := src.(*checkRec)
	var rec *issueRec
	if n, ok := intArg(args, "pullRequestNumber"); ok {
		if r, found := x.s.db.byNum[n]; found && r.IsPR {
			rec = r
		}
	} else if id := strArg(args, "pullRequestId"); id != "" {
		rec = x.pullByNodeID(id)
	} else {
		return nil, &gqlFieldError{"UNPROCESSABLE", "A pull request ID or pull request number is required."}
	}
	if rec == nil {
		return nil, &gqlFieldError{"NOT_FOUND", "Could not resolve to a PullRequest."}
	}
	return slices.Contains(x.s.db.requiredChecks, c.Name), nil
}

func init() {
	resolvers["StatusCheckRollup"] = map[string]resolver{
		"id":     field(func(sha string) any { return "SCR_" + sha }),
		"commit": field(func(sha string) any { return gobj{"Commit", commitRef{Event{SHA: sha}}} }),
		"state":  func(x *gexec, src any, _ map[string]any) (any, error) { return x.s.db.rollupState(src.(string)), nil },
		"contexts": func(x *gexec, src any, args map[string]any) (any, error) {
			cs := x.s.db.checks[src.(string)]
			items := make([]item, len(cs))
			for i, c := range cs {
				items[i] = item{key: []int64{int64(i)}, v: gobj{c.typename(), c}}
			}
			return paginate(items, args)
		},
	}
	resolvers["StatusCheckRollupContextConnection"] = connResolvers
	resolvers["CheckRun"] = map[string]resolver{
		"id":          field(func(c *checkRec) any { return c.nodeID() }),
		"name":        field(func(c *checkRec) any { return c.Name }),
		"status":      field(func(c *checkRec) any { return c.Status }),
		"conclusion":  field(func(c *checkRec) any { return nullStr(c.Conclusion) }),
		"completedAt": field(func(c *checkRec) any { return nullTime(c.At) }),
		"isRequired":  isRequired,
	}
	resolvers["StatusContext"] = map[string]resolver{
		"id":         field(func(c *checkRec) any { return c.nodeID() }),
		"context":    field(func(c *checkRec) any { return c.Name }),
		"state":      field(func(c *checkRec) any { return c.Conclusion }),
		"createdAt":  field(func(c *checkRec) any { return ts(c.At) }),
		"isRequired": isRequired,
	}
	pullRequestResolvers["statusCheckRollup"] = func(x *gexec, src any, _ map[string]any) (any, error) {
		return x.rollup(src.(*issueRec)), nil
	}
}
