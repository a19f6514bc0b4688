#!/usr/bin/env python3
"""Regenerate binspec's oracle fixtures with INDEPENDENT writers.

Every fixture under tests/fixtures/sarc/, tests/fixtures/rsizetable/ and
tests/fixtures/byml/ is written by a third-party Python package (oead, sarc,
rstb, restbl, byml), never by
binspec, so that binspec's readers can be checked against files they did not
produce. The exceptions (hand-built with `struct` because no package can write
that layout) are marked "NOT an oracle" in tests/fixtures/MANIFEST.md.

Run with the oracle venv:

    PY=$(scripts/oracle/setup-venv.sh) && "$PY" scripts/oracle/make_fixtures.py
    "$PY" scripts/oracle/make_fixtures.py --check   # verify the checked-in files are reproducible

The output is deterministic: fixed contents, no timestamps, no randomness.
Each fixture is re-read by the independent readers before it is written.
"""

from __future__ import annotations

import argparse
import binascii
import ctypes
import hashlib
import importlib.metadata as md
import io
import os
import platform
import struct
import sys
import tempfile
from pathlib import Path

try:
    import byml
    import oead
    import oead.byml
    import oead.yaz0
    import restbl
    import rstb
    import rstb.util
    import sarc
except ImportError as e:  # pragma: no cover
    sys.exit(f"make_fixtures.py: {e}; run it with the python printed by scripts/oracle/setup-venv.sh")

REPO_ROOT = Path(__file__).resolve().parents[2]

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.dont_write_bytecode = True  # no __pycache__ next to the scripts
from read import bymlpkg_tree, oead_byml_tree  # noqa: E402  (the canonical typed BYML tree of read.py)

V = {p: md.version(p) for p in ("oead", "sarc", "rstb", "restbl", "byml")}
OEAD = f"oead {V['oead']}"
SARCPKG = f"sarc {V['sarc']}"
RSTBPKG = f"rstb {V['rstb']}"
RESTBLPKG = f"restbl {V['restbl']}"
BYMLPKG = f"byml {V['byml']}"
HAND = "hand-built (struct), NOT an oracle"

LE = oead.Endianness.Little
BE = oead.Endianness.Big
NEW = oead.SarcWriter.Mode.New
LEGACY = oead.SarcWriter.Mode.Legacy


# --------------------------------------------------------------------------- helpers

def blob(tag: str, n: int) -> bytes:
    """n deterministic pseudo-random bytes (SHA-256 counter stream)."""
    out = bytearray()
    i = 0
    while len(out) < n:
        out += hashlib.sha256(f"{tag}:{i}".encode()).digest()
        i += 1
    return bytes(out[:n])


def text(tag: str, n: int) -> bytes:
    base = f"binspec fixture {tag}. ".encode()
    return (base * (n // len(base) + 1))[:n]


def structured(n: int) -> bytes:
    """n compressible bytes (a table of little-endian u32/f32 records), so that the
    Yaz0 fixtures contain real back-references and not only literals."""
    out = bytearray()
    i = 0
    while len(out) < n:
        out += struct.pack("<If", i % 7, (i % 5) * 0.25)
        i += 1
    return bytes(out[:n])


def fake_binary_file_header(align_log2: int, size: int, magic: bytes = b"FRES") -> bytes:
    """Bytes that look like an nn::util::BinaryFileHeader (LE BOM at 0xC, alignment
    log2 at 0xE, file size at 0x1C): oead/sarc derive an alignment from it."""
    b = bytearray(blob(f"binhdr{align_log2}", size))
    b[0:4] = magic
    b[4:8] = b"\0\0\0\0"
    b[0xC:0xE] = b"\xff\xfe"
    b[0xE] = align_log2
    struct.pack_into("<I", b, 0x1C, size)
    return bytes(b)


def sarc_hash(name: str, multiplier: int = 0x65, signed: bool = True) -> int:
    h = 0
    for byte in name.encode():
        c = ctypes.c_int8(byte).value if signed else byte
        h = (h * multiplier + c) & 0xFFFFFFFF
    return h


def sha1_12(data: bytes) -> str:
    return hashlib.sha1(data).hexdigest()[:12]


def hx(n: int) -> str:
    return f"0x{n:x}"


# --------------------------------------------------------------------------- file sets

# ~12 files of varied sizes, '/' folders, a 0-byte file. "fake.bfres" carries a fake
# nn::util::BinaryFileHeader asking for 2^8 = 0x100 alignment: oead's Mode.Legacy honours
# it, Mode.New ignores it (bfres is a known BotW resource type), so New and Legacy differ.
STD_FILES: dict[str, bytes] = {
    "empty.bin": b"",
    "a.txt": b"A",
    "x.bin": b"\x01\x02\x03",
    "Param/common.txt": b"hello",
    "Z.txt": text("Z", 17),
    "Layout/Title/title.txt": text("title", 37),
    "Sound/se/jump.dat": blob("jump", 64),
    "data/nested/deep/path/file.dat": blob("deep", 129),
    "Model/Test/tex.bin": blob("tex", 257),
    "Layout/Title/title_bg.bin": blob("title_bg", 300),
    "Model/Test/model.bin": structured(1000),
    "Model/Test/fake.bfres": fake_binary_file_header(8, 0x60),
}

# Names with UTF-8 bytes >= 0x80: the SFAT hash must be computed on *signed* chars.
UTF8_FILES: dict[str, bytes] = {
    "plain.txt": b"plain",
    "\u00e9.bin": b"\xe9",  # é
    "Message/\u65e5\u672c\u8a9e.txt": "日本語".encode(),
    "Actor/\u00dcn\u00efc\u00f6d\u00e9_\u540d\u524d.dat": blob("utf8", 23),
}

INNER_FILES: dict[str, bytes] = {
    "inner/a.txt": b"inner file a",
    "inner/b.bin": blob("inner_b", 40),
    "inner/empty.dat": b"",
}

# ---- resource size tables
RSTB_CRC_NAMES: dict[str, int] = {
    "Actor/ActorLink/Enemy_Bokoblin_Junior.bxml": 0x1F98,
    "Actor/Pack/Enemy_Bokoblin_Junior.bactorpack": 0x6E2C,
    "Model/Enemy_Bokoblin.bfres": 0x18F420,
    "Model/Enemy_Bokoblin.Tex1.bfres": 0x2A8000,
    "Physics/RigidBody/Enemy_Bokoblin.hkrb": 0x14D8,
    "Sound/Resource/Voice/Enemy_Bokoblin.bars": 0x0,
    "Map/MainField/A-1/A-1_Static.smubin": 0x12345,
}
# A real CRC32 collision (found by brute force, asserted below): rstb's set_size puts
# a name in the name table only when its CRC32 collides with a name already there.
RSTB_COLLIDING = ("Actor/Pack/idspjgxq.bactorpack", "Actor/Pack/ovcqomtv.bactorpack")
RSTB_LONG_NAME = "Actor/Pack/" + "L" * (127 - len("Actor/Pack/") - len(".bactorpack")) + ".bactorpack"
assert len(RSTB_LONG_NAME.encode()) == 127  # 128-byte field incl. NUL

RESTBL_CRC_NAMES: dict[str, int] = {
    "Actor/TwnObj_HatenoObj_A_12.engine__actor__ActorParam.bgyml": 6184,
    "Pack/Actor/Npc_Gerudo_Queen_Young.pack.zs": 0x1A3C0,
    "Model/Npc_Zelda.bfres.mc": 0x2F000,
    "Logic/PlayerCamera.root.ainb": 0x8E50,
    "Event/EventFlow/Demo000_0.bfevfl.zs": 0x3000,
    "Sound/Resource/Stream/Bgm_Field.bwav": 0,
    "UI/LayoutArchive/Title.Nin_NX_NVN.blarc.zs": 0x52D00,
    "System/Resource/ResourceSizeTable.Product.rsizetable.zs": 0x2A04,
}
RESTBL_SEED_NAMES: dict[str, int] = {
    "Actor/Npc_Seed_A.engine__actor__ActorParam.bgyml": 111,
    "Actor/Npc_Seed_B.engine__actor__ActorParam.bgyml": 222,
    # 159 bytes + NUL fills the 160-byte (0xA0) name field exactly
    "Long/" + "N" * (159 - len("Long/") - len(".bgyml")) + ".bgyml": 333,
}
assert max(len(k.encode()) for k in RESTBL_SEED_NAMES) == 159
RESTBL_SEED_CRCS: dict[int, int] = {0x00000010: 16, 0xFFFFFFF0: 4080}


# --------------------------------------------------------------------------- writers

class Fixtures:
    def __init__(self) -> None:
        self.items: list[tuple[str, bytes, str, str, str]] = []  # path, data, writer, call, covers

    def add(self, path: str, data: bytes, writer: str, call: str, covers: str) -> None:
        assert path not in {p for p, *_ in self.items}, path
        self.items.append((path, bytes(data), writer, call, covers))


def oead_sarc(files: dict[str, bytes], endian, mode, min_align: int | None = None,
              ext_align: dict[str, int] | None = None) -> tuple[int, bytes]:
    w = oead.SarcWriter(endian, mode)
    if min_align is not None:
        w.set_min_alignment(min_align)
    for ext, al in (ext_align or {}).items():
        w.add_alignment_requirement(ext, al)
    for name, data in files.items():
        w.files[name] = data
    req, out = w.write()
    return req, bytes(out)


def sarcpkg_sarc(files: dict[str, bytes], be: bool, default_align: int | None = None,
                 nested_align: bool = False) -> tuple[int, bytes]:
    w = sarc.SARCWriter(be=be)
    if default_align is not None:
        w.set_default_alignment(default_align)
    if nested_align:
        w.set_align_for_nested_sarc(True)
    for name, data in files.items():
        w.add_file(name, data)
    stream = io.BytesIO()
    req = w.write(stream)
    return req, stream.getvalue()


def check_sarc(data: bytes, files: dict[str, bytes], endian, label: str) -> None:
    """Re-read with oead.Sarc and sarc.SARC; compare names, contents, hashes, order."""
    raw = bytes(oead.yaz0.decompress(data)) if data[:4] == b"Yaz0" else data
    s = oead.Sarc(raw)
    assert s.get_endianness() == endian, label
    got = {f.name: bytes(f.data) for f in s.get_files()}
    assert got == files, f"{label}: oead read back different files"
    order = [f.name for f in s.get_files()]
    assert order == sorted(files, key=sarc_hash), f"{label}: SFAT not sorted by signed-char hash"
    for n in files:  # binary search by hash works
        assert s.get_file(n) is not None and bytes(s.get_file(n).data) == files[n], (label, n)
    p = sarc.SARC(raw)
    assert list(p.list_files()) == order, f"{label}: sarc package disagrees on names"
    for n in files:
        assert bytes(p.get_file_data(n)) == files[n], (label, n)


def build_sarc(fx: Fixtures) -> None:
    d = "sarc/"
    inner = {"le": oead_sarc(INNER_FILES, LE, NEW)[1], "be": oead_sarc(INNER_FILES, BE, NEW)[1]}

    for e, endian, be in (("le", LE, False), ("be", BE, True)):
        E = "Little" if e == "le" else "Big"
        nested = {
            "a.txt": b"outer a",
            "Pack/inner.sarc": inner[e],
            "z.bin": blob("outer_z", 33),
        }
        nested_both = dict(nested)
        nested_both["Pack/inner_yaz0.ssarc"] = bytes(oead.yaz0.compress(inner[e]))

        # --- oead: modes x min alignments on the standard set
        for mode, mname in ((NEW, "new"), (LEGACY, "legacy")):
            for ma in (4, 0x80):
                req, out = oead_sarc(STD_FILES, endian, mode, ma)
                check_sarc(out, STD_FILES, endian, f"oead {e} {mname} {ma}")
                fx.add(f"{d}oead_{e}_{mname}_min{ma:x}.sarc", out, OEAD,
                       f"SarcWriter(Endianness.{E}, Mode.{mname.capitalize()}); set_min_alignment({hx(ma)}); "
                       f"files = STD_FILES; write() -> required_alignment={hx(req)}",
                       f"{len(STD_FILES)} files (0..1000 B, '/' folders, 0-byte file, fake.bfres "
                       f"with BinaryFileHeader align 0x100: honoured by Legacy only)")

        req, out = oead_sarc(STD_FILES, endian, NEW, 4, {"bin": 0x100, "txt": 8})
        check_sarc(out, STD_FILES, endian, f"oead {e} extalign")
        fx.add(f"{d}oead_{e}_new_extalign.sarc", out, OEAD,
               f"SarcWriter(Endianness.{E}, Mode.New); add_alignment_requirement('bin', 0x100); "
               f"add_alignment_requirement('txt', 8); files = STD_FILES; write() -> required_alignment={hx(req)}",
               "extension-specific alignment: *.bin at 0x100, *.txt at 8, data offset aligned to 0x100")

        req, out = oead_sarc({}, endian, NEW)
        check_sarc(out, {}, endian, f"oead {e} empty")
        fx.add(f"{d}oead_{e}_empty.sarc", out, OEAD,
               f"SarcWriter(Endianness.{E}, Mode.New); no files; write() -> required_alignment={hx(req)}",
               "empty archive (0 SFAT entries)")

        req, out = oead_sarc(UTF8_FILES, endian, NEW)
        check_sarc(out, UTF8_FILES, endian, f"oead {e} utf8")
        fx.add(f"{d}oead_{e}_utf8names.sarc", out, OEAD,
               f"SarcWriter(Endianness.{E}, Mode.New); files = UTF8_FILES; write() -> required_alignment={hx(req)}",
               "UTF-8 names with bytes >= 0x80 (hash uses signed char)")

        req, out = oead_sarc(nested_both, endian, NEW)
        check_sarc(out, nested_both, endian, f"oead {e} nested new")
        fx.add(f"{d}oead_{e}_nested_new.sarc", out, OEAD,
               f"SarcWriter(Endianness.{E}, Mode.New); files = outer + 'Pack/inner.sarc' (oead {e} SARC) + "
               f"'Pack/inner_yaz0.ssarc' (oead.yaz0.compress of it); write() -> required_alignment={hx(req)}",
               "nested SARC (raw and Yaz0) inside a SARC; New mode: no special alignment")

        req, out = oead_sarc(nested, endian, LEGACY)
        check_sarc(out, nested, endian, f"oead {e} nested legacy")
        fx.add(f"{d}oead_{e}_nested_legacy.sarc", out, OEAD,
               f"SarcWriter(Endianness.{E}, Mode.Legacy); files = outer + 'Pack/inner.sarc'; "
               f"write() -> required_alignment={hx(req)}",
               "nested SARC inside a SARC; Legacy mode aligns it (and the data offset) to 0x2000")

        # --- Yaz0-compressed SARC (oead.yaz0)
        _, plain = oead_sarc(STD_FILES, endian, NEW, 4)
        if e == "le":
            comp = bytes(oead.yaz0.compress(plain))
            call = "oead.yaz0.compress(oead_le_new_min4.sarc bytes)  (level 7, data_alignment 0)"
        else:
            comp = bytes(oead.yaz0.compress(plain, data_alignment=0x80, level=9))
            call = "oead.yaz0.compress(oead_be_new_min4.sarc bytes, data_alignment=0x80, level=9)"
        check_sarc(comp, STD_FILES, endian, f"yaz0 {e}")
        fx.add(f"{d}oead_{e}_new_min4.ssarc", comp, OEAD, call, "Yaz0-compressed SARC")

        # --- sarc package
        for da in (4, 0x10):
            req, out = sarcpkg_sarc(STD_FILES, be, da)
            check_sarc(out, STD_FILES, endian, f"sarcpkg {e} {da}")
            fx.add(f"{d}sarcpkg_{e}_align{da:x}.sarc", out, SARCPKG,
                   f"SARCWriter(be={be}); set_default_alignment({hx(da)}); add_file(...) for STD_FILES; "
                   f"write(stream) -> {hx(req)}",
                   f"second independent writer, default alignment {hx(da)}")
        nested_yaz0 = {k: v for k, v in nested.items() if k != "Pack/inner.sarc"}
        nested_yaz0["Pack/inner.ssarc"] = nested_both["Pack/inner_yaz0.ssarc"]
        req, out = sarcpkg_sarc(nested_yaz0, be, nested_align=True)
        check_sarc(out, nested_yaz0, endian, f"sarcpkg {e} nested")
        fx.add(f"{d}sarcpkg_{e}_nestedalign.sarc", out, SARCPKG,
               f"SARCWriter(be={be}); set_align_for_nested_sarc(True); add_file(...) outer + "
               f"'Pack/inner.ssarc' (Yaz0-compressed oead {e} SARC); write(stream) -> {hx(req)}",
               "Yaz0-compressed nested SARC, aligned (with the data offset) to 0x2000 by the sarc package")
        req, out = sarcpkg_sarc(UTF8_FILES, be)
        check_sarc(out, UTF8_FILES, endian, f"sarcpkg {e} utf8")
        fx.add(f"{d}sarcpkg_{e}_utf8names.sarc", out, SARCPKG,
               f"SARCWriter(be={be}); add_file(...) for UTF8_FILES; write(stream) -> {hx(req)}",
               "UTF-8 names (sarc package hashes with ctypes.c_int8, i.e. signed char)")

    # the UTF-8 fixtures really exercise signed-vs-unsigned hashing
    assert any(sarc_hash(n) != sarc_hash(n, signed=False) for n in UTF8_FILES)


# ---- RSTB (rstb package) ---------------------------------------------------

def check_rstb(data: bytes, be: bool, crc: dict[int, int], names: dict[str, int], label: str) -> None:
    raw = bytes(oead.yaz0.decompress(data)) if data[:4] == b"Yaz0" else data
    t = rstb.ResourceSizeTable(raw, be=be)
    assert t.crc32_map == crc, f"{label}: crc map differs"
    assert t.name_map == names, f"{label}: name map differs"


def make_rstb_table() -> "rstb.ResourceSizeTable":
    a, b = RSTB_COLLIDING
    assert a != b and binascii.crc32(a.encode()) == binascii.crc32(b.encode())
    t = rstb.ResourceSizeTable(b"", be=False)
    for n, s in RSTB_CRC_NAMES.items():
        t.set_size(n, s)
    # rstb has no "add to name table" call: its set_size only goes to the name table when
    # the CRC32 collides with a name already there, so seed the name map directly.
    t.name_map[a] = 0x4E20
    t.set_size(b, 0x4E28)  # collides with `a` -> name table (package logic)
    t.name_map[RSTB_LONG_NAME] = 0x1234
    assert b in t.name_map and len(t.name_map) == 3
    return t


def rstb_bytes(t, be: bool) -> bytes:
    s = io.BytesIO()
    t.write(s, be)
    return s.getvalue()


def build_rstb(fx: Fixtures) -> None:
    d = "rsizetable/"
    expected_crc = {binascii.crc32(n.encode()): s for n, s in RSTB_CRC_NAMES.items()}
    for e, be in (("le", False), ("be", True)):
        t = make_rstb_table()
        out = rstb_bytes(t, be)
        check_rstb(out, be, expected_crc, dict(t.name_map), f"rstb {e}")
        fx.add(f"{d}rstb_{e}.rsizetable", out, RSTBPKG,
               f"t = ResourceSizeTable(b'', be=False); t.set_size(name, size) x{len(RSTB_CRC_NAMES)}; "
               f"t.name_map[A] = 0x4e20; t.set_size(B, 0x4e28) (crc32(A)==crc32(B) -> name table); "
               f"t.name_map[127-byte name] = 0x1234; t.write(stream, be={be})",
               f"RSTB {e.upper()}: {len(RSTB_CRC_NAMES)} crc entries (one size 0), 3 name entries "
               "(a real CRC32 collision pair, a 127-byte name)")

    t = rstb.ResourceSizeTable(b"", be=True)
    for n, s in RSTB_CRC_NAMES.items():
        t.set_size(n, s)
    out = rstb_bytes(t, True)
    check_rstb(out, True, expected_crc, {}, "rstb be crc only")
    fx.add(f"{d}rstb_be_crconly.rsizetable", out, RSTBPKG,
           f"ResourceSizeTable(b'', be=True); set_size(name, size) x{len(RSTB_CRC_NAMES)}; write(stream, be=True)",
           "RSTB BE with name count 0")

    t = rstb.ResourceSizeTable(b"", be=False)
    out = rstb_bytes(t, False)
    assert out == rstb_bytes(t, True)
    check_rstb(out, False, {}, {}, "rstb empty")
    fx.add(f"{d}rstb_empty.rsizetable", out, RSTBPKG,
           "ResourceSizeTable(b'', be=False).write(stream, be=False)  (identical bytes for be=True)",
           "empty RSTB: header only, both counts 0 (byte order not detectable)")

    # rstb.util.write_rstb Yaz0-compresses when the extension starts with ".s"
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "ResourceSizeTable.product.srsizetable")
        rstb.util.write_rstb(make_rstb_table(), path, be=False)
        comp = Path(path).read_bytes()
    t = make_rstb_table()
    check_rstb(comp, False, expected_crc, dict(t.name_map), "rstb yaz0")
    fx.add(f"{d}rstb_le.srsizetable", comp, f"{RSTBPKG} (+ {OEAD} yaz0)",
           "rstb.util.write_rstb(same table as rstb_le, 'x.srsizetable', be=False)  (oead.yaz0.compress)",
           "Yaz0-compressed RSTB LE")

    # Headerless layout: rstb can read it but cannot write it (write() always emits "RSTB").
    for e, be in (("le", False), ("be", True)):
        f = ">" if be else "<"
        out = b"".join(struct.pack(f + "II", c, s) for c, s in sorted(expected_crc.items()))
        check_rstb(out, be, expected_crc, {}, f"headerless {e}")
        fx.add(f"{d}headerless_{e}.rsizetable", out, HAND + f"; read back OK by {RSTBPKG}",
               f"b''.join(struct.pack('{f}II', crc32, size) for sorted crc entries)",
               f"headerless table {e.upper()}: {len(expected_crc)} sorted (crc32, size) u32 pairs, no magic")


# ---- RESTBL (restbl package) ----------------------------------------------

def restbl_seed(crcs: dict[int, int], names: dict[str, int]) -> bytes:
    """Hand-built input for restbl.ResourceSizeTable.from_binary (the package has no
    constructor and set_size never adds a *name* entry). Not itself a fixture."""
    out = b"RESTBL" + struct.pack("<IIII", 1, 0xA0, len(crcs), len(names))
    for c, s in sorted(crcs.items()):
        out += struct.pack("<II", c, s)
    for n, s in sorted(names.items()):
        out += struct.pack("<160sI", n.encode(), s)
    return out


def parse_restbl(data: bytes) -> tuple[dict[int, int], dict[str, int]]:
    assert data[:6] == b"RESTBL"
    _ver, ssz, nc, nn = struct.unpack_from("<IIII", data, 6)
    o = 0x16
    crc = {}
    for _ in range(nc):
        c, s = struct.unpack_from("<II", data, o)
        crc[c] = s
        o += 8
    names = {}
    for _ in range(nn):
        n = data[o:o + ssz].split(b"\0", 1)[0].decode()
        names[n] = struct.unpack_from("<I", data, o + ssz)[0]
        o += ssz + 4
    assert o == len(data)
    return crc, names


def check_restbl(data: bytes, crc: dict[int, int], names: dict[str, int], by_name: dict[str, int], label: str):
    t = restbl.ResourceSizeTable.from_binary(data)
    for n, s in by_name.items():
        assert t.get_size(n) == s, (label, n, t.get_size(n), s)
    canon = bytes(t.to_binary())
    assert parse_restbl(canon) == (crc, names), label


def build_restbl(fx: Fixtures) -> None:
    d = "rsizetable/"
    R = restbl.ResourceSizeTable
    empty_seed = restbl_seed({}, {})

    t = R.from_binary(empty_seed)
    out = bytes(t.to_binary())
    check_restbl(out, {}, {}, {}, "restbl empty")
    fx.add(f"{d}restbl_empty.rsizetable", out, RESTBLPKG,
           "ResourceSizeTable.from_binary(b'RESTBL' + pack('<IIII', 1, 0xA0, 0, 0)).to_binary()",
           "empty RESTBL (header only)")

    t = R.from_binary(empty_seed)
    for n, s in RESTBL_CRC_NAMES.items():
        t.set_size(n, s)
    out = bytes(t.to_binary())
    crc = {binascii.crc32(n.encode()): s for n, s in RESTBL_CRC_NAMES.items()}
    check_restbl(out, crc, {}, RESTBL_CRC_NAMES, "restbl crc")
    fx.add(f"{d}restbl_crc.rsizetable", out, RESTBLPKG,
           f"t = ResourceSizeTable.from_binary(empty header); t.set_size(path, size) x{len(RESTBL_CRC_NAMES)}; "
           "t.to_binary()",
           f"RESTBL with {len(RESTBL_CRC_NAMES)} crc entries (one size 0), no names")

    comp = bytes(t.to_binary(True))
    assert comp[:4] == b"\x28\xb5\x2f\xfd"
    check_restbl(comp, crc, {}, RESTBL_CRC_NAMES, "restbl crc zs")
    fx.add(f"{d}restbl_crc.rsizetable.zs", comp, RESTBLPKG,
           "same table as restbl_crc; t.to_binary(True)  (zstd level 16, no dictionary)",
           "zstd-compressed RESTBL")

    t = R.from_binary(restbl_seed(RESTBL_SEED_CRCS, RESTBL_SEED_NAMES))
    first = next(iter(RESTBL_SEED_NAMES))
    t.set_size(first, 999)  # existing name entry -> updated in the name table
    added = dict(list(RESTBL_CRC_NAMES.items())[:3])
    for n, s in added.items():
        t.set_size(n, s)  # new names -> crc table
    gone = list(RESTBL_CRC_NAMES)[0]
    t.delete_entry(gone)
    del added[gone]
    out = bytes(t.to_binary())
    names = dict(RESTBL_SEED_NAMES)
    names[first] = 999
    crc = dict(RESTBL_SEED_CRCS)
    crc.update({binascii.crc32(n.encode()): s for n, s in added.items()})
    check_restbl(out, crc, names, {**names, **added}, "restbl names")
    fx.add(f"{d}restbl_names.rsizetable", out, f"{RESTBLPKG} (input seed hand-built)",
           "t = ResourceSizeTable.from_binary(seed: 2 crc + 3 name entries, struct-built); "
           f"t.set_size('{first[:20]}...', 999); t.set_size(path, size) x3; t.delete_entry(path); t.to_binary()",
           "RESTBL with crc entries (incl. 0x00000010 and 0xfffffff0) and 3 name entries "
           "(one 159-byte name filling the 0xA0 field)")


# ---- BYML (oead.byml, byml package) ---------------------------------------
#
# Documents are written in a neutral form and converted for each writer:
#   None, bool, str; (tag, value) for typed numbers and binary data:
#   ("i", s32) ("u", u32) ("f", f32) ("l", s64) ("ul", u64) ("d", f64) ("bin", bytes);
#   list = array, dict = dictionary.
# oead needs its own wrappers: a Python int or float is refused, a Python list is taken
# as *binary data* and Python bytes as a *string*, so everything is wrapped explicitly.

INF, NAN = float("inf"), float("nan")


def i(v): return ("i", v)          # noqa: E704
def u(v): return ("u", v)          # noqa: E704
def f(v): return ("f", v)          # noqa: E704
def l64(v): return ("l", v)        # noqa: E704
def ul(v): return ("ul", v)        # noqa: E704
def d(v): return ("d", v)          # noqa: E704
def bn(v): return ("bin", v)       # noqa: E704


BYML_TYPES = {
    "bool": [False, True],
    "s32": [i(0), i(-1), i(-2**31), i(2**31 - 1)],
    "u32": [u(0), u(0x80000000), u(0xFFFFFFFF)],
    "f32": [f(0.0), f(-0.0), f(1.5), f(0.1), f(3.4028234663852886e38), f(1e-45), f(INF), f(-INF), f(NAN)],
    "s64": [l64(5), l64(-2**63), l64(2**63 - 1)],
    "u64": [ul(0), ul(2**64 - 1)],
    "f64": [d(-2.5), d(0.1), d(5e-324), d(-INF), d(NAN)],
    "null": None,
    "str": ["", "plain", "Ünïcödé", "日本語", "🍄", "a: b # c", "l1\nl2", "123", "true", "null", "~", " x"],
    "bin": [bn(b""), bn(b"\x00\x01\x02\xff"), bn(b"12345678")],
    "map": {"s32": i(-7), "u32": u(7), "f32": f(2.5), "bool": True, "null": None, "str": "plain",
            "s64": l64(-5), "u64": ul(5), "f64": d(2.5), "bin": bn(b"four")},
    "nested": {"a": {"b": [[i(1)], [], {"c": "deep"}]}},
    "empty_map": {},
    "empty_array": [],
    # Written last (its key sorts last among the out-of-line values), so that nothing follows it:
    # oead 1.3.0 and byml 2.4.5 place the next node right after the 3 bytes, unaligned, and they
    # align an array's values to the file where their readers align them to the array, so an
    # array placed there reads back wrong (oead.byml.from_binary: "Invalid value node").
    "zodd": bn(b"odd"),
    "日本語": "non-ASCII key",
}
BYML_TYPES_COVERS = ("every scalar type with edge values (f32/f64 -0.0, subnormal, ±inf, NaN), null, strings "
                     "(empty, non-ASCII, emoji, YAML-like), binary (0, 4, 8 bytes; 3 bytes last in the file), "
                     "a dictionary of every scalar, nesting, empty containers, a non-ASCII key")

# Equal sub-containers and out-of-line values, written once by oead (and the byml package).
BYML_SHARED = {
    "A": {"x": i(1), "y": [u(2), "rep"]},
    "B": {"x": i(1), "y": [u(2), "rep"]},
    "C": [[i(1), i(2)], [i(1), i(2)], [i(1), i(2)]],
    "D": ul(2**40), "E": ul(2**40),
    "F": bn(b"same"), "G": bn(b"same"),
    "H": "rep", "I": ["rep", "rep", "other"],
    "J": [i(1)], "K": [u(1)],  # same value bytes, other type: not shared
    "L": [], "M": [], "N": {}, "O": {},
}
BYML_SHARED_COVERS = ("repeated equal dictionaries, arrays, u64 and binary values (shared: one offset), "
                      "repeated strings, [s32 1] next to [u32 1] (equal bytes, not shared), repeated empty containers")
# The byml package shares containers by Python equality, which confuses Int(1) with UInt(1)
# ([Int(1)] and [UInt(1)] would be written once): leave J/K out for it.
BYML_SHARED_PKG = {k: v for k, v in BYML_SHARED.items() if k not in ("J", "K")}

BYML_ROOTARRAY = [i(1), "two", [u(3)], {"k": f(4.0)}, None, True, l64(-1), [], bn(b"xy")]
BYML_ROOTARRAY_COVERS = "array root with mixed scalars, nested containers and out-of-line values"


def byml_oead_value(x):
    if x is None or isinstance(x, (bool, str)):
        return x
    if isinstance(x, list):
        return oead.byml.Array([byml_oead_value(v) for v in x])
    if isinstance(x, dict):
        return oead.byml.Hash({k: byml_oead_value(v) for k, v in x.items()})
    tag, v = x
    return {"i": oead.S32, "u": oead.U32, "f": oead.F32, "l": oead.S64, "ul": oead.U64, "d": oead.F64,
            "bin": oead.Bytes}[tag](v)


def byml_pkg_value(x):
    if x is None or isinstance(x, (bool, str)):
        return x
    if isinstance(x, list):
        return [byml_pkg_value(v) for v in x]
    if isinstance(x, dict):
        return {k: byml_pkg_value(v) for k, v in x.items()}
    tag, v = x
    return {"i": byml.Int, "u": byml.UInt, "f": byml.Float, "l": byml.Int64, "ul": byml.UInt64,
            "d": byml.Double, "bin": bytes}[tag](v)


def byml_expected(x):
    """The canonical typed tree (read.py's TREE) of a neutral document."""
    if x is None or isinstance(x, (bool, str)):
        return x
    if isinstance(x, list):
        return [byml_expected(v) for v in x]
    if isinstance(x, dict):
        return {"!h": {k: byml_expected(v) for k, v in x.items()}}
    tag, v = x
    if tag == "f":
        return {"!f": f"{struct.unpack('<I', struct.pack('<f', v))[0]:08x}"}
    if tag == "d":
        return {"!d": f"{struct.unpack('<Q', struct.pack('<d', v))[0]:016x}"}
    if tag == "bin":
        return {"!bin": v.hex()}
    return {"!" + tag: v}


def byml_yaml_safe(x):
    """The document without what oead's YAML cannot carry: oead writes f32/f64 NaN and ±inf as
    nan.0/inf.0 and reads those back as strings; it writes the string '~' unquoted, which YAML
    (and roead) read as null; it reads the strings 'true' and 'null' back as a bool and null
    even though it quotes them."""
    if isinstance(x, list):
        return [byml_yaml_safe(v) for v in x if not _yaml_unsafe(v)]
    if isinstance(x, dict):
        return {k: byml_yaml_safe(v) for k, v in x.items() if not _yaml_unsafe(v)}
    return x


def _yaml_unsafe(v) -> bool:
    if isinstance(v, str) and v in ("~", "true", "false", "null"):
        return True
    return isinstance(v, tuple) and v[0] in ("f", "d") and (v[1] != v[1] or v[1] in (INF, -INF))


def check_byml(data: bytes, doc, be: bool, version: int, label: str, pkg_can_read: bool = True) -> None:
    """Re-read with oead (versions 1-4) and the byml package; both must give the document back."""
    assert data[:2] == (b"BY" if be else b"YB"), label
    assert struct.unpack_from(">H" if be else "<H", data, 2)[0] == version, label
    want = byml_expected(doc)
    if version <= 4:
        got = oead_byml_tree(oead.byml.from_binary(data))
        assert got == want, f"{label}: oead read back {got}"
    if pkg_can_read:
        got = bymlpkg_tree(byml.Byml(data).parse())
        assert got == want, f"{label}: the byml package read back {got}"


def build_byml(fx: Fixtures) -> None:
    dr = "byml/"
    ALL = [(v, e) for v in (1, 2, 3, 4) for e in ("le", "be")]
    oead_docs = [
        ("types", "TYPES", BYML_TYPES, BYML_TYPES_COVERS, ALL),
        ("shared", "SHARED", BYML_SHARED, BYML_SHARED_COVERS, [(1, "le"), (2, "be"), (3, "le"), (4, "be")]),
        ("rootarray", "ROOTARRAY", BYML_ROOTARRAY, BYML_ROOTARRAY_COVERS, ALL),
        ("emptymap", "Hash()", {}, "empty dictionary root (no key or string table)", ALL),
        ("emptyarray", "Array()", [], "empty array root (no key or string table)", ALL),
    ]
    # oead.byml.to_binary accepts versions 1-4 only ("Invalid version" otherwise), both byte orders
    for name, const, doc, covers, combos in oead_docs:
        for version, e in combos:
            be = e == "be"
            out = bytes(oead.byml.to_binary(byml_oead_value(doc), be, version))
            # the byml package refuses version 1 big endian ("1-wiiu")
            check_byml(out, doc, be, version, f"oead {name} v{version} {e}", pkg_can_read=not (version == 1 and be))
            fx.add(f"{dr}oead_{name}_v{version}_{e}.byml", out, OEAD,
                   f"oead.byml.to_binary({const}, big_endian={be}, version={version})", covers)

    # byml 2.4.5.post1 writes versions 1-7 (not 1 big endian); its Writer takes typed ints
    # and floats as byml.Int/UInt/Int64/UInt64/Float/Double, binary data as bytes. For versions
    # 1-4 it writes TYPES byte for byte as oead does (one file shows it); versions 5-7 only it writes.
    pkg_docs = [("types", "TYPES", BYML_TYPES, BYML_TYPES_COVERS, [(3, "be"), (5, "le"), (6, "be"), (7, "le")]),
                ("shared", "SHARED without J/K", BYML_SHARED_PKG,
                 "repeated equal dictionaries, arrays, u64 and binary values and empty containers (shared), "
                 "repeated strings", [(4, "be"), (7, "le")]),
                ("rootarray", "ROOTARRAY", BYML_ROOTARRAY, BYML_ROOTARRAY_COVERS, [(5, "be"), (7, "be")])]
    for name, const, doc, covers, combos in pkg_docs:
        for version, e in combos:
            be = e == "be"
            out = byml.Writer(byml_pkg_value(doc), be=be, version=version).get_bytes()
            check_byml(out, doc, be, version, f"bymlpkg {name} v{version} {e}")
            fx.add(f"{dr}bymlpkg_{name}_v{version}_{e}.byml", out, BYMLPKG,
                   f"byml.Writer({const}, be={be}, version={version}).get_bytes()", covers)

    # oead's YAML of the same documents: Document::from_text must give the tree that
    # Document::from_binary gives for oead_<name>_v2_le.byml (with the values below left out).
    for name, const, doc, covers, _ in oead_docs:
        safe = byml_yaml_safe(doc)
        text = oead.byml.to_text(byml_oead_value(safe))
        got = oead_byml_tree(oead.byml.from_text(text))
        assert got == byml_expected(safe), f"oead YAML {name}: oead reads its own YAML back as {got}"
        left_out = "" if safe == doc else \
            " without f32/f64 NaN and ±inf (oead writes nan.0/inf.0, which it reads back as strings) " \
            "and the strings '~' (written unquoted, which YAML reads as null), 'true' and 'null' (which " \
            "oead reads back as a bool and null, quoted or not)"
        fx.add(f"{dr}oead_{name}.yml", text.encode(), OEAD,
               f"oead.byml.to_text({const}{' minus NaN, inf, ~, true, null' if left_out else ''})",
               f"oead's YAML of the {const} document{left_out}; read back identically by oead.byml.from_text")


# --------------------------------------------------------------------------- main

def write_manifest(fx: Fixtures) -> str:
    lines = [
        "# Oracle fixtures",
        "",
        "Generated by `scripts/oracle/make_fixtures.py` (run it with the python printed by",
        "`scripts/oracle/setup-venv.sh`). Do not edit these files by hand; re-run the script.",
        f"Writers: oead {V['oead']}, sarc {V['sarc']}, rstb {V['rstb']}, restbl {V['restbl']} "
        f"(Python {platform.python_version_tuple()[0]}.{platform.python_version_tuple()[1]}).",
        "Every file was re-read by the independent readers (oead.Sarc and sarc.SARC; rstb; restbl)",
        "before being written. Rows marked NOT an oracle were hand-built with `struct` because no",
        "package writes that layout. `STD_FILES`, `UTF8_FILES` etc. are defined in the script.",
        "",
        "| file | writer | call | covers | size (bytes) | sha1[:12] |",
        "|---|---|---|---|---|---|",
    ]
    first_with: dict[bytes, str] = {}

    def rows(items) -> None:
        for path, data, writer, call, covers in items:
            call = call.replace("|", "\\|")
            h = hashlib.sha1(data).digest()
            if h in first_with:
                covers += f"; byte-identical to {first_with[h].split('/')[-1]} (the two writers agree)"
            else:
                first_with[h] = path
            lines.append(f"| {path} | {writer} | `{call}` | {covers} | {len(data)} | {sha1_12(data)} |")

    main = [it for it in fx.items if not it[0].startswith("byml/")]
    bymls = [it for it in fx.items if it[0].startswith("byml/")]
    rows(main)
    total = sum(len(d) for _, d, *_ in main)
    lines += ["", f"{len(main)} files, {total} bytes in total.", ""]
    if bymls:
        lines += [
            "## BYML",
            "",
            f"Writers: oead {V['oead']} (`oead.byml.to_binary`, which accepts versions 1-4 only, and",
            f"`oead.byml.to_text`), byml {V['byml']} (`byml.Writer`, versions 1-7, not 1 big endian).",
            "Every binary file was read back by oead (versions 1-4) and by the byml package (except version 1",
            "big endian, which it refuses) and gave the document; every .yml was read back by oead.byml.from_text.",
            "`TYPES`, `SHARED`, `ROOTARRAY` are `BYML_TYPES` etc. in the script. Each `.yml` is what oead's",
            "YAML says of the binary files of the same name (`oead_types.yml` for `oead_types_v*_*.byml`).",
            "",
            "| file | writer | call | covers | size (bytes) | sha1[:12] |",
            "|---|---|---|---|---|---|",
        ]
        rows(bymls)
        total = sum(len(d) for _, d, *_ in bymls)
        lines += ["", f"{len(bymls)} files, {total} bytes in total.", ""]
    return "\n".join(lines)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", type=Path, default=REPO_ROOT / "tests" / "fixtures",
                    help="fixtures root (default: <repo>/tests/fixtures)")
    ap.add_argument("--check", action="store_true",
                    help="write nothing; exit 1 if any file under --out differs from what would be generated")
    args = ap.parse_args()

    fx = Fixtures()
    build_sarc(fx)
    build_rstb(fx)
    build_restbl(fx)
    build_byml(fx)
    outputs = {p: d for p, d, *_ in fx.items}
    outputs["MANIFEST.md"] = write_manifest(fx).encode()

    for p, d in outputs.items():
        assert p == "MANIFEST.md" or len(d) <= 20 * 1024, f"{p} is {len(d)} bytes"
    total = sum(len(d) for d in outputs.values())
    assert total <= 250 * 1024, total

    generated_dirs = {args.out / p.split("/")[0] for p in outputs if "/" in p}
    extra = sorted(
        str(f.relative_to(args.out)) for d in generated_dirs if d.is_dir() for f in d.iterdir()
        if str(f.relative_to(args.out)) not in outputs
    )

    if args.check:
        bad = [p for p, d in outputs.items() if not (args.out / p).is_file() or (args.out / p).read_bytes() != d]
        for p in bad:
            print(f"differs or missing: {p}", file=sys.stderr)
        for p in extra:
            print(f"not generated by this script: {p}", file=sys.stderr)
        if bad or extra:
            return 1
        print(f"OK: {len(outputs)} files match")
        return 0

    for p, d in outputs.items():
        dest = args.out / p
        dest.parent.mkdir(parents=True, exist_ok=True)
        dest.write_bytes(d)
    for p in extra:
        print(f"warning: {p} is not generated by this script (left in place)", file=sys.stderr)
    print(f"wrote {len(outputs)} files ({total} bytes) under {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
