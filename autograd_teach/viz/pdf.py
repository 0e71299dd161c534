"""A vector PDF from the layout engine's JSON.

graphviz-pure writes no PDF, but its ``-Tjson`` output lists every drawing
operation (Graphviz's xdot ops) with coordinates already in PDF's
orientation (points, y up) and every text run's measured width.  Replaying
those ops is all a PDF needs.  Text uses the standard Helvetica, Times and
Courier fonts, which graphviz-pure's bundled fonts are metric-compatible
with, so nothing is embedded and the bytes depend only on the layout.
"""
from __future__ import annotations

import json

_FAMILIES = {"Helvetica": ("Helvetica", "Helvetica-Bold"),
             "Times": ("Times-Roman", "Times-Bold"),
             "Courier": ("Courier", "Courier-Bold")}
_FONTS = [f for pair in _FAMILIES.values() for f in pair]
_BOLD = 1  # the xdot 't' op's flag for bold text


def _rgb(color):
    """(r, g, b) in 0..1, or None for a transparent colour."""
    c = color.lstrip("#")
    if len(c) == 8 and c[6:] == "00":
        return None
    if len(c) not in (6, 8):
        return (0.0, 0.0, 0.0)
    return tuple(int(c[i:i + 2], 16) / 255 for i in (0, 2, 4))


def _num(x):
    return f"{x:.2f}".rstrip("0").rstrip(".")


def _text(s):
    raw = s.encode("cp1252", "replace")
    return b"(" + raw.replace(b"\\", b"\\\\").replace(b"(", b"\\(").replace(b")", b"\\)") + b")"


def _wide(s):
    """Text beyond Latin-1 (Chinese...) for the CJK font: UCS-2 big-endian, as a hex string.
    Characters past the Basic Multilingual Plane (emoji) have no UCS-2 code: U+FFFD."""
    return b"<" + "".join(c if ord(c) < 0x10000 else "\ufffd" for c in s).encode("utf-16-be").hex().encode() + b">"


def _latin(s):
    try:
        s.encode("cp1252")
        return True
    except UnicodeEncodeError:
        return False


# Chinese in a PDF without embedding a font: the Adobe standard CJK font
# STSong-Light, which every PDF reader maps to a CJK font it has.
_CJK_FONT = len(_FONTS)
_CJK_OBJECTS = [
    b"<< /Type /Font /Subtype /Type0 /BaseFont /STSong-Light /Encoding /UniGB-UCS2-H "
    b"/DescendantFonts [%d 0 R] >>",
    b"<< /Type /Font /Subtype /CIDFontType0 /BaseFont /STSong-Light "
    b"/CIDSystemInfo << /Registry (Adobe) /Ordering (GB1) /Supplement 4 >> /FontDescriptor %d 0 R /DW 1000 /W [1 95 500] >>",
    b"<< /Type /FontDescriptor /FontName /STSong-Light /Flags 6 /FontBBox [-25 -254 1000 880] "
    b"/ItalicAngle 0 /Ascent 880 /Descent -120 /CapHeight 880 /StemV 93 >>",
]


class _Painter:
    def __init__(self):
        self.ops = []
        self.pen = (0.0, 0.0, 0.0)
        self.fill = (0.0, 0.0, 0.0)
        self.font = ("Helvetica", 14.0)
        self.bold = False

    def emit(self, s):
        self.ops.append(s.encode("ascii") if isinstance(s, str) else s)

    def path(self, points, close, curve=False):
        pts = [f"{_num(x)} {_num(y)}" for x, y in points]
        out = [pts[0] + " m"]
        if curve:   # xdot beziers: start point, then 3 points per cubic segment
            out += [" ".join(pts[i:i + 3]) + " c" for i in range(1, len(pts) - 2, 3)]
        else:
            out += [p + " l" for p in pts[1:]]
        self.emit(" ".join(out) + (" h" if close else ""))

    def ellipse(self, cx, cy, rx, ry):
        k = 0.5523  # control-point distance for a circle drawn with four cubics
        pts = [(cx + rx, cy), (cx + rx, cy + k * ry), (cx + k * rx, cy + ry), (cx, cy + ry),
               (cx - k * rx, cy + ry), (cx - rx, cy + k * ry), (cx - rx, cy),
               (cx - rx, cy - k * ry), (cx - k * rx, cy - ry), (cx, cy - ry),
               (cx + k * rx, cy - ry), (cx + rx, cy - k * ry), (cx + rx, cy)]
        self.path(pts, True, curve=True)

    def paint(self, filled):
        if filled and self.fill is not None:
            self.emit("%s %s %s rg" % tuple(map(_num, self.fill)))
            if self.pen is not None:
                self.emit("%s %s %s RG B" % tuple(map(_num, self.pen)))
            else:
                self.emit("f")
        elif self.pen is not None:
            self.emit("%s %s %s RG S" % tuple(map(_num, self.pen)))
        else:
            self.emit("n")

    def op(self, o):
        kind = o["op"]
        if kind == "c":
            self.pen = _rgb(o["color"])
        elif kind == "C":
            self.fill = _rgb(o["color"])
        elif kind == "S":
            style = o["style"]
            if style.startswith("setlinewidth("):
                self.emit(f"{_num(float(style[13:-1]))} w")
            elif style in ("dashed", "dotted", "solid"):
                self.emit({"dashed": "[5 2] 0 d", "dotted": "[1 2] 0 d", "solid": "[] 0 d"}[style])
        elif kind == "F":
            self.font = (o["face"], o["size"])
        elif kind == "t":
            self.bold = bool(o["fontchar"] & _BOLD)
        elif kind in "pP":
            self.path(o["points"], True)
            self.paint(kind == "P")
        elif kind in "bB":
            self.path(o["points"], kind == "B", curve=True)
            self.paint(kind == "B")
        elif kind == "L":
            self.path(o["points"], False)
            self.paint(False)
        elif kind in "eE":
            (cx, cy), (rx, ry) = o["rect"][:2], o["rect"][2:]
            self.ellipse(cx, cy, rx, ry)
            self.paint(kind == "E")
        elif kind == "T":
            self.text(o)

    def text(self, o):
        face, size = self.font
        family = next((f for f in _FAMILIES if f in face), "Helvetica")
        bold = self.bold or "Bold" in face
        font = _FONTS.index(_FAMILIES[family][1 if bold else 0])
        x, y = o["pt"]
        x -= {"l": 0, "c": o["width"] / 2, "r": o["width"]}[o["align"]]
        color = self.pen or (0.0, 0.0, 0.0)
        text = o["text"]
        if not _latin(text):
            font = _CJK_FONT
        head = "BT /F%d %s Tf %s %s %s rg %s %s Td " % (font, _num(size), *map(_num, color), _num(x), _num(y))
        body = _text(text) if font != _CJK_FONT else _wide(text)
        self.emit(head.encode("ascii") + body + b" Tj ET")


def from_layout_json(data):
    """PDF bytes from graphviz-pure's ``-Tjson`` output."""
    layout = json.loads(data)
    x0, y0, x1, y1 = (float(v) for v in layout["bb"].split(","))
    p = _Painter()
    groups = [layout] + layout.get("objects", []) + layout.get("edges", [])
    for obj in groups:
        for key in ("_draw_", "_ldraw_", "_hdraw_", "_tdraw_", "_hldraw_", "_tldraw_"):
            if key in obj:   # xdot states a style only where it differs from the default
                p.emit("[] 0 d 1 w")
            for o in obj.get(key, []):
                p.op(o)
            p.bold = False
    content = b"\n".join(p.ops)
    fonts = b" ".join(b"/F%d %d 0 R" % (i, 5 + i) for i in range(len(_FONTS) + 1))
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [%s %s %s %s] /Resources << /Font << %s >> >> "
        b"/Contents 4 0 R >>" % (*(_num(v).encode() for v in (x0, y0, x1, y1)), fonts),
        b"<< /Length %d >>\nstream\n" % len(content) + content + b"\nendstream",
    ] + [b"<< /Type /Font /Subtype /Type1 /BaseFont /%s /Encoding /WinAnsiEncoding >>" % f.encode()
         for f in _FONTS]
    cjk = 5 + len(_FONTS)     # object number of the CJK font, then its descendant and descriptor
    objects += [_CJK_OBJECTS[0] % (cjk + 1), _CJK_OBJECTS[1] % (cjk + 2), _CJK_OBJECTS[2]]
    out = bytearray(b"%PDF-1.4\n")
    offsets = []
    for i, body in enumerate(objects, 1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % i + body + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    out += b"".join(b"%010d 00000 n \n" % o for o in offsets)
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(objects) + 1, xref)
    return bytes(out)
