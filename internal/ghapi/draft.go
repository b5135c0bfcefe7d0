package ghapi

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"

	"github.com/stalepr/stalepr/internal/api"
)

// viewerQuery asks who the token acts as (Client.Viewer). It is the only
// GraphQL query sent, and the transport knows it for a read.
const viewerQuery = `query { viewer { login } }`

const convertToDraft = `mutation($id: ID!) { convertPullRequestToDraft(input: {pullRequestId: $id}) { pullRequest { isDraft } } }`

type graphqlResponse struct {
	// Data is decoded by converted: a malformed one is an answer that does
	// not say "converted", not a failure to read the answer.
	Data   json.RawMessage `json:"data"`
	Errors []struct {
		Type    string `json:"type"`
		Message string `json:"message"`
	} `json:"errors"`
}

// ConvertToDraft converts an open PR to a draft: one GraphQL request (REST
// has no endpoint for it). nodeID is lifecycle.PR.NodeID, the PullRequest
// node ID that the issue listing already gives. Converting a draft again
// changes nothing, so the request is safe to repeat.
//
// GitHub API docs: https://docs.github.com/graphql/reference/mutations#convertpullrequesttodraft
func (c *graphQL) ConvertToDraft(ctx context.Context, nodeID string) (err error) {
	// GraphQL's error messages are the server's text, printed in the PR's
	// log line: redacted as every other error.
	defer func() { err = c.redact(err) }()
	if nodeID == "" {
		return errors.New("convert to draft: the pull request's node ID is unknown")
	}
	body := map[string]any{"query": convertToDraft, "variables": map[string]string{"id": nodeID}}
	req, err := c.gh.NewRequest(http.MethodPost, c.gqlURL, body)
	if err != nil {
		return err
	}
	var out graphqlResponse
	if _, err := c.gh.Do(ctx, req, &out); err != nil {
		return c.fail(opWrite, err, "convert %s to draft", nodeID)
	}
	if len(out.Errors) == 0 {
		if why := notConverted(out.Data); why != "" {
			return fmt.Errorf("convert %s to draft: not converted: GitHub's answer %s, so the pull request is taken to be still open and not a draft", nodeID, why)
		}
		return nil
	}
	e := out.Errors[0]
	switch e.Type {
	case "FORBIDDEN":
		return fmt.Errorf("convert %s to draft: %w", nodeID, api.ErrDraftForbidden)
	case "RATE_LIMITED":
		return fmt.Errorf("convert %s to draft: %w: %s", nodeID, ErrRateLimited, e.Message)
	}
	return fmt.Errorf("convert %s to draft: not converted: GitHub answered %s: %s", nodeID, strings.ToLower(def(e.Type, "an error")), e.Message)
}

// notConverted says why a mutation's data does not prove the conversion;
// "" when it does. Only data.convertPullRequestToDraft.pullRequest.isDraft
// == true proves it: an empty answer, null data or isDraft false leaves a
// PR that may still be a normal open one, and the closing comment and label
// change must not follow.
func notConverted(data json.RawMessage) string {
	var d struct {
		Convert *struct {
			PullRequest *struct {
				IsDraft any `json:"isDraft"`
			} `json:"pullRequest"`
		} `json:"convertPullRequestToDraft"`
	}
	switch {
	case len(data) == 0 || string(data) == "null":
		return "has no data"
	case json.Unmarshal(data, &d) != nil:
		return "is not the mutation's result"
	case d.Convert == nil || d.Convert.PullRequest == nil:
		return "names no pull request"
	case d.Convert.PullRequest.IsDraft != true:
		return "does not say isDraft: true"
	}
	return ""
}

func def(v, d string) string {
	if v == "" {
		return d
	}
	return v
}
