// Package mindtest checks that a searcher keeps the mind.Searcher contract,
// the same way for each of Twofold's searchers (their tests call it) and
// for any searcher written later.
package mindtest
