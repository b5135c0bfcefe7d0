package fakegithub

import (
	"encoding/json"
	"net/http"
	"strings"
)

const docCreateIssue = "https://docs.github.com/rest/issues/issues#create-an-issue"

// createIssue opens an issue as the token's identity, with its labels in the
// same request (GitHub creates a label that does not exist yet), and answers
// 201 with the issue and its Location, as GitHub does.
func (h rest) createIssue(c *call) reply {
	var in struct {
		Title  *string         `json:"title"`
		Body   *string         `json:"body"`
		Labels json.RawMessage `json:"labels"`
	}
	if len(strings.TrimSpace(string(c.body))) > 0 && json.Unmarshal(c.body, &in) != nil {
		return badJSON(docCreateIssue)
	}
	if in.Title == nil || strings.TrimSpace(*in.Title) == "" {
		return invalid(docCreateIssue, fieldError{Resource: "Issue", Field: "title", Code: "missing_field"})
	}
	var labels []string
	if len(in.Labels) > 0 && !isNull(in.Labels) {
		names, good := parseLabels(in.Labels)
		if !good {
			return invalid(docCreateIssue, fieldError{Resource: "Issue", Field: "labels", Code: "invalid"})
		}
		labels = names
	}
	is := Issue{Title: *in.Title, User: h.s.identity, Labels: labels, CreatedAt: c.now, UpdatedAt: c.now}
	if in.Body != nil {
		is.Body = *in.Body
	}
	n := h.s.addLocked(is)
	out := c.issue(h.db.byNum[n], false)
	return reply{status: http.StatusCreated, body: out, header: http.Header{"Location": {out.URL}}}
}
