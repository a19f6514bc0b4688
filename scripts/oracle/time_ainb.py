#!/usr/bin/env python3
"""Times the `ainb` package (0.2.16) decoding one AINB file, for the benchmark that compares binspec with it.

Usage: time_ainb.py FILE [--seconds S]
Prints one JSON object: {"runs": N, "seconds": T, "per_parse_ms": T / N * 1000, "write_runs": M,
"write_seconds": U, "per_write_ms": U / M * 1000, "ainb": VERSION}.
A decode is `ainb.AINB.from_binary(data)` on bytes already in memory (the file is read once, outside the timing),
which is what binspec's decode of the same bytes is compared with; a write is `to_binary()` of the decoded object.
One untimed run of each warms up first; each is repeated for S seconds.
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
    doc = ainb.AINB.from_binary(data)
    runs = 0
    start = time.perf_counter()
    while True:
        ainb.AINB.from_binary(data)
        runs += 1
        elapsed = time.perf_counter() - start
        if elapsed >= a.seconds:
            break
    doc.to_binary()
    write_runs = 0
    start = time.perf_counter()
    while True:
        doc.to_binary()
        write_runs += 1
        write_elapsed = time.perf_counter() - start
        if write_elapsed >= a.seconds:
            break
    print(json.dumps({"runs": runs, "seconds": elapsed, "per_parse_ms": elapsed / runs * 1000.0,
                      "write_runs": write_runs, "write_seconds": write_elapsed,
                      "per_write_ms": write_elapsed / write_runs * 1000.0,
                      "ainb": importlib.metadata.version("ainb")}))


if __name__ == "__main__":
    main()
