package lifecycle

import (
	"strings"
	"time"
)

// Command is a command on closed PRs: a comment of the PR whose line
// starts with its word asks stalepr to act on a PR it closed. It is a unit
// as a Rule is (rule_<name>.go: its word, what the run reads for it, its
// decision, its words), apart from Rule because it decides what a rule
// never sees: a closed PR, from the closed listing and the history, where
// Decide's rules decide the open PRs the run lists, the first that answers
// for each; and what it calls for is a reopening and an answer, not a
// Decision's mark, close or keep. The sweep's commander asks each command
// of the list (Commands) of each closed PR whose history holds a command.
type Command struct {
	// Name keys its words (notice.Text, Key.Rule). No marker records it:
	// our answer's marker (CommandNotice) is the one every version wrote;
	// a second command's answer would record its name beside it, as a
	// close's marker records its rule.
	Name RuleName
	// Word is the command's word under p ("" off): a comment whose line
	// starts with it asks for it (IsCommand).
	Word func(p Policy) string
	// Needs adds to n what the run must read for the command under p at
	// now: the closed PRs it looks among (Needs.Closed).
	Needs func(p Policy, now time.Time, n *Needs)
	// Decide decides the command on a closed PR from its history (any
	// order; markers trusted only from o.Self) and what its listing says.
	Decide func(pr PR, events []Event, c ClosedFacts, o Options) CommandDecision
	// Words are the default texts of its answers (TextAnswer), by the
	// reason of the decision each answers; an answer has no input of its
	// own, and its words may say {{repository}} and {{number}}
	// (notice.Answer).
	Words []Word
}

// CommandNotice is our answer to a command (notice.AnsweredMarker): one
// after a close answers every command after that close, so each close is
// answered at most once, whatever runs and events come.
const CommandNotice Notice = 66

// AsksCommand reports whether a comment's text asks for a command that is
// on under p (IsCommand).
func (p Policy) AsksCommand(body string) bool {
	for _, c := range commands {
		if IsCommand(body, c.Word(p)) {
			return true
		}
	}
	return false
}

// CommandsOn reports whether some command's word is set under p.
func (p Policy) CommandsOn() bool {
	for _, c := range commands {
		if c.Word(p) != "" {
			return true
		}
	}
	return false
}

// IsCommand reports whether a comment's text asks for word: one of its
// lines starts with it, alone or followed by a space ("/reopen", "/reopen
// please"), in any letter case. A quote ("> /reopen") or a word inside a
// sentence asks nothing; an empty word never matches (the command is off).
func IsCommand(body, word string) bool {
	word = strings.TrimSpace(word)
	if word == "" {
		return false
	}
	for _, line := range strings.Split(body, "\n") {
		first, _, _ := strings.Cut(strings.TrimSpace(line), " ")
		if strings.EqualFold(strings.TrimSpace(first), word) {
			return true
		}
	}
	return false
}

// CommandVerdict is what a command calls for.
type CommandVerdict int

const (
	// NoCommand: nothing to do (no command since the last close, or
	// answered already).
	NoCommand CommandVerdict = iota
	// CommandReopen: reopen the PR, then answer.
	CommandReopen
	// CommandAnswer: answer only (Reason says with which words): what was
	// asked cannot be done, and the answer says how to continue.
	CommandAnswer
	// CommandIgnored: a command nobody answers (Reason says why).
	CommandIgnored
)

// ClosedFacts are what a closed PR's listing says beyond PR.
type ClosedFacts struct {
	Merged     bool
	BranchGone bool // its head branch is gone, alone or with its fork: GitHub refuses to reopen it
}

// CommandDecision is a closed PR's command, decided.
type CommandDecision struct {
	Verdict CommandVerdict
	Reason  Reason
	// Command is the command decided (its Name): its answer's words are
	// its, keyed by Reason.
	Command RuleName
	By      string    // who asked: the first command since the close by someone who may
	At      time.Time // when
	// ClosedAt is the close it undoes.
	ClosedAt time.Time
	// HumanOfRecord is, on a coding agent's PR, the person who answers
	// for it: they may ask as its author may.
	HumanOfRecord string
	// Unsure is a login whose write access would decide (a member or
	// collaborator who is not the author): learn it and decide again.
	// Until then it was decided as Options.Assume says.
	Unsure string
}
