#!/usr/bin/env python3
"""Random BYML documents written by oead, for binspec's tests.

    PY=$(scripts/oracle/setup-venv.sh) && "$PY" scripts/oracle/random_byml.py --seed 1 --count 40 --out DIR

Builds COUNT random trees from SEED (Python's random.Random, so the same seed gives the same files) and writes
each with oead.byml.to_binary in versions 2, 3 and 4, little and big endian, as
DIR/oead_random_<seed>_<n>_v<version>_<le|be>.byml. Nothing is kept in the repository: the test that calls this
checks that binspec reads every file as oead does and writes it back byte for byte.

oead reads every file back as the tree it was given, but for the sign of zeros (the script stops otherwise): it
writes 0.0 and -0.0 once for both.

The trees mix every scalar type oead writes (s32, u32, f32, s64, u64, f64, bool, null, string, binary data),
dictionaries and arrays up to four levels deep, empty containers, repeated equal subtrees (which oead stores
once) and repeated strings and keys.
"""

from __future__ import annotations

import argparse
import random
import struct
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.dont_write_bytecode = True
from make_fixtures import byml_expected, byml_oead_value  # noqa: E402  (neutral document -> oead values, typed tree)
from read import oead_byml_tree  # noqa: E402

import oead.byml  # noqa: E402

WORDS = ["Actor", "Name", "Hp", "Pos", "Links", "", "ä", "Z", "a", "Param", "Translate", "日本", "k_1", "~", "true"]


def scalar(r: random.Random):
    t = r.randrange(11)
    if t == 0:
        return ("i", r.choice([0, -1, 1, 2**31 - 1, -(2**31), r.randrange(-1000, 1000)]))
    if t == 1:
        return ("u", r.choice([0, 1, 2**32 - 1, r.randrange(0, 2**32)]))
    if t == 2:
        bits = r.choice([0, 0x80000000, 0x3F800000, 0x7F800000, 0x7FC00000, 1, r.randrange(0, 2**32)])
        return ("f", struct.unpack("<f", struct.pack("<I", bits))[0])
    if t == 3:
        return ("l", r.choice([0, -1, 2**63 - 1, -(2**63), r.randrange(-(2**40), 2**40)]))
    if t == 4:
        return ("ul", r.choice([0, 2**64 - 1, r.randrange(0, 2**64)]))
    if t == 5:
        bits = r.choice([0, 1 << 63, 0x3FF0000000000000, 0x7FF0000000000000, r.randrange(0, 2**64)])
        return ("d", struct.unpack("<d", struct.pack("<Q", bits))[0])
    if t == 6:
        return r.random() < 0.5
    if t == 7:
        return None
    if t == 8:
        # Whole words only: after binary data of another size oead writes the next array where its own reader
        # does not look for it (see make_fixtures.py), so it cannot read such files back.
        return ("bin", bytes(r.randrange(256) for _ in range(r.choice([0, 4, 8]))))
    return r.choice(WORDS) + (str(r.randrange(5)) if r.random() < 0.5 else "")


def tree(r: random.Random, depth: int, pool: list):
    if pool and r.random() < 0.1:
        return r.choice(pool)  # an equal subtree again: oead writes it once
    if depth >= 4 or r.random() < 0.45:
        return scalar(r)
    n = r.randrange(0, 7)
    if r.random() < 0.5:
        v = [tree(r, depth + 1, pool) for _ in range(n)]
    else:
        v = {r.choice(WORDS) + str(r.randrange(8)): tree(r, depth + 1, pool) for _ in range(n)}
    pool.append(v)
    return v


def unsigned_zeros(t):
    """The typed tree with -0.0 as 0.0: oead compares floats with ==, so it writes one of 0.0 and -0.0 for both
    when both occur (as f64 values or in equal containers), and reads back the one it wrote."""
    if isinstance(t, list):
        return [unsigned_zeros(v) for v in t]
    if isinstance(t, dict):
        if t.get("!f") == "80000000":
            return {"!f": "00000000"}
        if t.get("!d") == "8000000000000000":
            return {"!d": "0000000000000000"}
        return {k: unsigned_zeros(v) for k, v in t.items()}
    return t


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seed", type=int, required=True)
    ap.add_argument("--count", type=int, required=True)
    ap.add_argument("--out", type=Path, required=True)
    a = ap.parse_args()
    r = random.Random(a.seed)
    a.out.mkdir(parents=True, exist_ok=True)
    for n in range(a.count):
        pool: list = []
        root = [tree(r, 1, pool) for _ in range(r.randrange(0, 6))] if r.random() < 0.3 else {
            r.choice(WORDS) + str(i): tree(r, 1, pool) for i in range(r.randrange(0, 8))}
        value = byml_oead_value(root)
        for version in (2, 3, 4):
            for be in (False, True):
                data = bytes(oead.byml.to_binary(value, be, version))
                got = oead_byml_tree(oead.byml.from_binary(data))
                if unsigned_zeros(got) != unsigned_zeros(byml_expected(root)):
                    sys.exit(f"random_byml.py: oead reads document {n} (v{version}, be={be}) back otherwise")
                name = f"oead_random_{a.seed}_{n}_v{version}_{'be' if be else 'le'}.byml"
                (a.out / name).write_bytes(data)


if __name__ == "__main__":
    main()
