#!/usr/bin/env bash
# Runs binspec's fuzz targets on this machine's stable toolchain (cargo fuzz with --sanitizer none, which needs no
# nightly), each seeded with the bundled fixtures of its format.
#
#   fuzz/run.sh                 every target, 60 s each, two at a time
#   fuzz/run.sh 600             every target, 600 s each
#   fuzz/run.sh 60 round_trip_ainb decode_byml    the named targets only
#
# Needs `cargo install cargo-fuzz`. Corpora grow in fuzz/corpus/TARGET and crashes land in fuzz/artifacts/TARGET
# (both ignored by git); a crash is then turned into a regression test (tests/tests/fuzz_regressions.rs).
set -euo pipefail
cd "$(dirname "$0")"
SECONDS_EACH="${1:-60}"
shift || true
command -v cargo-fuzz >/dev/null || { echo "run.sh: cargo-fuzz is not installed (cargo install cargo-fuzz)" >&2; exit 2; }

fixtures_for() {
  case "$1" in
    *_sarc) ls ../tests/fixtures/sarc/*.sarc 2>/dev/null ;;
    *_rsizetable) ls ../tests/fixtures/rsizetable/* 2>/dev/null | grep -v '\.md$\|\.json$\|\.yaml$' ;;
    *_byml) ls ../tests/fixtures/byml/*.byml 2>/dev/null ;;
    *_panim_pluto) ls ../tests/fixtures/panim_pluto/*.panim 2>/dev/null ;;
    *_panim_perro) ls ../tests/fixtures/panim_perro/*.panim 2>/dev/null ;;
    *_panim_pretarget) ls ../tests/fixtures/panim_perro/*.pretarget 2>/dev/null ;;
    *_ainb) ls ../tests/fixtures/ainb/*.ainb 2>/dev/null ;;
    *_bntx) ls ../tests/fixtures/bntx/*.bntx 2>/dev/null ;;
    *_bfres) ls ../tests/fixtures/bfres/*.bfres 2>/dev/null ;;
  esac
}

targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
  mapfile -t targets < <(ls fuzz_targets | sed 's/\.rs$//')
fi
# (cargo fuzz builds one target, or all of them when none is named.)
if [ $# -eq 0 ]; then cargo fuzz build --sanitizer none -O; else for t in "${targets[@]}"; do cargo fuzz build --sanitizer none -O "$t"; done; fi

run_one() {
  local t="$1"
  mkdir -p "corpus/$t" "artifacts/$t"
  for f in $(fixtures_for "$t"); do cp -n "$f" "corpus/$t/" 2>/dev/null || true; done
  if cargo fuzz run --sanitizer none -O "$t" "corpus/$t" -- -max_total_time="$SECONDS_EACH" \
      -artifact_prefix="artifacts/$t/" -rss_limit_mb=2048 -timeout=10 >"corpus/$t.log" 2>&1; then
    echo "$t: ok ($(grep -o 'Done [0-9]* runs' "corpus/$t.log" | tail -1), corpus $(ls "corpus/$t" | wc -l) files)"
  else
    echo "$t: FAILED, see fuzz/corpus/$t.log and fuzz/artifacts/$t/"
    return 1
  fi
}

status=0
for ((i = 0; i < ${#targets[@]}; i += 2)); do
  run_one "${targets[$i]}" & a=$!
  if [ $((i + 1)) -lt ${#targets[@]} ]; then run_one "${targets[$((i + 1))]}" & b=$!; else b=""; fi
  wait $a || status=1
  [ -n "$b" ] && { wait $b || status=1; }
done
exit $status
