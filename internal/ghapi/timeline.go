package ghapi

import (
	"strings"
	"time"

	"github.com/stalepr/stalepr/internal/lifecycle"
	"github.com/stalepr/stalepr/internal/notice"
)

// timelineEvent decodes the timeline ourselves: go-github's Timeline type has
// no field for the review comments of "line-commented" events.
type timelineEvent struct {
	Event       string     `json:"event"`
	ID          int64      `json:"id"` // a "commented" event's: the comment's ID
	SHA         string     `json:"sha"`
	Actor       *user      `json:"actor"`
	User        *user      `json:"user"`
	CreatedAt   *time.Time `json:"created_at"`
	SubmittedAt *time.Time `json:"submitted_at"`
	Body        string     `json:"body"`
	State       string     `json:"state"` // reviewed
	// AuthorAssociation qualifies commented and reviewed events: whether
	// the account is a maintainer decides whose turn a PR is on.
	AuthorAssociation string `json:"author_association"`
	Label             *struct {
		Name string `json:"name"`
	} `json:"label"`
	Parents []struct {
		SHA string `json:"sha"`
	} `json:"parents"`
	Author            *gitPerson `json:"author"`
	Committer         *gitPerson `json:"committer"`
	RequestedReviewer *user      `json:"requested_reviewer"`
	RequestedTeam     *struct {
		Slug string `json:"slug"`
	} `json:"requested_team"`
	Comments []struct {
		User              *user     `json:"user"`
		CreatedAt         time.Time `json:"created_at"`
		AuthorAssociation string    `json:"author_association"`
	} `json:"comments"`
}

// gitPerson is a commit's git author or committer: a name and an e-mail,
// no GitHub account.
type gitPerson struct {
	Name  string    `json:"name"`
	Email string    `json:"email"`
	Date  time.Time `json:"date"`
}

// isBot: apps commit as "NAME[bot]" with ID+NAME[bot]@users.noreply.github.com.
// GitHub's own web-flow committer ("GitHub", noreply@github.com) is not a
// bot: it commits what a person did in the web interface.
func (g *gitPerson) isBot() bool {
	if g == nil {
		return false
	}
	email := strings.ToLower(g.Email)
	return lifecycle.IsBotLogin(g.Name) || strings.HasSuffix(email, "[bot]@users.noreply.github.com")
}

// login is the GitHub account a git identity names, where REST tells it:
// a private commit e-mail, ID+LOGIN@users.noreply.github.com (or the older
// LOGIN@users.noreply.github.com), is the account's own. GitHub's web-flow
// committer (noreply@github.com) and other e-mails name no account: "".
func (g *gitPerson) login() string {
	if g == nil {
		return ""
	}
	local, ok := strings.CutSuffix(strings.ToLower(g.Email), "@users.noreply.github.com")
	if !ok || local == "" {
		return ""
	}
	if _, name, found := strings.Cut(local, "+"); found {
		local = name
	}
	return local
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
	"convert_to_draft":       lifecycle.ConvertedToDraft,
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
			ev := lifecycle.Event{Kind: lifecycle.ReviewCommented, At: c.CreatedAt, Association: c.AuthorAssociation}
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
		// Who pushed is not recorded; who made the commit is. A commit a
		// bot authored or committed (a branch updater's merge, a
		// formatter's fix-up) is the bot's, not a person's.
		ev.Actor, ev.Bot = "", e.Author.isBot() || e.Committer.isBot()
		ev.CommitAuthor, ev.CommitCommitter = e.Author.login(), e.Committer.login()
		ev.SHA = e.SHA
		for _, p := range e.Parents {
			ev.Parents = append(ev.Parents, p.SHA)
		}
	case lifecycle.Reviewed:
		ev.ReviewState, ev.Association = e.State, e.AuthorAssociation
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
		ev.CommentID = e.ID
		ev.Notice, ev.MarkedAt, ev.MarkHead = notice.Parse(e.Body)
		ev.Association = e.AuthorAssociation
	case lifecycle.Labeled, lifecycle.Unlabeled:
		if e.Label != nil {
			ev.Label = e.Label.Name
		}
	case lifecycle.ReviewRequested, lifecycle.ReviewRequestRemoved:
		if e.RequestedReviewer != nil {
			ev.Reviewer, ev.ReviewerBot = e.RequestedReviewer.identity()
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
