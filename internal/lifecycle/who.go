package lifecycle

import (
	"sort"
	"strings"
)

// Options is what Summarize knows of the accounts beyond what each event
// tells: stalepr's own logins, the accounts the project names as bots or as
// reviewers, each account's write access as the run learnt it, and the
// labels that put a PR on its author's turn.
type Options struct {
	Self []string // the logins stalepr writes as: only their comments carry our markers
	// Bots are accounts that are bots whatever GitHub says (bot-accounts):
	// a CI robot that is a plain User. Never activity, never a turn.
	Bots []string
	// Reviewers are logins counted as maintainers whatever their access,
	// and teams ("org/slug") whose pending review request a person's
	// review answers as a maintainer's (reviewers), for projects whose
	// reviewers are not all committers. Team membership cannot be read
	// with a repository token: while such a team's review is requested,
	// a review by a member of the organisation (author_association
	// MEMBER or OWNER) but the author is taken for its member's; anyone
	// else's answers for no team (who.answersListedTeam).
	Reviewers []string
	// Access is each account's write access as the run learnt it (its
	// repository permission), by lower-case login. A review's own Access
	// (authorCanPushToRepository) answers for its author too.
	Access map[string]Access
	// Assume is what an account of unknown access counts as: AccessUnknown
	// lets its author_association decide (IsMaintainer). The sweep sets
	// the other two to learn whether an account's access would change a
	// decision, before it asks GitHub.
	Assume Access
	// AuthorTurnLabels put a PR on its author's turn while it carries one
	// (author-turn-when-labeled).
	AuthorTurnLabels []string
	// ChecksFail: a completed, failing, required check on the head commit
	// after the author's last action puts a PR on its author's turn
	// (author-turn-when-checks-fail; see failingCheck).
	ChecksFail bool
	// AuthorTurnLabel, ReviewersTurnLabel are the turn labels stalepr keeps
	// (DecideTurnLabels); a person adding one by hand hands the turn to
	// that party, taking one off to the other.
	AuthorTurnLabel, ReviewersTurnLabel string
	// ConflictLabel is conflict-label: our addition of it, still on,
	// records when we first saw a merge conflict (turnFold.conflictSince).
	ConflictLabel string
	// Ancestry is the head commit's first-parent chain, head first, as far
	// as the sweep read it for a PR whose history could not tell who moved
	// the head (Activity.NeedsAncestry). AssumeOnlyBots is the sweep's
	// question before it reads (on): what if the commits not read yet lead
	// to the mark's head through bots' alone (would reading them change a
	// decision?).
	Ancestry       []Commit
	AssumeOnlyBots bool
	// Agents are coding agents' logins besides Agents (agent-accounts):
	// their PRs have a human of record (who.humanOfRecord).
	Agents []string
	// Intake: the intake clock is on; Summarize reads its part of the
	// history too (Activity.Intake).
	Intake bool
}

// Options are the Summarize options of a policy, for self.
func (p Policy) Options(self []string) Options {
	return Options{Self: self, Bots: p.BotAccounts, Reviewers: p.Reviewers, AuthorTurnLabels: p.AuthorTurnLabels,
		ChecksFail: p.AuthorTurnWhenChecksFail, AuthorTurnLabel: p.AuthorTurnLabel, ReviewersTurnLabel: p.ReviewersTurnLabel,
		ConflictLabel: p.ConflictLabel, Agents: p.AgentAccounts, Intake: p.Intake.On}
}

// who tells stalepr's own logins, the bots, the PR's author, the
// maintainers and the other people apart (README "Whose turn it is", who
// counts).
type who struct {
	self      []string
	bots      []string
	reviewers []string
	author    string
	authorBot bool
	known     map[string]Access // the run's (Options.Access), by lower-case login: read, never copied
	reviewed  map[string]Access // told by this PR's reviews (authorCanPushToRepository), before known
	assume    Access
	// unsure collects the accounts whose maintainer-ness their
	// author_association decided (access unknown), by lower-case login.
	unsure map[string]string
	// association is each account's author_association as its comments
	// and reviews tell it, by lower-case login, for its events GitHub
	// does not qualify (a review request, a label): one account, one
	// answer, whatever the event.
	association map[string]string
	agents      []string // agent-accounts
	// human is the human of record of an agent's PR (humanOfRecord): what
	// they do but review counts as the author's. "" on anyone else's PR,
	// and when unknown.
	human string
}

func newWho(o Options, pr PR, events []Event) who {
	w := who{self: o.Self, bots: o.Bots, reviewers: o.Reviewers, author: pr.Author, assume: o.Assume,
		known: o.Access, reviewed: map[string]Access{}, unsure: map[string]string{}, association: map[string]string{}, agents: o.Agents}
	for _, e := range events {
		if e.Kind == Reviewed && e.Access != AccessUnknown && e.Actor != "" {
			w.reviewed[strings.ToLower(e.Actor)] = e.Access
		}
		if e.Association != "" && e.Actor != "" {
			w.association[strings.ToLower(e.Actor)] = e.Association
		}
	}
	w.authorBot = pr.AuthorBot || w.isBotLogin(pr.Author)
	if w.isAgent(pr.Author) {
		w.human = w.humanOfRecord(events)
	}
	return w
}

// isAgent reports whether login is a coding agent's (Agents, agent-accounts).
func (w who) isAgent(login string) bool { return isAgent(login, w.agents) }

// isHuman reports whether login is the human of record of the agent's PR.
func (w who) isHuman(login string) bool { return w.human != "" && strings.EqualFold(login, w.human) }

// personLogin reports whether login is a person's who may answer for an
// agent's PR: no bot, no agent, not stalepr, not a deleted account
// (REST's "ghost": nobody to mention).
func (w who) personLogin(login string, bot bool) bool {
	return login != "" && !bot && !w.isBotLogin(login) && !strings.EqualFold(login, "ghost")
}

// humanOfRecord is the person who answers for an agent's PR, from its
// history (oldest first): the person who delegated the work to the agent,
// as GitHub records it either way ("alice assigned Copilot", or the agent
// assigning the PR to the person it works for), the latest such; else the
// last person who marked it ready for review; else the first person whose
// commit or force-push reached it. "" when the history names nobody: then
// nobody is mentioned.
func (w who) humanOfRecord(events []Event) string {
	var delegated, ready, pushed string
	for _, e := range events {
		switch e.Kind {
		case Edited:
			if d := w.delegator(e); d != "" {
				delegated = d
			}
		case ReadyForReview:
			if w.personLogin(e.Actor, e.Bot) {
				ready = e.Actor
			}
		case Committed:
			if pushed == "" && w.personLogin(e.CommitAuthor, false) {
				pushed = e.CommitAuthor
			}
		case ForcePushed:
			if pushed == "" && w.personLogin(e.Actor, e.Bot) {
				pushed = e.Actor
			}
		}
	}
	switch {
	case delegated != "":
		return delegated
	case ready != "":
		return ready
	}
	return pushed
}

// delegator is the person an assignment names as the agent's delegator: a
// person assigning the agent, or the agent assigning a person; "" for any
// other assignment.
func (w who) delegator(e Event) string {
	agentAssigned := w.isAgent(e.Assignee) || strings.EqualFold(e.Assignee, w.author)
	agentActed := w.isAgent(e.Actor) || strings.EqualFold(e.Actor, w.author)
	switch {
	case e.Assignee == "":
		return ""
	case agentAssigned && w.personLogin(e.Actor, e.Bot):
		return e.Actor
	case agentActed && w.personLogin(e.Assignee, e.AssigneeBot):
		return e.Assignee
	}
	return ""
}

func (w who) isSelf(login string) bool { return login != "" && ContainsFold(w.self, login) }

// isBotLogin reports whether login is a GitHub App's login, one of bot-accounts, a coding
// agent's (one of agent-accounts may be a plain user), or stalepr itself.
func (w who) isBotLogin(login string) bool {
	return IsBotLogin(login) || login != "" && ContainsFold(w.bots, login) || w.isAgent(login) || w.isSelf(login)
}

// isBot reports whether e's actor is a bot account (GitHub's type, its login, bot-accounts), or stalepr itself.
func (w who) isBot(e Event) bool { return e.Bot || w.isBotLogin(e.Actor) }

// isAuthor reports whether login is the PR's author (never stalepr itself).
func (w who) isAuthor(login string) bool {
	return login != "" && strings.EqualFold(login, w.author) && !w.isSelf(login)
}

// isPerson reports whether the event is a person's. A commit is a person's unless a bot
// authored or committed it (GitHub records no pusher).
func (w who) isPerson(e Event) bool {
	if e.Kind == Committed {
		return !w.commitBot(e)
	}
	return e.Actor != "" && !w.isBot(e)
}

// counts reports whether the event is a person's or the PR author's own, bot or not: a
// bot-authored PR's author doing what it was asked (Dependabot's rebase)
// is the author acting.
func (w who) counts(e Event) bool { return w.isPerson(e) || w.byAuthor(e) }

// byAuthor reports whether the PR's author did e: on an agent's PR, the
// agent or its human of record, whose reviews stay reviews (they ask the
// agent for changes; GitHub lets them review a PR they did not open).
func (w who) byAuthor(e Event) bool {
	if e.Kind == Committed {
		return w.commitIsAuthor(e)
	}
	return w.isAuthor(e.Actor) || w.isHuman(e.Actor) && e.Kind != Reviewed && e.Kind != ReviewCommented
}

// commitBot reports whether a bot authored or committed the commit, by its git identity
// (Bot) or its GitHub accounts.
func (w who) commitBot(e Event) bool {
	return e.Bot || e.CommitAuthor != "" && w.isBotLogin(e.CommitAuthor) ||
		e.CommitCommitter != "" && w.isBotLogin(e.CommitCommitter)
}

// commitIsAuthor reports whether the commit counts as the PR author's. Its GitHub author
// or committer says so when either is known; a commit with no account is
// the author's unless a bot made it, and then only on a bot's PR.
func (w who) commitIsAuthor(e Event) bool {
	if w.isAuthor(e.CommitAuthor) || w.isAuthor(e.CommitCommitter) || w.isHuman(e.CommitAuthor) || w.isHuman(e.CommitCommitter) {
		return true
	}
	if e.CommitAuthor != "" || e.CommitCommitter != "" {
		return false // someone else's: a maintainer's fixup or "Update branch"
	}
	if w.commitBot(e) {
		return w.authorBot
	}
	return true
}

// commitLogin is whose a commit is, for "the last person": its author's
// account when known, else the PR's author.
func (w who) commitLogin(e Event) string {
	switch {
	case w.commitIsAuthor(e):
		return w.author
	case e.CommitAuthor != "":
		return e.CommitAuthor
	case e.CommitCommitter != "":
		return e.CommitCommitter
	}
	return w.author
}

// maintainer reports whether e's actor may push to the repository (write, maintain,
// admin), as e itself (a review), the run or another review told; where
// that is unknown, as assumed or as author_association says; an account
// with no tie to the repository (NONE, a first timer) is not one, and not
// asked about. Bots are never maintainers; reviewers always are.
func (w who) maintainer(e Event) bool {
	login, association := e.Actor, e.Association
	if login == "" || w.isBot(e) {
		return false
	}
	if ContainsFold(w.reviewers, login) {
		return true
	}
	if e.Access != AccessUnknown {
		return e.Access == AccessWrite
	}
	key := strings.ToLower(login)
	if a, ok := w.access(key); ok && a != AccessUnknown {
		return a == AccessWrite
	}
	if association == "" {
		association = w.association[key]
	}
	switch strings.ToUpper(association) {
	case "OWNER":
		return true // the repository's owner administers it
	case "NONE", "FIRST_TIMER", "FIRST_TIME_CONTRIBUTOR", "MANNEQUIN":
		// No tie to the repository and never a commit to it: a third
		// person, not worth a question. The one error this can make is
		// the harmless one (a private member who never committed: their
		// plain comment passes nothing; their review tells its access).
		return false
	}
	// MEMBER is any member of the organisation, COLLABORATOR any role on
	// the repository, CONTRIBUTOR anyone who committed (private members
	// too), "" an event GitHub does not qualify: only the permission tells
	// write access.
	w.unsure[key] = login
	if w.assume != AccessUnknown {
		return w.assume == AccessWrite
	}
	return IsMaintainer(association)
}

// answersListedTeam reports whether e is a person's review (not the author's) while a
// review is requested of a team listed in reviewers ("org/slug"; REST's
// request names the slug only, of the repository owner's organisation),
// by someone who may be of that team: a member of the organisation
// (orgMember). Anyone else (a first-time contributor, an outside
// collaborator, an account GitHub does not qualify) cannot be shown to
// answer for the team, so their review is their own.
func (w who) answersListedTeam(e Event, pending []string) bool {
	if e.Kind != Reviewed || e.Access == AccessWrite || !w.isPerson(e) || w.isAuthor(e.Actor) || !w.orgMember(e) {
		return false
	}
	for _, p := range pending {
		team, ok := strings.CutPrefix(p, TeamPrefix)
		if !ok {
			continue
		}
		for _, r := range w.reviewers {
			_, slug, isTeam := strings.Cut(r, "/")
			if isTeam && (strings.EqualFold(team, r) || !strings.Contains(team, "/") && strings.EqualFold(team, slug)) {
				return true
			}
		}
	}
	return false
}

// orgMember reports whether e's author_association (or, where e has
// none, the one the account's other comments and reviews tell) makes its
// actor a member of the repository's organisation: MEMBER, or OWNER (an
// organisation's owner). A team's members are all members of its
// organisation; the converse does not hold, and membership GitHub keeps
// private may read CONTRIBUTOR or NONE: such a review then answers no
// team, the harmless error (the PR stays on the reviewers' turn).
func (w who) orgMember(e Event) bool {
	association := e.Association
	if association == "" {
		association = w.association[strings.ToLower(e.Actor)]
	}
	switch strings.ToUpper(association) {
	case "MEMBER", "OWNER":
		return true
	}
	return false
}

// unsureLogins are the accounts whose access was unknown and consulted.
func (w who) unsureLogins() []string {
	out := make([]string, 0, len(w.unsure))
	for _, l := range w.unsure {
		out = append(out, l)
	}
	sort.Strings(out)
	return out
}

// reviewerBot reports whether e is a review request of a bot (Copilot code review is requested
// as "Copilot", a Bot).
func (w who) reviewerBot(e Event) bool {
	return e.Team == "" && (e.ReviewerBot || w.isBotLogin(e.Reviewer))
}

// requestKey names a review request's reviewer among the pending ones: the
// user's login, or the team with TeamPrefix ("team:org/slug", or REST's
// "team:slug").
func requestKey(e Event) string {
	if e.Team != "" {
		return TeamPrefix + e.Team
	}
	return e.Reviewer
}

// access is the write access of the account key (its lower-case login):
// what its own review on this PR told (authorCanPushToRepository), else
// what the run learnt of it (Options.Access, by lower-case login, read in
// place: copying the run's map into every PR's made a run's work grow
// with the square of its accounts).
func (w who) access(key string) (Access, bool) {
	if a, ok := w.reviewed[key]; ok {
		return a, true
	}
	a, ok := w.known[key]
	return a, ok
}
