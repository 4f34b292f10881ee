// Package twofold is the root of Twofold, a UCI chess engine in Go with two
// minds sharing one rules core: a classical alpha-beta searcher that
// evaluates with an NNUE network (packages search and nnue), and an
// AlphaZero-style Monte Carlo tree search driven by a policy-value network
// run by ONNX Runtime, learned from the rules alone (packages azero and
// azero/onnx). Both sit on the same board and move generator (packages
// board and movegen) and are driven through one interface (package mind)
// by the UCI loop (package uci) and the web board (package play).
//
// The root package holds no engine code. It carries this overview and the
// tests that keep the documentation honest: every relative link and anchor
// in the repository's Markdown files resolves, and docs/architecture.md
// names every package of the module.
//
// Where to read on:
//
//   - README.md: what Twofold is, how to build, play and test it, its
//     options, subcommands and current strength.
//   - docs/architecture.md: every package, the import rules, and how a
//     "go" becomes a "bestmove" in each mind.
//   - docs/play.md, docs/classical.md, docs/zero.md, docs/networks.md,
//     docs/strength.md, docs/testing.md, docs/releases.md: one topic each.
//   - CHANGELOG.md: search changes with their measurements, and network
//     releases.
//
// The engine binary is cmd/engine: "go run ./cmd/engine help" lists its
// subcommands.
package twofold
