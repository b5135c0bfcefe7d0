package ghapi

import (
	"time"

	"github.com/stalepr/stalepr/internal/lifecycle"
	"github.com/stalepr/stalepr/internal/notice"
)

// timelineEvent decodes the timeline ourselves: go-github's Timeline type has
// no field for the review comments of "line-commented" events.
type timelineEvent struct {
	Event       string     `json:"event"`
	SHA         string     `json:"sha"`
	Actor       *user      `json:"actor"`
	User        *user      `json:"user"`
	CreatedAt   *time.Time `json:"created_at"`
	SubmittedAt *time.Time `json:"submitted_at"`
	Body        string     `json:"body"`
	Label       *struct {
		Name string `json:"name"`
	} `json:"label"`
	Committer *struct {
		Date time.Time `json:"date"`
	} `json:"committer"`
	RequestedReviewer *user `json:"requested_reviewer"`
	RequestedTeam     *struct {
		Slug string `json:"slug"`
	} `json:"requested_team"`
	Comments []struct {
		User      *user     `json:"user"`
		CreatedAt time.Time `json:"created_at"`
	} `json:"comments"`
}

type user struct {
	Login string `json:"login"`
	Type  string `json:"type"`
}

var kinds = map[string]lifecycle.EventKind{
	"commented":              lifecycle.Commented,
	"reviewed":               lifecycle.Reviewed,
	"committed":              lifecycle.Committed,
	"head_ref_force_pushed":  lifecycle.ForcePushed,
	"labeled":                lifecycle.Labeled,
	"unlabeled":              lifecycle.Unlabeled,
	"reopened":               lifecycle.Reopened,
	"closed":                 lifecycle.Closed,
	"ready_for_review":       lifecycle.ReadyForReview,
	"renamed":                lifecycle.Renamed,
	"review_requested":       lifecycle.ReviewRequested,
	"review_request_removed": lifecycle.ReviewRequestRemoved,
	"convert_to_draft":       lifecycle.Edited,
	"assigned":               lifecycle.Edited,
	"unassigned":             lifecycle.Edited,
	"milestoned":             lifecycle.Edited,
	"demilestoned":           lifecycle.Edited,
	"base_ref_changed":       lifecycle.Edited,
}

func (e timelineEvent) events() []lifecycle.Event {
	if e.Event == "line-commented" || e.Event == "commit-commented" {
		out := make([]lifecycle.Event, 0, len(e.Comments))
		for _, c := range e.Comments {
			ev := lifecycle.Event{Kind: lifecycle.ReviewCommented, At: c.CreatedAt}
			ev.Actor, ev.Bot = c.User.identity()
			out = append(out, ev)
		}
		return out
	}
	name := e.Event
	if name == "" && e.SHA != "" {
		name = "committed"
	}
	ev := lifecycle.Event{Kind: kinds[name]}
	who := e.Actor
	if who == nil {
		who = e.User
	}
	ev.Actor, ev.Bot = who.identity()
	switch {
	case e.CreatedAt != nil:
		ev.At = *e.CreatedAt
	case e.SubmittedAt != nil:
		ev.At = *e.SubmittedAt
	case e.Committer != nil:
		ev.At = e.Committer.Date
	}
	switch ev.Kind {
	case lifecycle.Committed:
		ev.Actor, ev.Bot = "", false
	case lifecycle.Reviewed:
		if e.SubmittedAt != nil {
			ev.At = *e.SubmittedAt
		}
		if e.User != nil {
			ev.Actor, ev.Bot = e.User.identity()
		}
	case lifecycle.Commented:
		if e.User != nil {
			ev.Actor, ev.Bot = e.User.identity()
		}
		ev.Notice, ev.MarkedAt = notice.Parse(e.Body)
	case lifecycle.Labeled, lifecycle.Unlabeled:
		if e.Label != nil {
			ev.Label = e.Label.Name
		}
	case lifecycle.ReviewRequested, lifecycle.ReviewRequestRemoved:
		if e.RequestedReviewer != nil {
			ev.Reviewer = e.RequestedReviewer.Login
		} else if e.RequestedTeam != nil {
			ev.Reviewer = lifecycle.TeamPrefix + e.RequestedTeam.Slug
		}
	}
	if ev.At.IsZero() {
		return nil
	}
	return []lifecycle.Event{ev}
}

func (u *user) identity() (login string, bot bool) {
	if u == nil {
		return "", false
	}
	return u.Login, u.Type == "Bot"
}
