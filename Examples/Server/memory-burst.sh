#!/usr/bin/env bash
# Memory after a burst (README "Memory after a burst"): 16 clients post distinct
# 950 KB filters of 96,000 unknown names to a running pq-server for SECONDS (each
# is answered 400 with 50 diagnostics), and the server's RSS is read from /proc
# before, at the peak, and 1, 5 and 15 s after. Linux only; needs curl and awk.
#
#   Examples/Server/memory-burst.sh PORT PID [SECONDS] [same|distinct]
set -euo pipefail
port=$1 pid=$2 seconds=${3:-10} mode=${4:-distinct}
bodies=$(mktemp -d)
trap 'rm -rf "$bodies"' EXIT
for k in $(seq 0 63); do
    awk -v k="$k" 'BEGIN { printf "{\"entity\": \"Budget\", \"filter\": \""; for (i = 0; i < 96000; i++) printf "%sz%02d%d", (i ? "||" : ""), k, i; printf "\"}" }' \
        > "$bodies/$k.json"
done
rss() { awk '/VmRSS/ { printf "%.1f", $2 / 1024 }' "/proc/$pid/status"; }
before=$(rss) peak=$(rss)
end=$(( $(date +%s) + seconds ))
for client in $(seq 0 15); do
    (
        request=0
        while [ "$(date +%s)" -lt "$end" ]; do
            body=$bodies/0.json
            [ "$mode" = distinct ] && body=$bodies/$(( (client * 4 + request) % 64 )).json
            curl -s -o /dev/null -w '%{http_code}\n' "localhost:$port/query" --data-binary "@$body" >> "$bodies/codes.$client"
            request=$(( request + 1 ))
        done
    ) &
done
while [ "$(date +%s)" -lt "$end" ]; do
    peak=$(echo "$(rss) $peak" | awk '{ print ($1 > $2) ? $1 : $2 }')
    sleep 0.2
done
wait
sleep 1; after1=$(rss); sleep 4; after5=$(rss); sleep 10; after15=$(rss)
echo "RSS MiB: before $before, peak $peak, 1 s after $after1, 5 s after $after5, 15 s after $after15"
echo "responses: $(cat "$bodies"/codes.* | sort | uniq -c | awk '{ printf "%s×%s ", $1, $2 }')"
