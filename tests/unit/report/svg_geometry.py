"""Reading a report's picture back: where each rectangle says its buffer is."""

from __future__ import annotations

import xml.etree.ElementTree as ET

SVG = "{http://www.w3.org/2000/svg}"


def rectangles(svg: str) -> tuple[dict[str, tuple[float, float, float, float]], ET.Element]:
    """name -> (start, end, offset, size) read back from each rectangle through the
    frame's ranges, and the root element."""
    root = ET.fromstring(svg)
    frame = root.find(f"{SVG}rect[@class='frame']")
    assert frame is not None
    t0, t1 = map(float, frame.get("data-time").split())
    b0, b1 = map(float, frame.get("data-bytes").split())
    fx, fy = float(frame.get("x")), float(frame.get("y"))
    fw, fh = float(frame.get("width")), float(frame.get("height"))

    def time(px: float) -> float:
        return t0 + (px - fx) / fw * (t1 - t0)

    def offset(py: float) -> float:
        return b0 + (fy + fh - py) / fh * (b1 - b0)

    found = {}
    for rect in root.iter(f"{SVG}rect"):
        if "buffer" not in rect.get("class", "").split():
            continue
        x, y = float(rect.get("x")), float(rect.get("y"))
        w, h = float(rect.get("width")), float(rect.get("height"))
        name = rect.get("data-name")
        assert name not in found, f"{name} drawn twice"
        found[name] = (time(x), time(x + w), offset(y + h), offset(y) - offset(y + h))
    return found, root


def int_list(attribute) -> list[int]:
    """The integers of a `hipdnn.*` array attribute (`array<i64: ..>` or `[.. : i64]`)."""
    if hasattr(attribute, "get_values"):
        return list(attribute.get_values())
    return [element.value.data for element in attribute.data]
