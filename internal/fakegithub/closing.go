package fakegithub

import (
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// closingIssuesReferences: the issues a pull request closes when merged,
// as GitHub links them: by hand (Issue.LinkedIssues, the Development
// sidebar), and by a closing keyword in its description ("Fixes #12",
// "closes: octo-org/widgets#12"), which GitHub reads only on a pull request
// to the default branch. Pull requests and numbers that are no issue link
// nothing.

var closingKeywordRE = regexp.MustCompile(`(?i)\b(?:close[sd]?|fix(?:e[sd])?|resolve[sd]?):?\s+([\w.-]+/[\w.-]+)?#(\d+)\b`)

// closingIssues is what r's closingIssuesReferences lists, keywords first
// in the order written, then the hand links; userLinkedOnly keeps the hand
// links alone. The caller holds s.mu.
func (s *Server) closingIssues(r *issueRec, userLinkedOnly bool) []*issueRec {
	var nums []int
	if !userLinkedOnly && r.BaseRef == s.defaultBranch {
		for _, m := range closingKeywordRE.FindAllStringSubmatch(r.Body, -1) {
			if m[1] != "" && !strings.EqualFold(m[1], s.FullName()) {
				continue // another repository's issue: not the fake's
			}
			if n, err := strconv.Atoi(m[2]); err == nil {
				nums = append(nums, n)
			}
		}
	}
	nums = append(nums, r.LinkedIssues...)
	var out []*issueRec
	for _, n := range nums {
		if is, ok := s.db.byNum[n]; ok && !is.IsPR && !slices.Contains(out, is) {
			out = append(out, is)
		}
	}
	return out
}

func init() {
	pullRequestResolvers["closingIssuesReferences"] = func(x *gexec, src any, args map[string]any) (any, error) {
		only, _ := args["userLinkedOnly"].(bool)
		issues := x.s.closingIssues(src.(*issueRec), only)
		items := make([]item, len(issues))
		for i, is := range issues {
			items[i] = item{key: []int64{int64(i)}, v: gobj{"Issue", is}}
		}
		return paginate(items, args)
	}
	resolvers["IssueConnection"] = connResolvers
	resolvers["Issue"] = map[string]resolver{
		"id":                pr(func(r *issueRec) any { return nodeID("I", issueID(r.Number)) }),
		"number":            pullRequestResolvers["number"],
		"author":            pullRequestResolvers["author"],
		"authorAssociation": pullRequestResolvers["authorAssociation"],
		"labels":            pullRequestResolvers["labels"],
		"assignees":         pullRequestResolvers["assignees"],
	}
}
