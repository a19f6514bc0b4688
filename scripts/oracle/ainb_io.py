"""Reads and writes AINB files with the independent `ainb` Python package (0.2.16), for binspec's edit tests.

Usage (with the oracle venv, scripts/oracle/setup-venv.sh):
    ainb_io.py read FILE...         print one JSON object per line: {"file": FILE, "doc": <the package's dict>,
                                    "mmh3": {name: murmur3 hash} for every node and attachment name}
    ainb_io.py write IN.json OUT    write the package's JSON document IN.json as an AINB file OUT
"""

import json
import sys

import ainb
import mmh3


def read(paths):
    for path in paths:
        with open(path, "rb") as f:
            doc = ainb.AINB.from_binary(f.read()).as_dict()
        names = set()
        for node in doc.get("Nodes", []):
            names.add(node["Name"])
            for att in node.get("Attachments", []):
                names.add(att["Name"])
        hashes = {n: mmh3.hash(n, signed=False) for n in sorted(names)}
        print(json.dumps({"file": path, "doc": doc, "mmh3": hashes}, ensure_ascii=False))


def write(src, dst):
    with open(src, encoding="utf-8") as f:
        data = json.load(f)
    with open(dst, "wb") as f:
        f.write(ainb.AINB.from_dict(data).to_binary())


def main():
    if len(sys.argv) >= 3 and sys.argv[1] == "read":
        read(sys.argv[2:])
    elif len(sys.argv) == 4 and sys.argv[1] == "write":
        write(sys.argv[2], sys.argv[3])
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main()
