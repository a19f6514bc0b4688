#!/usr/bin/env python3
"""Times the `ainb` package (0.2.16) decoding one AINB file, for the benchmark that compares binspec with it.

Usage: time_ainb.py FILE [--seconds S]
Prints one JSON object: {"runs": N, "seconds": T, "per_parse_ms": T / N * 1000, "ainb": VERSION}.
Each run is `ainb.AINB.from_binary(data)` on bytes already in memory (the file is read once, outside the timing),
which is what binspec's decode of the same bytes is compared with. One untimed run warms up first.
"""

import argparse
import importlib.metadata
import json
import time
import warnings

import ainb


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("file")
    ap.add_argument("--seconds", type=float, default=3.0)
    a = ap.parse_args()
    with open(a.file, "rb") as f:
        data = f.read()
    warnings.simplefilter("ignore")
    ainb.AINB.from_binary(data)
    runs = 0
    start = time.perf_counter()
    while True:
        ainb.AINB.from_binary(data)
        runs += 1
        elapsed = time.perf_counter() - start
        if elapsed >= a.seconds:
            break
    print(json.dumps({"runs": runs, "seconds": elapsed, "per_parse_ms": elapsed / runs * 1000.0,
                      "ainb": importlib.metadata.version("ainb")}))


if __name__ == "__main__":
    main()
