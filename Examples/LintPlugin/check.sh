#!/usr/bin/env bash
# Proves pq's lint plugins on this package, as pq's CI runs it: the build (build
# tool plugin) and `swift package pq-lint` (command plugin) both report the planted
# error — the enum compared as itself — at its line in TripQueries.swift, and both
# fail because of it. Arguments are passed to both swift commands (pq's CI passes
# `--scratch-path` to build in pq's own build folder).
set -uo pipefail
cd "$(dirname "$0")"
expected="Sources/TripQueries/TripQueries.swift:8:"
status=0

build=$(swift build "$@" 2>&1); build_status=$?
if [ $build_status -eq 0 ] || ! grep -q "$expected.*error: .*\[enum-compared-as-itself\]" <<<"$build"; then
    echo "check.sh: the build did not fail with the planted error at $expected" >&2
    tail -n 40 <<<"$build" >&2
    status=1
else
    echo "build: $(grep -m1 "$expected" <<<"$build")"
fi

command=$(swift package "$@" pq-lint 2>&1); command_status=$?
if [ $command_status -eq 0 ] || ! grep -q "$expected.*error: .*\[enum-compared-as-itself\]" <<<"$command"; then
    echo "check.sh: swift package pq-lint did not report the planted error at $expected" >&2
    tail -n 40 <<<"$command" >&2
    status=1
else
    echo "swift package pq-lint: $(grep -m1 "$expected" <<<"$command")"
fi
exit $status
