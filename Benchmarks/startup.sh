#!/usr/bin/env bash
# Where a short query's time goes: the CPU time (user + system) of one process
# answering a one-row query, pq beside sqlite3 on the same store, for each pq
# binary given (say the release build linked as usual and one linked with
# --static-swift-stdlib), plus `pq --version` (start-up and nothing else) and the
# number of shared libraries each binary loads. Medians of RUNS interleaved samples
# (each the mean of 50 runs from one shell, whose own start is in every case alike).
#
#   Benchmarks/startup.sh RUNS PQ [PQ …]
#
# Build the binaries at the repository root:
#   swift build -c release --product pq                          # .build/release/pq
#   swift build -c release --product pq --static-swift-stdlib \
#       --scratch-path .build-static                             # .build-static/release/pq
#   swift build -c release --product pq --static-swift-stdlib \
#       -Xswiftc -Xclang-linker -Xswiftc -no-pie \
#       --scratch-path .build-nopie                              # .build-nopie/release/pq
# Needs sqlite3 and GNU time (/usr/bin/time).
set -euo pipefail

runs=${1:?usage: startup.sh RUNS PQ [PQ …]}
shift
[ $# -gt 0 ] || { echo "usage: startup.sh RUNS PQ [PQ …]" >&2; exit 1; }
command -v sqlite3 >/dev/null || { echo "sqlite3 is not installed (apt-get install sqlite3)" >&2; exit 1; }
[ -x /usr/bin/time ] || { echo "GNU time is not installed (apt-get install time)" >&2; exit 1; }

here=$(cd "$(dirname "$0")" && pwd)
data=$here/.build-data
mkdir -p "$data"
store=$data/startup.sqlite
if [ ! -f "$store" ]; then
    sqlite3 "$store.tmp" "
        CREATE TABLE item (id INTEGER PRIMARY KEY, name TEXT NOT NULL, amount REAL);
        WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 1000)
        INSERT INTO item SELECT i, 'item ' || i, i / 10.0 FROM n;"
    mv "$store.tmp" "$store"
fi

# name|command
cases=("sqlite3|sqlite3 '$store' 'SELECT id, name, amount FROM item WHERE id = 500'")
for pq in "$@"; do
    [ -x "$pq" ] || { echo "no pq at $pq" >&2; exit 1; }
    cases+=("$pq query|'$pq' --store '$store' 'item where id == 500'")
    cases+=("$pq --version|'$pq' --version")
done

# A sample is the CPU time of BATCH runs of a command from one shell, divided by
# BATCH: GNU time counts in hundredths of a second, coarser than one short query.
batch=50
declare -A samples
for ((run = 0; run < runs; run++)); do
    for entry in "${cases[@]}"; do
        name=${entry%%|*}
        command=${entry#*|}
        /usr/bin/time -f '%U %S' -o "$data/time.txt" bash -c "for ((i = 0; i < $batch; i++)); do $command; done" >/dev/null 2>&1
        cpu=$(tail -1 "$data/time.txt" | awk -v n=$batch '{ printf "%.6f", ($1 + $2) / n }')
        samples[$name]+="$cpu "
    done
done

median() { tr ' ' '\n' | grep -v '^$' | sort -g | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }
base=$(echo "${samples[sqlite3]}" | median)
printf '%-60s %12s %10s\n' "command" "CPU ms" "× sqlite3"
for entry in "${cases[@]}"; do
    name=${entry%%|*}
    value=$(echo "${samples[$name]}" | median)
    awk -v n="$name" -v v="$value" -v b="$base" 'BEGIN { printf "%-60s %12.1f %10.1f\n", n, v * 1000, (b > 0 ? v / b : 0) }'
done
for pq in "$@"; do
    echo "$pq loads $(ldd "$pq" | grep -c '=>') shared libraries"
done
