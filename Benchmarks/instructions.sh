#!/usr/bin/env bash
# Instructions per compile (text to SQL) and per Foundation build (text to
# `Predicate`) of each SPEC example, or of the queries given: callgrind counts
# `pq-bench repeat` inside `measuredRepetitions` only, at LOW and HIGH repetitions,
# and (HIGH - LOW) / (HIGH - LOW repetitions) is one repetition without the
# process's set-up. Counts move by about 1 % from run to run (the hashing seed);
# times on a shared machine move by half, so compare builds by these. To compare
# two commits, run this script in a worktree of each (git worktree add).
#
#   Benchmarks/instructions.sh [compile|foundation|both] [QUERY …]
#
# Needs valgrind. Builds pq-bench in release first.
set -euo pipefail

work=${1:-both}
case "$work" in
compile | foundation) works=("$work") ;;
both) works=(compile foundation) ;;
*) echo "usage: instructions.sh [compile|foundation|both] [QUERY …]" >&2; exit 2 ;;
esac
[ $# -gt 0 ] && shift
command -v valgrind >/dev/null || { echo "valgrind is not installed (apt-get install valgrind)" >&2; exit 1; }

here=$(cd "$(dirname "$0")" && pwd)
swift build -c release --package-path "$here" --product pq-bench >&2
bench=$(swift build -c release --package-path "$here" --show-bin-path)/pq-bench

queries=()
if [ $# -gt 0 ]; then
    queries=("$@")
else
    while IFS= read -r line; do queries+=("$line"); done < <("$bench" examples)
fi

low=200
high=600
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT

# The instructions counted inside measuredRepetitions for COUNT repetitions; "refused: …" when the query has no such work.
count() {
    local work=$1 repetitions=$2 query=$3
    local output
    output=$(valgrind --tool=callgrind --callgrind-out-file="$scratch/out" --toggle-collect='*measuredRepetitions*' \
        "$bench" repeat "$work" "$repetitions" "$query" 2>"$scratch/log")
    if [ -n "$output" ]; then
        echo "$output"
        return
    fi
    grep -o 'Collected : [0-9]*' "$scratch/log" | awk '{ print $3 }'
}

for work in "${works[@]}"; do
    echo "| $work: query | instructions |"
    echo "|---|---:|"
    for query in "${queries[@]}"; do
        a=$(count "$work" $low "$query")
        if [[ $a == refused:* ]]; then
            printf '| `%s` | %s |\n' "${query//|/\\|}" "$a"
            continue
        fi
        b=$(count "$work" $high "$query")
        printf '| `%s` | %d |\n' "${query//|/\\|}" $(((b - a) / (high - low)))
    done
    echo
done
