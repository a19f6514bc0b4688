#!/usr/bin/env bash
# Rebuilds conformance/known_bad.txt: builds every test (ignoring the list), maps rustc's errors in
# $OUT_DIR/schema_<id>.rs (the generated schema) or check_<id>.rs (the translated asserts) back to test ids,
# lists those with the first error, and repeats until the crate builds (rustc stops at some phases).
# Usage, from anywhere: conformance/update_known_bad.sh
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
list="$here/known_bad.txt"
tmp="$(mktemp)"
trap 'rm -f "$tmp"' EXIT
{
    echo "# Tests whose generated code does not compile: an emitter bug each. build.rs skips them."
    echo "# 'schema:' = the generated reader/writer, 'asserts:' = translate_model_expr's code for the asserts."
    echo "# Regenerate with conformance/update_known_bad.sh."
} >"$list"
for round in 1 2 3 4 5 6 7 8 9 10; do
    cargo build --manifest-path "$here/Cargo.toml" --message-format=short 2>&1 >/dev/null |
        grep -E '/out/(schema|check)_[a-z0-9_]+\.rs:[0-9]+:[0-9]+: error' >"$tmp" || true
    if [ ! -s "$tmp" ]; then
        echo "builds after round $round; $(grep -cv '^#' "$list") entries in known_bad.txt"
        exit 0
    fi
    # One line per id: the first schema error if any, else the first asserts error.
    sed -E 's#^.*/out/(schema|check)_([a-z0-9_]+)\.rs:[0-9]+:[0-9]+: error(\[E[0-9]+\])?: (.*)$#\2\t\1\t\3 \4#' "$tmp" |
        awk -F'\t' '{ k = ($2 == "schema") ? "schema" : "asserts";
                      if (!($1 in first) || (k == "schema" && kind[$1] == "asserts")) { first[$1] = $3; kind[$1] = k } }
                    END { for (id in first) printf "%s  # %s: %s\n", id, kind[id], first[id] }' |
        sort >>"$list"
done
echo "still failing after 10 rounds; see cargo build -p binspec-conformance" >&2
exit 1
