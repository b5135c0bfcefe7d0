// Package notice owns the text stalepr posts: the one table of default
// messages (the rules' words, each in its rule's file, and the nudge's and
// the escalation's), the placeholders users may put in their own, and the
// hidden markers by which a later run recognises our comments (and so never
// posts one twice).
package notice
