#!/usr/bin/env bash
# The build-time figure of BENCHMARKS.md: seconds of clean release build of `binspec-formats` (code generation from
# every schema, then rustc) per 1,000 lines of schema. Its dependencies are built first and not counted; run it on
# an otherwise idle machine (`uptime` before and after is printed, to show that it was).
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --locked -p binspec-formats --all-features >/dev/null 2>&1
cargo clean --release -p binspec-formats >/dev/null 2>&1
lines=$(cat schemas/*.ksy | wc -l)
uptime
start=$(date +%s.%N)
cargo build --release --locked -p binspec-formats --all-features >/dev/null 2>&1
end=$(date +%s.%N)
uptime
awk -v s="$start" -v e="$end" -v n="$lines" 'BEGIN {
    t = e - s
    printf "schema lines: %d\nclean release build of binspec-formats: %.1f s\nper 1,000 schema lines: %.1f s\n", n, t, t * 1000 / n
}'
