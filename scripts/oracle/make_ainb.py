#!/usr/bin/env python3
"""AINB fixtures written by the independent `ainb` Python package (0.2.16) from documents built here.

Each fixture is a document in the package's JSON shape, built by the functions below (our own content: node
names, properties of every type, inputs and outputs, plugs, queries, attachments, a blackboard with every
parameter type), turned into bytes by `ainb.AINB.from_dict(doc).to_binary()`. Before a file is written, the
package reads it back and writes it again; the two byte strings must be identical, so every fixture is one the
package itself reads.

Usage (with the oracle venv, scripts/oracle/setup-venv.sh):
    make_ainb.py [OUTDIR]            write tests/fixtures/ainb/*.ainb (and the .json inputs beside them)
    make_ainb.py [OUTDIR] --check    regenerate into a temporary folder; exit 1 if OUTDIR differs
"""

import argparse
import filecmp
import json
import os
import sys
import tempfile

import ainb

DEFAULT_OUT = os.path.normpath(
    os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tests", "fixtures", "ainb")
)

VERSIONS = {"v404": 0x404, "v407": 0x407, "v408": 0x408}


def guid(n):
    return f"00000000-0000-0000-0000-{n:012x}"


def prop(name, value):
    return {"Name": name, "Default Value": value, "Flags": []}


def node(index, name, kind="UserDefined", **extra):
    """A node; version 0x404 nodes also carry the state info that only that version stores."""
    n = {
        "Node Type": kind,
        "Node Index": index,
        "Name": name,
        "GUID": guid(0x100 + index),
        "Flags": [],
        "Queries": [],
        "Attachments": [],
        "Properties": {},
        "Parameters": {"Inputs": {}, "Outputs": {}},
        "XLink Actions": [],
        "Plugs": {},
    }
    n.update(extra)
    return n


def for_version(doc):
    """Version 0x404 has per-node state info and no replacement table."""
    if doc["Version"] < 0x407:
        for i, n in enumerate(doc["Nodes"]):
            n["State Info"] = {"Desired State": "Run" if i == 0 else "", "Unknown04": 0, "Unknown08": 0, "Unknown0C": 0, "Unknown10": 0}
        doc.pop("Replacement Table", None)
    return doc


def blackboard(version):
    bb = {
        "String": [{"Name": "Target", "Notes": "", "Inherit Mode": "DontInherit", "Default Value": "Bokoblin"}],
        "S32": [
            {"Name": "Hp", "Notes": "hit points", "Inherit Mode": "InheritFromRoot", "Default Value": 40},
            {"Name": "Phase", "Notes": "", "Inherit Mode": "DontInherit", "Default Value": -1},
        ],
        "F32": [{"Name": "Reach", "Notes": "", "Inherit Mode": "DontInherit", "Default Value": 3.25}],
        "Bool": [{"Name": "Alert", "Notes": "", "Inherit Mode": "DontInherit", "Default Value": False}],
        "Vec3f": [{"Name": "Home", "Notes": "", "Inherit Mode": "DontInherit", "Default Value": [4.0, -2.0, 0.5]}],
        "VoidPtr": [{"Name": "Self", "Notes": "", "Inherit Mode": "DontInherit", "Default Value": None}],
    }
    if version >= 0x408:
        bb["U32"] = [{"Name": "Layers", "Notes": "", "Inherit Mode": "DontInherit", "Default Value": 0x0F0F}]
    return bb


def patrol(version, name):
    """A sequence of three actions that pass values along, with queries, an attachment and a blackboard."""
    root = node(
        0,
        "",
        kind="Element_Sequential",
        Plugs={"Child": [{"Node Index": 1, "Name": "Walk"}, {"Node Index": 2, "Name": "Look"}, {"Node Index": 3, "Name": "Rest"}]},
    )
    walk = node(
        1,
        "PatrolWalk",
        Properties={
            "Int": [prop("Steps", 12)],
            "Float": [prop("Speed", 1.75)],
            "Bool": [prop("Loop", True)],
            "String": [prop("Route", "North")],
            "Vector3F": [prop("Offset", [0.0, 0.5, -1.0])],
        },
        Parameters={
            "Inputs": {
                "Int": [{"Name": "Budget", "Default Value": 5, "Node Index": -1, "Output Index": 0, "Flags": ["Uses Default"]}],
            },
            "Outputs": {
                "Int": [{"Name": "Walked", "Is Output": True}],
                "Float": [{"Name": "Distance", "Is Output": True}],
                "String": [{"Name": "Arrived", "Is Output": True}],
            },
        },
        Attachments=[
            {"Name": "FootstepSoundAttachment", "Debug": 0, "Properties": {"String": [prop("Surface", "Grass")], "Float": [prop("Volume", 0.8)]}}
        ],
    )
    look = node(
        2,
        "LookAround",
        Queries=[4],
        Parameters={
            "Inputs": {
                "Float": [{"Name": "Distance", "Default Value": 0.0, "Node Index": 1, "Output Index": 0, "Flags": []}],
                "String": [{"Name": "Place", "Default Value": "", "Node Index": 1, "Output Index": 0, "Flags": []}],
            },
            "Outputs": {"Bool": [{"Name": "Seen", "Is Output": True}]},
        },
        Plugs={"Generic": [{"Node Index": 1, "Name": "Distance"}], "String": [{"Node Index": 1, "Name": "Arrived"}]},
    )
    rest = node(
        3,
        "Rest",
        Properties={"Float": [prop("Seconds", 2.0)]},
        Parameters={
            "Inputs": {"Int": [{"Name": "Count", "Default Value": 0, "Node Index": 1, "Output Index": 0, "Flags": []}]},
            "Outputs": {},
        },
        Plugs={"Int": [{"Node Index": 1, "Name": "Walked"}]},
    )
    query = node(4, "IsTargetNear", Flags=["Is Query"], Properties={"Float": [prop("Radius", 6.5)]},
                 Parameters={"Inputs": {}, "Outputs": {"Bool": [{"Name": "Result", "Is Output": True}]}})
    return {
        "Version": version,
        "Filename": name,
        "Category": "AI",
        "Blackboard ID": 0x2468ACE0,
        "Parent Blackboard ID": 0,
        "Commands": [{"Name": "Patrol", "GUID": guid(0xFF), "Root Node Index": 0}],
        "Nodes": [root, walk, look, rest, query],
        "Blackboard": blackboard(version),
        "Expressions": {},
        "Modules": [],
        "Unknown Section 0x58": {},
        "Has Section 0x6C": True,
        "Replacement Table": [],
    }


def single(version, name):
    """The smallest useful file: one command, one action with a single property, one blackboard parameter.

    (ainb 0.2.16 writes a version 0x408 file with an empty blackboard that it cannot read back: the string offset
    at 0x74 then points into the middle of a string.)"""
    act = node(0, "Idle", Properties={"Int": [prop("Frames", 30)]})
    return {
        "Version": version,
        "Filename": name,
        "Category": "Logic",
        "Blackboard ID": 0,
        "Parent Blackboard ID": 0,
        "Commands": [{"Name": "Main", "GUID": guid(0x1), "Root Node Index": 0}],
        "Nodes": [act],
        "Blackboard": {"Bool": [{"Name": "Done", "Notes": "", "Inherit Mode": "DontInherit", "Default Value": False}]},
        "Expressions": {},
        "Modules": [],
        "Unknown Section 0x58": {},
        "Has Section 0x6C": True,
        "Replacement Table": [],
    }


def expr(version, name):
    """One action whose file carries an expression binary: EXB version 2 (3 with AINB 0x408, which adds the uint
    type), two functions using every operand kind the package's assembler takes, and a user function call.

    (ainb 0.2.16 does not re-write a function with a setup list identically: it numbers the setup list after the
    main list but writes it before, so there is no setup list here.)"""
    doc = single(version, name)
    doc["Nodes"][0]["Name"] = "Compute"
    v3 = version >= 0x408
    num = "uint" if v3 else "int"
    doc["Expressions"] = {
        "Version": 3 if v3 else 2,
        "Expressions": [
            {
                "Expression Index": 0,
                "Input Type": "INT",
                "Output Type": "BOOL",
                "Main": [
                    "STR int GMem[0x0], int In[0x0]",
                    "ADD int GMem[0x0], int 70000",
                    "MUL int GMem[0x0], int 3",
                    "STR int GMem[0x4], int 12",
                    "CFN ClampMinMax( Int, Int, Int, Int ), GMem[0x0]",
                    "GRT int GMem[0x0], int 100",
                    "STR bool Out[0x0], bool GMem[0x0]",
                    "END",
                ],
            },
            {
                "Expression Index": 1,
                "Input Type": "UINT" if v3 else "INT",
                "Output Type": "VECTOR3F",
                "Main": [
                    f"STR {num} GMem[0x0], {num} In[0x0]",
                    "STR float GMem[0x4], float 1.5",
                    "STR vec3f GMem[0x8], vec3f UserIn[0x0]",
                    "CFN CastIntToFloat( Float, Int ), GMem[0x4]",
                    "STR vec3f Out[0x0], vec3f GMem[0x8]",
                    "END",
                ],
            },
        ],
    }
    return doc


DOCS = {"patrol": patrol, "single": single, "expr": expr}


def write_all(out):
    os.makedirs(out, exist_ok=True)
    for base, build in DOCS.items():
        for tag, version in VERSIONS.items():
            name = f"{base}_{tag}"
            doc = for_version(build(version, name))
            data = ainb.AINB.from_dict(json.loads(json.dumps(doc))).to_binary()
            again = ainb.AINB.from_binary(data).to_binary()
            if again != data:
                sys.exit(f"make_ainb.py: the ainb package does not re-write {name} identically")
            with open(os.path.join(out, f"{name}.ainb"), "wb") as f:
                f.write(data)
            with open(os.path.join(out, f"{name}.json"), "w", encoding="utf-8") as f:
                json.dump(doc, f, indent=1, ensure_ascii=False)
                f.write("\n")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("out", nargs="?", default=DEFAULT_OUT)
    ap.add_argument("--check", action="store_true")
    a = ap.parse_args()
    if not a.check:
        write_all(a.out)
        return
    with tempfile.TemporaryDirectory() as tmp:
        write_all(tmp)
        names = sorted(os.listdir(tmp))
        have = sorted(n for n in os.listdir(a.out) if n.endswith((".ainb", ".json"))) if os.path.isdir(a.out) else []
        _, mismatch, errors = filecmp.cmpfiles(tmp, a.out, names, shallow=False)
        if names != have or mismatch or errors:
            sys.exit(f"make_ainb.py: {a.out} differs from a fresh run: {mismatch + errors or (names, have)}")
    print(f"{a.out}: {len(names)} files match a fresh run")


if __name__ == "__main__":
    main()
