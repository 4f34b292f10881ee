// Package mind is what a searcher offers whoever drives it (the UCI loop,
// the web board): start a search beside the caller, stop it, release a
// ponder search, forget what it learned, take the options every searcher
// shares, report progress in one form (Info) and answer in one form
// (Result); and how a searcher declares its own options (Option: name,
// type, default, range and setter), which the UCI loop lists and the web
// board sets (search.Settings and azero.Settings declare them). Both of
// Twofold's searchers implement Searcher themselves, the alpha-beta
// searcher (*search.Searcher) and the MCTS searcher (*azero.Searcher), so a
// driver needs no branch per searcher and one info formatter; package
// mindtest checks the contract.
//
// The package sits below the searchers and above the rules core: it knows
// boards, limits and the endgame tablebases both probe (Tablebases, opened
// once by the driver), nothing of UCI (searchers never import uci) nor of
// how either searcher works.
package mind
