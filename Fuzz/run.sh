#!/usr/bin/env bash
# Fuzzes pq with libFuzzer for a number of seconds (default 60), then exits
# non-zero if libFuzzer found a crash, a timeout, a leak or an out-of-memory, or
# an input broke one of FuzzPipeline's invariants.
#
#   Fuzz/run.sh [SECONDS] [extra libFuzzer flags…]
#
# The instrumented build goes to .build-fuzz/ (apart from the main .build/). The
# corpus starts from every example in Grammar/examples.pq, every query in the
# golden files and the committed regression inputs in Fuzz/Regressions/; what
# libFuzzer adds is kept in .build-fuzz/corpus/ between local runs. A finding is
# written to .build-fuzz/findings/; see README.md ("Fuzzing") for turning it into
# a regression input.
set -euo pipefail
cd "$(dirname "$0")"
seconds=${1:-60}
shift || true

work=../.build-fuzz
mkdir -p "$work/seeds" "$work/corpus" "$work/findings"

# One -sanitize=fuzzer,address: given as two flags, swiftc keeps only the last, and
# -sanitize=address alone drops libFuzzer's coverage instrumentation.
flags="--sanitize=fuzzer -Xswiftc -sanitize=fuzzer,address"
echo "fuzz: building with -sanitize=fuzzer,address (in $work)"
if ! swift build -c debug $flags --scratch-path "$work" --product PQFuzz > "$work/build.log" 2>&1; then
    tail -n 40 "$work/build.log"
    echo "fuzz: FAILED to build the fuzzer" >&2
    exit 1
fi
binary="$(swift build -c debug $flags --scratch-path "$work" --show-bin-path)/PQFuzz"

# Seeds: one file per example and per golden query.
rm -f "$work"/seeds/*
index=0
while IFS= read -r line; do
    index=$((index + 1))
    printf '%s' "$line" > "$work/seeds/example-$index"
done < <(grep -v '^#' ../Grammar/examples.pq | grep -v '^[[:space:]]*$'; \
         find ../Tests -path '*/Golden/*' -name '*.txt' -exec grep -h '^> ' {} + | cut -c3-)
cp Regressions/* "$work/seeds/" 2>/dev/null || true
echo "fuzz: $index seed inputs, $(ls Regressions | wc -l) regression inputs, $seconds s"

# libFuzzer reports crashes itself; Swift's backtracer would race it under ASan.
export SWIFT_BACKTRACE=enable=no
status=0
"$binary" "$work/corpus" "$work/seeds" \
    -dict=pq.dict -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -max_len=4096 \
    -print_final_stats=1 -artifact_prefix="$work/findings/" "$@" 2> "$work/fuzz.log" || status=$?
grep -E '^(#[0-9]+.*DONE|stat::number_of_executed_units|stat::peak_rss_mb|Done [0-9]+ runs)' "$work/fuzz.log" || true
if [ "$status" -ne 0 ]; then
    tail -n 60 "$work/fuzz.log"
    echo "fuzz: FAILED (libFuzzer exit status $status); the input is in $work/findings/" >&2
    exit 1
fi
echo "fuzz: no crash, timeout, out-of-memory or broken invariant"
