#!/usr/bin/env python3
"""The OpenRaster tests' independent reader and writer: Python's own zipfile, xml.etree and zlib,
nothing of the Swift code under test.

  ora_tool.py inspect FILE.ora     prints JSON: the archive's entries (in order, with compression,
                                   extra fields and flags), the first local header's name and data
                                   as raw bytes, stack.xml as a tree (attributes in file order), and
                                   every PNG decoded (8-bit RGB or RGBA, not interlaced) as
                                   0xAARRGGBB integers
  ora_tool.py make SPEC.json OUT   writes a zip from a spec: {"entries": [{"name", "compress":
                                   "stored"|"deflated", and one of "text", "png": {"width", "height",
                                   "pixels": [0xAARRGGBB, ...]}, "hex", "zeros": N}],
                                   "declare": {"NAME": N}} (declare patches an entry's declared
                                   uncompressed size, in both headers, to lie about it)
"""
import json
import struct
import sys
import xml.etree.ElementTree as ET
import zipfile
import zlib


def png_encode(width, height, pixels):
    rows = b""
    for y in range(height):
        rows += b"\x00"
        for p in pixels[y * width:(y + 1) * width]:
            rows += bytes([(p >> 16) & 0xFF, (p >> 8) & 0xFF, p & 0xFF, (p >> 24) & 0xFF])

    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    header = struct.pack(">IIBBBBB", width, height, 8, 6, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b"")


def png_decode(data):
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError("no PNG signature")
    at, idat, header = 8, b"", None
    while at < len(data):
        length, kind = struct.unpack(">I4s", data[at:at + 8])
        body = data[at + 8:at + 8 + length]
        if zlib.crc32(kind + body) != struct.unpack(">I", data[at + 8 + length:at + 12 + length])[0]:
            raise ValueError("bad CRC in " + kind.decode())
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat += body
        elif kind == b"IEND":
            break
        at += 12 + length
    width, height, depth, colour, _, _, interlace = header
    if depth != 8 or colour not in (2, 6) or interlace != 0:
        raise ValueError("not 8-bit RGB or RGBA without interlace: %r" % (header,))
    channels = 4 if colour == 6 else 3
    stride = width * channels
    raw = zlib.decompress(idat)
    previous = bytearray(stride)
    pixels = []
    for y in range(height):
        kind = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            left = line[i - channels] if i >= channels else 0
            up = previous[i]
            up_left = previous[i - channels] if i >= channels else 0
            if kind == 1:
                line[i] = (line[i] + left) & 0xFF
            elif kind == 2:
                line[i] = (line[i] + up) & 0xFF
            elif kind == 3:
                line[i] = (line[i] + (left + up) // 2) & 0xFF
            elif kind == 4:
                p = left + up - up_left
                pa, pb, pc = abs(p - left), abs(p - up), abs(p - up_left)
                predictor = left if pa <= pb and pa <= pc else (up if pb <= pc else up_left)
                line[i] = (line[i] + predictor) & 0xFF
            elif kind != 0:
                raise ValueError("filter %d" % kind)
        for x in range(width):
            r, g, b = line[x * channels:x * channels + 3]
            a = line[x * channels + 3] if channels == 4 else 255
            pixels.append(a << 24 | r << 16 | g << 8 | b)
        previous = line
    return {"width": width, "height": height, "pixels": pixels}


def tree(element):
    return {"tag": element.tag, "attributes": [[k, v] for k, v in element.attrib.items()],
            "children": [tree(child) for child in element]}


def inspect(path):
    raw = open(path, "rb").read()
    with zipfile.ZipFile(path) as archive:
        damaged = archive.testzip()
        if damaged is not None:
            raise ValueError("damaged entry " + damaged)
        entries = [{"name": info.filename, "compress": "stored" if info.compress_type == zipfile.ZIP_STORED else "deflated",
                    "extra": len(info.extra), "flags": info.flag_bits} for info in archive.infolist()]
        name_length, extra_length = struct.unpack("<HH", raw[26:30])
        first = {"signature": raw[0:4].hex(), "name": raw[30:30 + name_length].decode(),
                 "extra": extra_length, "data": raw[30 + name_length + extra_length:30 + name_length + extra_length + 16].decode("latin-1")}
        stack = tree(ET.fromstring(archive.read("stack.xml")))
        pngs = {info.filename: png_decode(archive.read(info.filename)) for info in archive.infolist() if info.filename.endswith(".png")}
    print(json.dumps({"entries": entries, "first": first, "stack": stack, "pngs": pngs}))


def make(spec_path, out):
    spec = json.load(open(spec_path))
    with zipfile.ZipFile(out, "w") as archive:
        for entry in spec["entries"]:
            if "text" in entry:
                data = entry["text"].encode()
            elif "png" in entry:
                data = png_encode(entry["png"]["width"], entry["png"]["height"], entry["png"]["pixels"])
            elif "hex" in entry:
                data = bytes.fromhex(entry["hex"])
            else:
                data = bytes(entry["zeros"])
            method = zipfile.ZIP_STORED if entry.get("compress", "deflated") == "stored" else zipfile.ZIP_DEFLATED
            archive.writestr(zipfile.ZipInfo(entry["name"], (2024, 1, 1, 0, 0, 0)), data, compress_type=method)
    declared = spec.get("declare", {})
    if declared:
        raw = bytearray(open(out, "rb").read())
        with zipfile.ZipFile(out) as archive:
            infos = archive.infolist()
        central = raw.find(b"PK\x01\x02")
        for info in infos:
            if info.filename in declared:
                struct.pack_into("<I", raw, info.header_offset + 22, declared[info.filename])
                at = central
                while at >= 0:
                    name_length = struct.unpack_from("<H", raw, at + 28)[0]
                    if raw[at + 46:at + 46 + name_length].decode() == info.filename:
                        struct.pack_into("<I", raw, at + 24, declared[info.filename])
                    at = raw.find(b"PK\x01\x02", at + 4)
        open(out, "wb").write(raw)


if __name__ == "__main__":
    if sys.argv[1] == "inspect":
        inspect(sys.argv[2])
    elif sys.argv[1] == "make":
        make(sys.argv[2], sys.argv[3])
    else:
        sys.exit("usage: ora_tool.py inspect FILE | make SPEC OUT")
