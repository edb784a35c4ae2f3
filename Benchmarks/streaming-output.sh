#!/usr/bin/env bash
# pq's output streamed: time and peak memory (max RSS) of the release `pq` printing
# every row of a generated store in each format, beside `sqlite3` printing the same
# rows (the same seven columns, ordered by key as pq orders them), and how long
# `pq … | head -1` takes on a million rows. Medians of RUNS interleaved runs.
#
#   Benchmarks/streaming-output.sh [PQ] [ROWS] [RUNS]
#
# PQ defaults to the release build (`swift build -c release --product pq` at the
# repository root); ROWS to 500000; RUNS to 5. Needs sqlite3 and GNU time
# (/usr/bin/time), both in Debian's packages (sqlite3, time). Output goes to
# /dev/null, so what is timed is reading and formatting, not a terminal.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
pq=${1:-$here/../.build/release/pq}
rows=${2:-500000}
runs=${3:-5}

command -v sqlite3 >/dev/null || { echo "sqlite3 is not installed (apt-get install sqlite3)" >&2; exit 1; }
[ -x /usr/bin/time ] || { echo "GNU time is not installed (apt-get install time)" >&2; exit 1; }
[ -x "$pq" ] || { echo "no pq at $pq: swift build -c release --product pq" >&2; exit 1; }

data=$here/.build-data
mkdir -p "$data"

# A plain SQLite store of N items: short text, a text with commas and NULLs, a
# Double, an Int, and a note longer than a table cell (cut) in a third of the rows.
make_store() {
    local count=$1 path=$data/stream-$1.sqlite
    if [ ! -f "$path" ]; then
        sqlite3 "$path.tmp" "
            CREATE TABLE item (id INTEGER PRIMARY KEY, name TEXT NOT NULL, category TEXT, amount REAL, quantity INTEGER, note TEXT);
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < $count)
            INSERT INTO item SELECT i, 'item ' || i,
                CASE i % 5 WHEN 0 THEN 'food' WHEN 1 THEN 'travel' WHEN 2 THEN 'rent' WHEN 3 THEN NULL ELSE 'gifts, misc' END,
                (i % 10000) / 100.0, i % 97,
                CASE WHEN i % 3 = 0 THEN 'a note that is longer than forty characters, number ' || i END
            FROM n;"
        mv "$path.tmp" "$path"
    fi
    echo "$path"
}

store=$(make_store "$rows")
big=$(make_store 1000000)
query="item where TRUEPREDICATE"
sql='SELECT id, id, name, category, amount, quantity, note FROM item ORDER BY id'

# name|command, run with the store as $1.
cases=(
    "pq csv|$pq --store \"\$1\" --format csv '$query'"
    "sqlite3 -csv|sqlite3 -csv -header \"\$1\" '$sql'"
    "pq table|$pq --store \"\$1\" '$query'"
    "sqlite3 -box|sqlite3 -box \"\$1\" '$sql'"
    "pq json|$pq --store \"\$1\" --format json '$query'"
    "sqlite3 -json|sqlite3 -json \"\$1\" '$sql'"
    "pq markdown|$pq --store \"\$1\" --format markdown '$query'"
    "sqlite3 -markdown|sqlite3 -markdown \"\$1\" '$sql'"
)

results=$(mktemp)
trap 'rm -f "$results"' EXIT
for run in $(seq "$runs"); do
    for entry in "${cases[@]}"; do
        name=${entry%%|*}
        command=${entry#*|}
        /usr/bin/time -f "$name|%e|%M|%U|%S" -o "$results" -a bash -c "$command > /dev/null" _ "$store"
    done
    # The first line of a million rows, then the pipe closes.
    /usr/bin/time -f "pq csv, head -1 (1M rows)|%e|%M|%U|%S" -o "$results" -a \
        bash -c "$pq --store \"\$1\" --format csv '$query' | head -1 > /dev/null" _ "$big"
    /usr/bin/time -f "pq table, head -1 (1M rows)|%e|%M|%U|%S" -o "$results" -a \
        bash -c "$pq --store \"\$1\" '$query' | head -1 > /dev/null" _ "$big"
done

median() { sort -n | awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2]; else printf "%.2f\n", (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

# The median of field F (2: seconds, 3: max RSS in KB, 6: CPU seconds) of case NAME.
stat() { awk -F'|' -v name="$1" -v field="$2" '$1 == name { print (field == 6 ? $4 + $5 : $field) }' "$results" | median; }
ratio() { printf '%.2f' "$(echo "$1 / $2" | bc -l)"; }
mb() { printf '%.1f' "$(echo "$1 / 1024" | bc -l)"; }
awk -F'|' 'NF == 5 { print $1 "|" $2 "|" $4 + $5 }' "$results" | sed 's/^/run: /' >&2

echo "$rows rows, medians of $runs runs; $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg) at the end"
echo
echo "| format | pq (s) | sqlite3 (s) | ratio | pq CPU (s) | sqlite3 CPU (s) | ratio | pq peak RSS (MB) | sqlite3 peak RSS (MB) |"
echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|"
for pair in "csv|sqlite3 -csv" "table|sqlite3 -box" "json|sqlite3 -json" "markdown|sqlite3 -markdown"; do
    format=${pair%%|*}
    other=${pair#*|}
    pqTime=$(stat "pq $format" 2)
    otherTime=$(stat "$other" 2)
    pqCPU=$(stat "pq $format" 6)
    otherCPU=$(stat "$other" 6)
    echo "| $format (\`$other\`) | $pqTime | $otherTime | $(ratio "$pqTime" "$otherTime") | $pqCPU | $otherCPU | $(ratio "$pqCPU" "$otherCPU") | $(mb "$(stat "pq $format" 3)") | $(mb "$(stat "$other" 3)") |"
done
echo
for name in "pq csv, head -1 (1M rows)" "pq table, head -1 (1M rows)"; do
    echo "- $name: $(stat "$name" 2) s, peak RSS $(mb "$(stat "$name" 3)") MB"
done
