#!/usr/bin/env bash
# Creates (idempotently) the Python venv that holds the independent "oracle"
# implementations used by binspec's tests and by make_fixtures.py / read.py:
#   oead (SARC, Yaz0, BYML v1-4), sarc (SARC), rstb (BotW RSTB), restbl (TotK RESTBL),
#   byml (BYML, writes versions 1-7), ainb (AINB 0x404-0x408; needs mmh3).
#
# Venv location: <repo>/.venv-oracle  (override with BINSPEC_ORACLE_VENV).
# Interpreter:   $PYTHON, else python3 (oead 1.3.0 ships binary wheels; Python 3.11 is known good).
#
# On success prints exactly one line: the absolute path of the venv's python.
# On failure prints a message on stderr and exits non-zero (tests then skip).
set -euo pipefail

PINS=(
  "oead==1.3.0"
  "sarc==2.0.5"
  "rstb==1.2.2"
  "restbl==0.1.1"
  "byml==2.4.5.post1"
  "mmh3==5.3.1"
  "ainb==0.2.16"
)
# syaz0 is not installed: oead.yaz0 provides Yaz0, and syaz0 has no wheel for
# Python 3.11 (its sdist needs CMake and a C++ toolchain).

die() { echo "setup-venv.sh: $*" >&2; exit 1; }

SCRIPT_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO_ROOT="$(cd "$SCRIPT_DIR/../.." && pwd)"
VENV="${BINSPEC_ORACLE_VENV:-$REPO_ROOT/.venv-oracle}"
PY="${PYTHON:-python3}"
VPY="$VENV/bin/python"
STAMP="$VENV/.binspec-oracle-pins"
WANT_STAMP="$(printf '%s\n' "${PINS[@]}")"

command -v "$PY" >/dev/null 2>&1 || die "no Python interpreter '$PY' found (set PYTHON=...)"

mkdir -p "$VENV" || die "cannot create $VENV"

# Serialise concurrent callers (e.g. several test binaries running at once).
if command -v flock >/dev/null 2>&1; then
  exec 9>"$VENV/.setup.lock"
  flock 9 || die "cannot lock $VENV/.setup.lock"
fi

check_imports() {
  "$VPY" - <<'PYEOF' >/dev/null 2>&1
import importlib.metadata as md, sys
import oead, oead.yaz0, oead.byml, sarc, rstb, rstb.util, restbl, byml, ainb
want = {"oead": "1.3.0", "sarc": "2.0.5", "rstb": "1.2.2", "restbl": "0.1.1", "byml": "2.4.5.post1",
        "ainb": "0.2.16", "mmh3": "5.3.1"}
sys.exit(0 if all(md.version(k) == v for k, v in want.items()) else 1)
PYEOF
}

# Fast path: already set up with these pins.
if [[ -x "$VPY" && -f "$STAMP" && "$(cat "$STAMP")" == "$WANT_STAMP" ]] && check_imports; then
  echo "$VPY"
  exit 0
fi

LOG="$(mktemp "${TMPDIR:-/tmp}/binspec-oracle-venv.XXXXXX.log")"
trap 'rm -f "$LOG"' EXIT

if [[ ! -x "$VPY" ]]; then
  "$PY" -m venv "$VENV" >>"$LOG" 2>&1 || {
    cat "$LOG" >&2
    die "'$PY -m venv $VENV' failed (on Debian/Ubuntu: apt-get install python3-venv)"
  }
fi

rm -f "$STAMP"
if ! "$VPY" -m pip install --quiet --disable-pip-version-check --no-input "${PINS[@]}" >>"$LOG" 2>&1; then
  tail -n 40 "$LOG" >&2
  die "pip could not install ${PINS[*]} into $VENV (with $("$VPY" --version 2>&1)); see the pip output above"
fi

check_imports || die "packages installed but importing them (or their versions) failed; try removing $VENV"

printf '%s\n' "$WANT_STAMP" >"$STAMP"
echo "$VPY"
