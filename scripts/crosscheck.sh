#!/bin/bash
# crosscheck.sh RUNNER BINARY: checks a cross-built engine through an
# emulator (wine for Windows, qemu-user for Linux arm64), as a GUI and a
# user would meet it: the UCI handshake, "go" with AlphaBeta and with MCTS
# (ONNX Runtime loaded from beside the binary), bench and perft. Each check
# prints one line; the script fails on the first that does not pass.
set -u -o pipefail
runner=$1 bin=$2
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
# shellcheck disable=SC2086 # the runner may be a command with arguments
run() { timeout 300 $runner "$bin" "$@"; }

check() { # check NAME FILE REGEX...: every regex must match a line of FILE
	local name=$1 file=$2
	shift 2
	for re in "$@"; do
		if ! grep -Eq -- "$re" "$file"; then
			echo "FAIL $name: no line matches /$re/"
			sed 's/^/    /' "$file" | tail -20
			exit 1
		fi
	done
	echo "ok   $name"
}

start=$(date +%s)
printf 'uci\nisready\nquit\n' | run >"$out/uci" 2>&1
check "uci handshake" "$out/uci" '^id name Twofold ' '^option name Search type combo default AlphaBeta var AlphaBeta var MCTS$' '^uciok' '^readyok'

printf 'position startpos moves e2e4\ngo depth 8\nisready\n' | run >"$out/ab" 2>&1
check "go depth 8 (AlphaBeta)" "$out/ab" '^info depth 8 .* pv [a-h][1-8]' '^bestmove [a-h][1-8][a-h][1-8]'

# MCTS: the runtime is found beside the binary (no option, no environment).
# One search per process: a command after "go" would stop it, and at the
# end of the input the engine lets a search with a limit finish.
printf 'setoption name Search value MCTS\nposition startpos\ngo nodes 200\n' | ONNXRUNTIME_LIB= run >"$out/mcts" 2>&1
check "go nodes 200 (MCTS, ONNX Runtime found beside the binary)" "$out/mcts" \
	'^info string MCTS with network <default> \(ONNX Runtime .*onnxruntime' '^info depth [0-9]+ .* nodes 200 ' '^bestmove [a-h][1-8][a-h][1-8]'
printf 'setoption name Search value MCTS\nposition fen 6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1\ngo nodes 400\n' | ONNXRUNTIME_LIB= run >"$out/mate" 2>&1
check "go nodes 400 (MCTS finds mate in one)" "$out/mate" 'score mate 1 ' '^bestmove a1a8'

run bench --depth 8 >"$out/bench" 2>&1
check "bench --depth 8" "$out/bench" '^[0-9]+ nodes [0-9]+ nps'

run bench --search mcts --movetime 1000 --positions 2 >"$out/benchm" 2>&1
check "bench --search mcts" "$out/benchm" 'nodes [0-9]+ nps'

run perft --depth 5 >"$out/perft" 2>&1
check "perft --depth 5" "$out/perft" '^Nodes searched: 4865609$'

echo "all checks passed for $bin under $runner in $(($(date +%s) - start)) s"
