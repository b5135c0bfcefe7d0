// Package testenv holds what the tests of several packages share about how
// they are run. Only tests import it.
package testenv
