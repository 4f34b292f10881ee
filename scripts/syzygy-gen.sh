#!/usr/bin/env bash
# Generates Syzygy tablebases with Ronald de Man's public generator
# (github.com/syzygy1/tb), built outside this repository.
#
#   scripts/syzygy-gen.sh GENDIR OUTDIR [TABLE...]
#
# GENDIR is the generator's src/ folder after "make rtbgen rtbgenp tbcheck";
# OUTDIR receives the .rtbw and .rtbz files. Without TABLE names it makes
# every 3- and 4-piece table. A table whose subtables are missing (the
# generator names them: captures and promotions lead into them) gets them
# first, recursively; of those only the WDL file is made, all the generator
# reads (SUBTABLES=both makes their DTZ files too). Tables already in OUTDIR
# are kept. THREADS (default 1) is passed on as -t. Finally tbcheck compares the embedded checksums of
# the tables with the generator's published list where it has them.
set -euo pipefail

if [ $# -lt 2 ]; then
  echo "usage: $0 GENDIR OUTDIR [TABLE...]" >&2
  exit 2
fi
gen=$(cd "$1" && pwd)
out=$2
shift 2
mkdir -p "$out"
out=$(cd "$out" && pwd)
threads=${THREADS:-1}

tables=("$@")
if [ ${#tables[@]} -eq 0 ]; then
  p=(Q R B N P)
  for a in "${p[@]}"; do tables+=("K${a}vK"); done
  for ((i = 0; i < 5; i++)); do
    for ((j = i; j < 5; j++)); do tables+=("K${p[i]}${p[j]}vK"); done
  done
  for ((i = 0; i < 5; i++)); do
    for ((j = i; j < 5; j++)); do tables+=("K${p[i]}vK${p[j]}"); done
  done
fi

# make TABLE [wdl]: generate it unless present, first making what it asks
# for; with "wdl" only its WDL file.
make_table() {
  local tb=$1 only=${2:-} tool=rtbgen log opt=
  if [ "$only" = wdl ]; then
    [ -f "$out/$tb.rtbw" ] && return 0
    opt=--wdl
  else
    [ -f "$out/$tb.rtbw" ] && [ -f "$out/$tb.rtbz" ] && return 0
  fi
  case $tb in *P*) tool=rtbgenp ;; esac
  # A run killed mid-table leaves the generator's pieces (KQPvKB.rtbw.1,
  # ...); they are remade from the start, so clear them first.
  rm -f "$out/$tb".rtbw.[0-9]* "$out/$tb".rtbz.[0-9]*
  log=$(mktemp)
  for _ in $(seq 1 64); do
    echo "generating $tb ${opt:+(WDL only)}" >&2
    if (cd "$out" && RTBPATH="$out" nice "$gen/$tool" -t "$threads" $opt "$tb") >"$log" 2>&1; then
      rm -f "$log"
      return 0
    fi
    missing=$(sed -n 's/.*Missing table: //p' "$log" | head -1)
    if [ -z "$missing" ]; then
      cat "$log" >&2
      rm -f "$log"
      return 1
    fi
    if [ "${SUBTABLES:-wdl}" = both ]; then make_table "$missing"; else make_table "$missing" wdl; fi
  done
  rm -f "$log"
  echo "$tb: too many missing subtables" >&2
  return 1
}

for tb in "${tables[@]}"; do make_table "$tb"; done

# The published checksums cover the official 3-5 piece set.
for kind in wdl dtz; do
  sums=$(git -C "$gen/.." show HEAD:checksums/${kind}345.txt 2>/dev/null || cat "$gen/../checksums/${kind}345.txt")
  ext=rtbw; [ $kind = dtz ] && ext=rtbz
  list=$(mktemp)
  for f in "$out"/*.$ext; do
    grep "^$(basename "$f"):" <<<"$sums" || true
  done >"$list"
  (cd "$out" && "$gen/tbcheck" --compare "$list")
  rm -f "$list"
done
