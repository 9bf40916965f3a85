"""How wide a label will be, without a browser: the SVG charts size their margins and label columns by
it, so that no label runs past the chart's edge.

The widths are those of DejaVu Sans (the usual `sans-serif` on Linux, and among the widest of the
common sans-serif faces: Arial, Helvetica and Liberation Sans are narrower), in fractions of the font
size, plus a little slack: an estimate that errs wide only costs some white space.
"""

from __future__ import annotations

_WIDTHS = {
    **dict.fromkeys("0123456789", 0.636),
    "a": 0.613, "b": 0.635, "c": 0.550, "d": 0.635, "e": 0.615, "f": 0.352, "g": 0.635, "h": 0.634,
    "i": 0.278, "j": 0.278, "k": 0.579, "l": 0.278, "m": 0.974, "n": 0.634, "o": 0.612, "p": 0.635,
    "q": 0.635, "r": 0.411, "s": 0.521, "t": 0.392, "u": 0.634, "v": 0.592, "w": 0.818, "x": 0.592,
    "y": 0.592, "z": 0.525,
    " ": 0.318, ".": 0.318, ",": 0.318, ":": 0.337, ";": 0.337, "-": 0.361, "_": 0.500, "/": 0.337,
    "(": 0.390, ")": 0.390, "[": 0.390, "]": 0.390, "'": 0.275, "!": 0.400, "|": 0.337,
    "I": 0.295, "J": 0.295, "M": 0.863, "W": 0.989,
}
_UPPER = 0.75  # the other capitals lie between 0.56 (L) and 0.79 (O)
_OTHER = 1.0  # anything else (symbols, other scripts): as wide as the font is tall
_SLACK = 1.05
BOLD = 1.12  # DejaVu Sans Bold runs about a tenth wider than Book


def text_width(text: str, size: float, weight: float = 1.0) -> float:
    """The estimated advance width, in px, of `text` set in `sans-serif` at `size` px."""
    total = sum(_WIDTHS.get(c, _UPPER if c.isascii() and c.isupper() else _OTHER) for c in text)
    return total * size * _SLACK * weight


def wrap(text: str, size: float, max_width: float) -> list[str]:
    """`text` in lines no wider than `max_width`, broken after `-`, `_`, `.`, `/` or a space (where a
    planning name has its joints), and inside a part only when the part alone is too wide."""
    parts: list[str] = []
    current = ""
    for c in text:
        current += c
        if c in "-_./ ":
            parts.append(current)
            current = ""
    if current:
        parts.append(current)
    lines: list[str] = []
    line = ""
    for part in parts:
        if text_width(line + part, size) <= max_width:
            line += part
            continue
        if line:
            lines.append(line)
        line = ""
        for c in part:  # only a part wider than a whole line is cut mid-word
            if line and text_width(line + c, size) > max_width:
                lines.append(line)
                line = ""
            line += c
    if line or not lines:
        lines.append(line)
    return [line.rstrip(" ") or line for line in lines]
