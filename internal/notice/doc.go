// Package notice owns the text stalepr posts: the default messages, the
// placeholders users may put in their own, and the hidden markers by which a
// later run recognises our comments (and so never posts one twice).
package notice
