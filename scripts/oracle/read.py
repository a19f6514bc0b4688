#!/usr/bin/env python3
"""Independent oracle reader for binspec's tests.

    PY=$(scripts/oracle/setup-venv.sh) && "$PY" scripts/oracle/read.py [--le|--be] [--keep-going] FILE...

Reads each FILE with third-party readers (oead and sarc for SARC, rstb for RSTB and
headerless tables, restbl for RESTBL, oead and byml for BYML) and prints ONE JSON document on stdout:
for one FILE the document for that file, for several FILEs a JSON array of
documents in argument order, each with an extra "path" key. Output is canonical:
object keys sorted, compact separators, one trailing newline.

Formats (detected from the content, not the file name):

  SARC, optionally Yaz0-compressed  (oead.Sarc, cross-checked with sarc.SARC)
    {"format": "sarc", "endian": "little"|"big", "compression": null|"yaz0",
     "files": [{"name": str, "size": int, "sha1": hex40}, ...],   # SFAT (archive) order
     "num_files": int, "data_offset": int, "alignment_guess": int,  # oead guess_min_alignment()
     "lookup_by_name_ok": bool,             # oead get_file(name) (hash + binary search) finds
                                            # every named file with the same data
     "sarcpkg_names": [str, ...],           # sarc package's reader, archive order
     "sarcpkg_alignment_guess": int,        # sarc package's guess_default_alignment()
     "sarcpkg_agrees": bool                 # same number of files and same data per name
       or "sarcpkg_error": str,             # instead of the sarcpkg_* keys, when it refuses the file
     "yaz0": {"uncompressed_size": int, "data_alignment": int}}   # only when compressed
    Note: oead 1.3.0's guess_min_alignment() starts its GCD at 4, so it never returns
    more than 4; the sarc package's guess (GCD of absolute data offsets, 4 when the
    archive has <= 2 files) does reflect larger alignments.

  RSTB (magic "RSTB") or headerless (u32 crc32, u32 size pairs), optionally Yaz0  (rstb package)
    {"format": "rstb", "layout": "RSTB"|"headerless", "compression": null|"yaz0",
     "endian": "little"|"big"|null, "endian_source": "flag"|"counts"|"sorted"|"heuristic"|"ambiguous",
     "crc": {"0x%08x": size, ...}, "names": {name: size, ...},
     "header_counts": [crc_count, name_count],   # RSTB layout only; headerless has none
     optional: "duplicates_collapsed": true (a crc/name occurs twice; rstb keeps the last),
               "trailing_bytes": int (only with --le/--be), "crc_not_sorted": true (headerless)}
    Byte order: --le / --be force it; otherwise for RSTB the order whose counts match the
    file size exactly, for headerless the order in which the crc32 column is sorted
    (the game binary-searches it). When both orders read identically (e.g. an empty
    table) "endian" is null and "endian_source" is "ambiguous".

  RESTBL (magic "RESTBL"), optionally zstd  (restbl package)
    {"format": "restbl", "compression": null|"zstd",
     "version": int|null, "string_size": int|null,      # from the input header (null if zstd)
     "crc": {"0x%08x": size, ...}, "names": {name: size, ...},
     "restbl_roundtrip_identical": bool|null}          # null if zstd
    restbl 0.1.1 exposes no iteration (only from_binary, get_size, set_size,
    delete_entry, to_binary), so the entries are taken from restbl's OWN
    re-serialisation (from_binary(data).to_binary(), whose layout is fixed:
    22-byte header, sorted 8-byte crc entries, sorted 164-byte name entries) and
    every name entry is then confirmed with restbl's get_size(). CRC entries can
    only be confirmed through that re-serialisation (get_size takes a path, not
    a hash). restbl_roundtrip_identical tells whether the input (decompressed)
    equals restbl's re-serialisation byte for byte.

  BYML (magic "YB" little endian, "BY" big endian), optionally Yaz0  (oead.byml, cross-checked with byml)
    {"format": "byml", "endian": "little"|"big", "version": int, "compression": null|"yaz0",
     "reader": "oead"|"byml",      # oead.byml.from_binary for versions 1-4 (oead 1.3.0 refuses the
                                   # others), else the byml package's byml.Byml(data).parse()
     "root": TREE,                 # the reader's tree, in the typed form below
     "bymlpkg_agrees": bool        # reader "oead": the byml package reads the same tree
       or "bymlpkg_error": str}    # ... or refuses the file (it refuses version 1 big endian)
  BYML as oead's YAML (a FILE ending in .yml or .yaml)  (oead.byml.from_text)
    {"format": "byml-yaml", "reader": "oead", "root": TREE}

  TREE, the canonical typed form of a BYML node (so that every node type is distinguishable):
    null, true/false, "string" (string node),
    {"!i": int} s32, {"!u": int} u32, {"!l": int} s64, {"!ul": int} u64,
    {"!f": "xxxxxxxx"} f32 and {"!d": "xxxxxxxxxxxxxxxx"} f64 (IEEE bits, lowercase hex),
    {"!bin": "hex"} binary data, [TREE, ...] array, {"!h": {key: TREE, ...}} dictionary.
    oead and the byml package read floats through Python floats, which quiets signalling NaNs.

Errors (unknown format, a reader rejecting the file, ...) exit with status 1 and
the reader's message on stderr; nothing is printed on stdout then. With --keep-going
a file that fails gives {"error": message} (and "path") in its place instead, and the
exit status is 0: for tests that check many files in one run.
"""

from __future__ import annotations

import argparse
import binascii
import hashlib
import json
import struct
import sys

try:
    import byml
    import oead
    import oead.byml
    import oead.yaz0
    import restbl
    import rstb
    import sarc
except ImportError as e:  # pragma: no cover
    sys.stderr.write(f"read.py: {e}; run it with the python printed by scripts/oracle/setup-venv.sh\n")
    sys.exit(2)


class OracleError(Exception):
    pass


ZSTD_MAGIC = b"\x28\xb5\x2f\xfd"


def crc_key(c: int) -> str:
    return f"0x{c:08x}"


# --------------------------------------------------------------------------- SARC

def read_sarc(data: bytes, compression: str | None, yaz0_info: dict | None) -> dict:
    try:
        s = oead.Sarc(data)
        files = []
        contents = {}
        for f in s.get_files():
            d = bytes(f.data)
            files.append({"name": f.name, "size": len(d), "sha1": hashlib.sha1(d).hexdigest()})
            contents.setdefault(f.name, d)
        # oead.Sarc.get_file(name) hashes the name (signed chars, the SFAT multiplier) and
        # binary-searches the SFAT: this fails if hashes are wrong or entries are unsorted.
        lookup_ok = True
        for name, d in contents.items():
            if name:
                g = s.get_file(name)
                lookup_ok = lookup_ok and g is not None and bytes(g.data) == d
        endian = "big" if s.get_endianness() == oead.Endianness.Big else "little"
        doc = {
            "format": "sarc",
            "endian": endian,
            "compression": compression,
            "files": files,
            "num_files": s.get_num_files(),
            "data_offset": s.get_data_offset(),
            "alignment_guess": s.guess_min_alignment(),
            "lookup_by_name_ok": lookup_ok,
        }
    except Exception as e:  # oead raises its own InvalidDataError, RuntimeError, ...
        raise OracleError(f"oead.Sarc: {type(e).__name__}: {e}") from e
    if yaz0_info is not None:
        doc["yaz0"] = yaz0_info
    try:
        p = sarc.SARC(data)
        doc["sarcpkg_names"] = list(p.list_files())
        doc["sarcpkg_alignment_guess"] = p.guess_default_alignment()
        doc["sarcpkg_agrees"] = (
            len(doc["sarcpkg_names"]) == len(files)
            and all(bytes(p.get_file_data(n)) == d for n, d in contents.items())
        )
    except Exception as e:
        doc["sarcpkg_error"] = f"{type(e).__name__}: {e}"
    return doc


# --------------------------------------------------------------------------- RSTB

def _u32s(data: bytes, be: bool, offset: int, count: int) -> tuple:
    return struct.unpack_from(("<", ">")[be] + "I" * count, data, offset)


def _rstb_doc(data: bytes, be: bool) -> dict:
    try:
        t = rstb.ResourceSizeTable(data, be=be)
    except Exception as e:
        raise OracleError(f"rstb.ResourceSizeTable: {type(e).__name__}: {e}") from e
    for name, size in t.name_map.items():
        # the package's own lookup agrees (rstb.get_size checks the crc map first, so
        # only names whose crc32 is not also in the crc map can be checked this way)
        if binascii.crc32(name.encode()) not in t.crc32_map and t.get_size(name) != size:
            raise OracleError(f"rstb: get_size({name!r}) = {t.get_size(name)} != name table {size}")
    return {
        "crc": {crc_key(c): s for c, s in t.crc32_map.items()},
        "names": dict(t.name_map),
    }


def _sorted_crcs(pairs: bytes, be: bool) -> bool:
    n = len(pairs) // 8
    c = list(_u32s(pairs, be, 0, 2 * n)[0::2]) if n else []
    return c == sorted(c)


def read_rstb(data: bytes, compression: str | None, force_be: bool | None) -> dict:
    if data[:4] == b"RSTB":
        if len(data) < 12:
            raise OracleError(f"RSTB: file is {len(data)} bytes, shorter than the 12-byte header")
        fits = {}
        for be in (False, True):
            nc, nn = _u32s(data, be, 4, 2)
            fits[be] = (nc, nn, 12 + nc * 8 + nn * 132)
        if force_be is not None:
            be, source = force_be, "flag"
        else:
            exact = [be for be in (False, True) if fits[be][2] == len(data)]
            if len(exact) == 1:
                be, source = exact[0], "counts"
            elif len(exact) == 2:
                if fits[False][:2] == (0, 0):
                    be, source = False, "ambiguous"
                else:  # both orders fit (byte-swap-symmetric counts): prefer sorted crc32s
                    be = _sorted_crcs(data[12:12 + 8 * fits[True][0]], True) and not \
                        _sorted_crcs(data[12:12 + 8 * fits[False][0]], False)
                    source = "heuristic"
            else:
                raise OracleError(
                    f"RSTB: counts do not match the file size ({len(data)} bytes) in either byte order: "
                    f"LE crc={fits[False][0]} names={fits[False][1]} needs {fits[False][2]}, "
                    f"BE crc={fits[True][0]} names={fits[True][1]} needs {fits[True][2]}")
        nc, nn, need = fits[be]
        if need > len(data):
            raise OracleError(f"RSTB ({'BE' if be else 'LE'}): header says {nc} crc + {nn} name entries "
                              f"= {need} bytes, file has {len(data)}")
        doc = {"format": "rstb", "layout": "RSTB", "compression": compression,
               "header_counts": [nc, nn], **_rstb_doc(data, be)}
        if len(doc["crc"]) != nc or len(doc["names"]) != nn:
            doc["duplicates_collapsed"] = True
        if need != len(data):
            doc["trailing_bytes"] = len(data) - need
    else:
        if len(data) % 8:
            raise OracleError(f"headerless RSTB: size {len(data)} is not a multiple of 8 "
                              f"(and the file has no SARC/RSTB/RESTBL/Yaz0/zstd magic)")
        n = len(data) // 8

        def crcs(be: bool) -> list[int]:
            return list(_u32s(data, be, 0, 2 * n)[0::2]) if n else []

        def sizes(be: bool) -> list[int]:
            return list(_u32s(data, be, 0, 2 * n)[1::2]) if n else []

        if force_be is not None:
            be, source = force_be, "flag"
        else:
            sorted_in = [be for be in (False, True) if crcs(be) == sorted(crcs(be))]
            if n == 0:
                be, source = False, "ambiguous"
            elif len(sorted_in) == 1:
                be, source = sorted_in[0], "sorted"
            else:  # both or neither sorted: prefer the order giving smaller sizes
                be, source = (sum(sizes(True)) < sum(sizes(False))), "heuristic"
        doc = {"format": "rstb", "layout": "headerless", "compression": compression, **_rstb_doc(data, be)}
        if n and crcs(be) != sorted(crcs(be)):
            doc["crc_not_sorted"] = True
        if len(doc["crc"]) != n:
            doc["duplicates_collapsed"] = True
    doc["endian"] = None if source == "ambiguous" else ("big" if be else "little")
    doc["endian_source"] = source
    return doc


# --------------------------------------------------------------------------- RESTBL

def read_restbl(raw: bytes) -> dict:
    compression = "zstd" if raw[:4] == ZSTD_MAGIC else None
    try:
        t = restbl.ResourceSizeTable.from_binary(raw)
        canon = bytes(t.to_binary())
    except Exception as e:
        raise OracleError(f"restbl.ResourceSizeTable.from_binary: {type(e).__name__}: {e}") from e

    # restbl's to_binary layout (restbl 0.1.x, little endian): b"RESTBL", u32 version,
    # u32 string size (0xA0), u32 crc count, u32 name count, crc entries, name entries.
    if canon[:6] != b"RESTBL":
        raise OracleError("restbl.to_binary produced no RESTBL magic (unexpected restbl version?)")
    _ver, ssz, nc, nn = struct.unpack_from("<IIII", canon, 6)
    off = 0x16
    crc = {}
    for _ in range(nc):
        c, s = struct.unpack_from("<II", canon, off)
        crc[crc_key(c)] = s
        off += 8
    names = {}
    for _ in range(nn):
        name = canon[off:off + ssz].split(b"\0", 1)[0].decode("utf-8")
        names[name] = struct.unpack_from("<I", canon, off + ssz)[0]
        off += ssz + 4
    if off != len(canon):
        raise OracleError(f"restbl.to_binary layout not understood ({len(canon)} bytes, parsed {off})")
    for name, size in names.items():
        got = t.get_size(name)
        if got != size:
            raise OracleError(f"restbl: get_size({name!r}) = {got}, but its name entry says {size}")

    doc = {"format": "restbl", "compression": compression, "crc": crc, "names": names,
           "version": None, "string_size": None, "restbl_roundtrip_identical": None}
    if compression is None:  # restbl decompresses zstd internally; without a zstd module
        doc["version"], doc["string_size"] = struct.unpack_from("<II", raw, 6)  # we cannot
        doc["restbl_roundtrip_identical"] = raw == canon  # see the decompressed header
    return doc


# --------------------------------------------------------------------------- BYML

def _f32_bits(x: float) -> str:
    return f"{struct.unpack('<I', struct.pack('<f', x))[0]:08x}"


def _f64_bits(x: float) -> str:
    return f"{struct.unpack('<Q', struct.pack('<d', x))[0]:016x}"


def oead_byml_tree(v) -> object:
    """The canonical typed form (see TREE above) of a node read by oead.byml."""
    if v is None or isinstance(v, (bool, str)):
        return v
    if isinstance(v, oead.S32):
        return {"!i": int(v.v)}
    if isinstance(v, oead.U32):
        return {"!u": int(v.v)}
    if isinstance(v, oead.S64):
        return {"!l": int(v.v)}
    if isinstance(v, oead.U64):
        return {"!ul": int(v.v)}
    if isinstance(v, oead.F32):
        return {"!f": _f32_bits(float(v.v))}
    if isinstance(v, oead.F64):
        return {"!d": _f64_bits(float(v.v))}
    if isinstance(v, oead.Bytes):
        return {"!bin": bytes(v).hex()}
    if isinstance(v, oead.byml.Array):
        return [oead_byml_tree(x) for x in v]
    if isinstance(v, oead.byml.Hash):
        return {"!h": {k: oead_byml_tree(x) for k, x in v.items()}}
    raise OracleError(f"oead.byml returned an unexpected {type(v).__name__}: {v!r}")


def bymlpkg_tree(v) -> object:
    """The canonical typed form (see TREE above) of a node read by the byml package."""
    if v is None or isinstance(v, (bool, str)):
        return v
    for cls, tag in ((byml.Int, "!i"), (byml.UInt, "!u"), (byml.Int64, "!l"), (byml.UInt64, "!ul")):
        if isinstance(v, cls):
            return {tag: int(v)}
    if isinstance(v, byml.Float):
        return {"!f": _f32_bits(float(v))}
    if isinstance(v, byml.Double):
        return {"!d": _f64_bits(float(v))}
    if isinstance(v, (bytes, bytearray, memoryview)):
        return {"!bin": bytes(v).hex()}
    if isinstance(v, list):
        return [bymlpkg_tree(x) for x in v]
    if isinstance(v, dict):
        return {"!h": {k: bymlpkg_tree(x) for k, x in v.items()}}
    raise OracleError(f"the byml package returned an unexpected {type(v).__name__}: {v!r}")


def read_byml(data: bytes, compression: str | None) -> dict:
    if len(data) < 4:
        raise OracleError(f"BYML: file is {len(data)} bytes, shorter than magic + version")
    be = data[:2] == b"BY"
    version = struct.unpack_from(">H" if be else "<H", data, 2)[0]
    doc = {"format": "byml", "endian": "big" if be else "little", "version": version,
           "compression": compression}
    pkg_tree, pkg_error = None, None
    try:
        pkg_tree = bymlpkg_tree(byml.Byml(data).parse())
    except OracleError:
        raise
    except Exception as e:
        pkg_error = f"{type(e).__name__}: {e}"
    if 1 <= version <= 4:
        try:
            doc["root"] = oead_byml_tree(oead.byml.from_binary(data))
        except OracleError:
            raise
        except Exception as e:
            raise OracleError(f"oead.byml.from_binary: {type(e).__name__}: {e}") from e
        doc["reader"] = "oead"
        if pkg_error is None:
            doc["bymlpkg_agrees"] = pkg_tree == doc["root"]
        else:
            doc["bymlpkg_error"] = pkg_error
    else:
        if pkg_error is not None:
            raise OracleError(f"version {version} (oead reads 1-4 only); byml.Byml.parse: {pkg_error}")
        doc["root"] = pkg_tree
        doc["reader"] = "byml"
    return doc


def read_byml_yaml(raw: bytes) -> dict:
    try:
        root = oead.byml.from_text(raw.decode("utf-8"))
    except Exception as e:
        raise OracleError(f"oead.byml.from_text: {type(e).__name__}: {e}") from e
    return {"format": "byml-yaml", "reader": "oead", "root": oead_byml_tree(root)}


# --------------------------------------------------------------------------- driver

def read_one(path: str, force_be: bool | None) -> dict:
    try:
        with open(path, "rb") as f:
            raw = f.read()
    except OSError as e:
        raise OracleError(f"cannot read: {e}") from e

    if path.endswith((".yml", ".yaml")):
        return read_byml_yaml(raw)
    if raw[:6] == b"RESTBL" or raw[:4] == ZSTD_MAGIC:
        return read_restbl(raw)

    data, compression, yaz0_info = raw, None, None
    if raw[:4] == b"Yaz0":
        try:
            h = oead.yaz0.get_header(raw)
            data = bytes(oead.yaz0.decompress(raw))
        except Exception as e:
            raise OracleError(f"oead.yaz0.decompress: {type(e).__name__}: {e}") from e
        compression = "yaz0"
        yaz0_info = {"uncompressed_size": h.uncompressed_size, "data_alignment": h.data_alignment}

    if data[:4] == b"SARC":
        return read_sarc(data, compression, yaz0_info)
    if data[:2] in (b"YB", b"BY"):
        return read_byml(data, compression)
    if data[:6] == b"RESTBL":
        raise OracleError("Yaz0-compressed RESTBL is not a known combination")
    return read_rstb(data, compression, force_be)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    g = ap.add_mutually_exclusive_group()
    g.add_argument("--le", dest="be", action="store_false", default=None,
                   help="read RSTB/headerless tables as little endian")
    g.add_argument("--be", dest="be", action="store_true", help="read RSTB/headerless tables as big endian")
    ap.add_argument("--keep-going", action="store_true",
                    help='a file that fails gives {"error": message} in its place; exit status 0')
    ap.add_argument("files", nargs="+", metavar="FILE")
    args = ap.parse_args()

    docs = []
    for path in args.files:
        try:
            docs.append(read_one(path, args.be))
            continue
        except OracleError as e:
            msg = str(e)
        except Exception as e:  # unexpected reader failure: still a clean error
            msg = f"{type(e).__name__}: {e}"
        if not args.keep_going:
            sys.stderr.write(f"{path}: {msg}\n")
            return 1
        docs.append({"error": msg})
    if len(docs) == 1:
        out = docs[0]
    else:
        out = [{"path": p, **d} for p, d in zip(args.files, docs)]
    text = json.dumps(out, sort_keys=True, ensure_ascii=False, separators=(",", ":")) + "\n"
    sys.stdout.buffer.write(text.encode("utf-8"))  # UTF-8 whatever the locale
    sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
