#!/usr/bin/env bash
# Regenerates BENCHMARKS.md: runs every benchmark of binspec-benches (BYML and SARC against roead; RESTBL, AINB, BYML
# and SARC against tomolib; AINB against the `ainb` Python package; code generation), with the `peers` feature that
# builds roead and tomolib, and times a clean release build of the generated crate, then writes the
# summaries each benchmark prints, with the machine and the commands, into BENCHMARKS.md.
#
#   scripts/benchmarks.sh            the full run (about 15 minutes on 2 cores)
#   scripts/benchmarks.sh --quick    criterion's quick mode: rougher figures, a few minutes
#
# Run it on an otherwise idle machine: the figures are medians, but load that comes and goes still moves them.
set -euo pipefail
cd "$(dirname "$0")/.."
ARGS=("$@")
OUT=BENCHMARKS.md
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

summary_of() { # the Markdown the bench prints after criterion's output: from its first "### " heading on
  awk 'f || /^### / {f=1; print}' "$1"
}

for b in byml sarc tomolib ainb codegen; do
  echo "== cargo bench -p binspec-benches --features peers --bench $b ${ARGS[*]}" >&2
  cargo bench -p binspec-benches --features peers --bench "$b" -- "${ARGS[@]}" >"$TMP/$b.log" 2>"$TMP/$b.err" || {
    echo "benchmarks.sh: the $b benchmark failed:" >&2; tail -20 "$TMP/$b.err" >&2; exit 1; }
done

# A clean build of the generated crate: its build script generates every schema, then rustc compiles the result.
# Its dependencies stay built, so this is the crate's own cost.
echo "== clean release build of binspec-formats" >&2
cargo build -q --release -p binspec-formats
cargo clean -q --release -p binspec-formats
start=$(date +%s.%N)
cargo build -q --release -p binspec-formats
end=$(date +%s.%N)
build_s=$(echo "$end - $start" | bc)

{
  echo "# Benchmarks"
  echo
  echo "Written by \`scripts/benchmarks.sh${ARGS[*]:+ ${ARGS[*]}}\` on $(date -u +%Y-%m-%d), $(rustc --version)."
  echo "Machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')."
  echo "Each section is what its benchmark prints; ratios below 1 mean binspec is faster than the peer measured"
  echo "in the same run. See benches/README.md for what each benchmark does."
  echo
  for b in byml sarc tomolib ainb; do
    summary_of "$TMP/$b.log"
    echo
  done
  summary_of "$TMP/codegen.log"
  echo
  echo "### Build"
  echo
  echo "| what | time |"
  echo "|---|---:|"
  printf '| clean release build of `binspec-formats` (code generation from every schema, then rustc), dependencies already built | %.1f s |\n' "$build_s"
} >"$OUT"
echo "wrote $OUT" >&2
