package config

import (
	"github.com/stalepr/stalepr/internal/lifecycle"
	"github.com/stalepr/stalepr/internal/notice"
)

// The default texts stalepr posts are chosen per case, so that what each
// says of the PR is true of it; a text of the user's own is kept as it is.

// staleTexts puts in the default stale notice that is true of each mark.
// Under author-turn "no activity" is not the reason: that one says whose
// turn and since when. A PR that is never closed (days-before-close -1)
// is told so, not "closed on never"; under ignore-updates the days count
// from its opening, not from its last activity. A stale-pr-message of the
// user's own serves every mark. (The runner passes action.yml's default
// as if set.)
func (c *Config) staleTexts() {
	if c.StaleMessage != notice.DefaultStale {
		return
	}
	switch {
	case c.Policy.StaleClock == lifecycle.ClockAuthorTurn:
		c.StaleMessage, c.StaleNoCloseMessage = notice.DefaultStaleAuthorTurn, notice.DefaultStaleAuthorTurnNoClose
	case c.Policy.IgnoreUpdates:
		// The days count from its opening: it may have had activity since.
		c.StaleMessage, c.StaleNoCloseMessage = notice.DefaultStaleOpen, notice.DefaultStaleOpenNoClose
	default:
		c.StaleNoCloseMessage = notice.DefaultStaleNoClose
	}
}

// StaleText is the stale notice's template for a PR that closes some day
// (a close date) or never.
func (c Config) StaleText(closes bool) string {
	if !closes && c.StaleNoCloseMessage != "" {
		return c.StaleNoCloseMessage
	}
	return c.StaleMessage
}

// closeTexts puts in the default closing comment that is true of each
// close: of a PR never marked (days-before-close 0), under author-turn,
// and under ignore-updates (the unmarked close counts from the opening).
// A close-pr-message of the user's own serves every close.
func (c *Config) closeTexts() {
	if c.CloseMessage != notice.DefaultClose {
		return
	}
	switch {
	case c.Policy.StaleClock == lifecycle.ClockAuthorTurn:
		c.CloseMessage, c.CloseNowMessage = notice.DefaultCloseAuthorTurn, notice.DefaultCloseNowAuthorTurn
	case c.Policy.IgnoreUpdates:
		c.CloseNowMessage = notice.DefaultCloseNowOpen
	default:
		c.CloseNowMessage = notice.DefaultCloseNow
	}
}

// CloseText is the closing comment's template for a PR marked stale before
// (every close but days-before-close 0's) or not.
func (c Config) CloseText(marked bool) string {
	if !marked && c.CloseNowMessage != "" {
		return c.CloseNowMessage
	}
	return c.CloseMessage
}
