#!/usr/bin/env python3
"""Sorts a round-trip target's failing inputs by what fails, as a user would meet it through the CLI.

    fuzz/triage.py bntx fuzz/artifacts/round_trip_bntx/*

For each input: `binspec decode` to YAML, `binspec encode` back, `binspec decode` again; the input's kind is where
that first fails (the message's field path) or, where both decodes succeed, the YAML path of the first line that
differs. Prints one line per kind, most common first: how many inputs, the kind, and one input of it. Uses
target/release/binspec (build it with `cargo build --release -p binspec-cli`); writes only in a temporary folder.
"""

import collections
import os
import subprocess
import sys
import tempfile

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BIN = os.path.join(REPO, "target", "release", "binspec")


def run(*args):
    p = subprocess.run([BIN, *args], capture_output=True, text=True)
    return p.returncode, p.stderr.strip().splitlines()


def field_of(message):
    # "error: FILE: a.b[0].c: what" -> "a.b[0].c"
    parts = message.split(": ")
    return parts[2] if len(parts) > 3 else message[:100]


def yaml_path(lines, at):
    """The keys above line `at`, outermost first."""
    path, indent = [], 10**9
    for k in range(min(at, len(lines) - 1), -1, -1):
        line = lines[k]
        depth = len(line) - len(line.lstrip(" -"))
        if depth < indent and ":" in line:
            path.append(line.strip(" -").split(":")[0])
            indent = depth
    return ".".join(reversed(path))


def kind(ext, path, tmp):
    src = os.path.join(tmp, "a." + ext)
    with open(path, "rb") as f, open(src, "wb") as g:
        g.write(f.read())
    a, b, back = (os.path.join(tmp, n) for n in ("a.yaml", "b.yaml", "b." + ext))
    rc, err = run("decode", src, "-o", a)
    if rc:
        return "decode fails at " + field_of(err[-1])
    warned = any("does not hold every byte" in x for x in err)
    rc, err = run("encode", a, "-o", back)
    if rc:
        return "encode fails at " + field_of(err[-1])
    rc, err = run("decode", back, "-o", b)
    if rc:
        return "the written file does not decode: " + field_of(err[-1])
    x, y = (open(p).read().splitlines() for p in (a, b))
    if x == y:
        return "same document"
    at = next((k for k in range(min(len(x), len(y))) if x[k] != y[k]), min(len(x), len(y)))
    return "differs at " + yaml_path(x if at < len(x) else y, at) + (" (decode warned)" if warned else "")


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    ext, files = sys.argv[1], sys.argv[2:]
    kinds = collections.defaultdict(list)
    with tempfile.TemporaryDirectory() as tmp:
        for path in files:
            kinds[kind(ext, path, tmp)].append(path)
    for k, v in sorted(kinds.items(), key=lambda kv: -len(kv[1])):
        print(f"{len(v):5} {k}  ({os.path.basename(v[0])})")


if __name__ == "__main__":
    main()
