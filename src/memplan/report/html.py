"""A plan as one self-contained HTML file: per function and pool domain an SVG
picture (time across, byte offset up, one rectangle per buffer coloured by kind, the
lower bound as a dashed line, hover text on each rectangle) and tables of the same.

No scripts, fonts or links to anything outside the file: hover text is SVG
`<title>`, which every browser shows as a tooltip.

The picture's geometry is readable back from the SVG, which is how the unit tests
check it: the plot frame (`rect.frame`) carries `data-time="t0 t1"` and
`data-bytes="0 top"`, the ranges its left/right and bottom/top edges stand for.
"""

from __future__ import annotations

import html
import math
import os
from collections.abc import Sequence

from memplan.report.model import DomainPlan, FunctionPlan, PlannedBuffer

WIDTH, HEIGHT = 960, 420
"""The SVG's size in pixels."""
LEFT, RIGHT, TOP, BOTTOM = 88, 16, 30, 44
"""Margins around the plot area."""
MARKER = 2.0
"""Pixels: a buffer drawn thinner than this also gets a marker this tall."""

COLOURS = {
    "host-fed": "#e07b24",
    "device-only": "#3a78c9",
    "returned": "#2c9a5a",
    "interval": "#6f6fb8",
}
LABELS = {
    "host-fed": "host-fed (the host reads or writes it)",
    "device-only": "device-only",
    "returned": "returned",
    "interval": "buffer",
}

_SVG_STYLE = (
    "rect.buffer { stroke: #fff; stroke-width: 0.5; } rect.thin { stroke: none; } "
    "rect.buffer:hover { stroke: #000; stroke-width: 1.5; } "
    "text { font: 11px system-ui, sans-serif; fill: #444; }"
)
"""The picture's own style, inside the SVG, so that it also stands alone."""

_STYLE = """
body { font: 14px/1.4 system-ui, sans-serif; margin: 24px; color: #222; }
h1 { font-size: 20px; } h2 { font-size: 17px; margin-top: 32px; } h3 { font-size: 15px; }
table { border-collapse: collapse; margin: 8px 0 16px; }
th, td { border: 1px solid #ccc; padding: 3px 8px; text-align: left; vertical-align: top; }
td.n { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
td.live { white-space: nowrap; }
td.why { min-width: 20em; }
td.loc, td.kind { white-space: nowrap; }
svg { border: 1px solid #ddd; background: #fff; }
.note { color: #666; }
"""


def _e(value: object) -> str:
    return html.escape(str(value), quote=True)


def _bytes(n: int) -> str:
    """`65024 B (63.5 KiB)`: exact bytes, and a readable unit above 1 KiB."""
    if n < 1024:
        return f"{n} B"
    for unit, scale in (("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)):
        if n >= scale:
            return f"{n} B ({n / scale:.1f} {unit})"
    raise AssertionError("unreachable")


def _tick_step(span: float, count: int = 6) -> float:
    """A round step (1, 2 or 5 times a power of ten) giving about `count` ticks."""
    if span <= 0:
        return 1.0
    raw = span / count
    power = 10 ** math.floor(math.log10(raw))
    for factor in (1, 2, 5, 10):
        if factor * power >= raw:
            return factor * power
    return 10 * power


def _hover(buffer: PlannedBuffer) -> str:
    lines = [buffer.name]
    if buffer.location:
        lines.append(f"at {buffer.location}")
    lines.append(f"size {buffer.size_text or _bytes(buffer.size or 0)}")
    lines.append("offset " + ("runtime" if buffer.offset is None else str(buffer.offset)))
    lines.append(f"live [{buffer.live[0]}, {buffer.live[1]})")
    lines.append(buffer.kind)
    lines.extend(f"kept apart from {other}: {why}" for other, why in buffer.kept_apart)
    return "\n".join(lines)


def render_svg(plan: FunctionPlan, domain: int = 0) -> str:
    """The picture of one pool domain's static region."""
    placed = [b for b in plan.buffers if b.domain == domain and b.offset is not None and b.size is not None]
    info = plan.domains[domain]
    t0 = min((b.live[0] for b in placed), default=0)
    t1 = max((b.live[1] for b in placed), default=1)
    if t1 <= t0:
        t1 = t0 + 1
    top = max(info.pool_size, info.lower_bound, 1)
    pw, ph = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM
    bottom = TOP + ph

    def x(t: float) -> float:
        return LEFT + (t - t0) / (t1 - t0) * pw

    def y(offset: float) -> float:
        return bottom - offset / top * ph

    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{HEIGHT}" '
        f'viewBox="0 0 {WIDTH} {HEIGHT}" role="img" '
        f'aria-label="{_e(plan.function)} domain {domain}: buffers by time and offset">',
        f'<style>{_SVG_STYLE}</style><rect width="{WIDTH}" height="{HEIGHT}" fill="#fff"/>',
        f'<rect class="frame" x="{LEFT}" y="{TOP}" width="{pw}" height="{ph}" fill="#fafafa" '
        f'stroke="#999" data-time="{t0} {t1}" data-bytes="0 {top}"/>',
    ]
    step = _tick_step(top)
    tick = 0.0
    while tick <= top + 1e-9:
        ty = y(tick)
        out.append(f'<line x1="{LEFT - 4}" x2="{LEFT + pw}" y1="{ty:.2f}" y2="{ty:.2f}" stroke="#eee"/>')
        out.append(f'<text x="{LEFT - 6}" y="{ty + 4:.2f}" text-anchor="end">{int(tick):,}</text>')
        tick += step
    step = max(1.0, _tick_step(t1 - t0))
    tick = math.ceil(t0 / step) * step
    while tick <= t1 + 1e-9:
        tx = x(tick)
        out.append(f'<line x1="{tx:.2f}" x2="{tx:.2f}" y1="{bottom}" y2="{bottom + 4}" stroke="#999"/>')
        out.append(f'<text x="{tx:.2f}" y="{bottom + 16}" text-anchor="middle">{int(tick):,}</text>')
        tick += step
    out.append(
        f'<text x="{LEFT + pw / 2}" y="{HEIGHT - 6}" text-anchor="middle">'
        f'{"op index in the function body" if plan.buffers and plan.buffers[0].kind != "interval" else "time"}</text>'
    )
    out.append(
        f'<text transform="translate(14 {TOP + ph / 2}) rotate(-90)" text-anchor="middle">byte offset</text>'
    )
    for b in placed:
        bx, bw = x(b.live[0]), x(b.live[1]) - x(b.live[0])
        by, bh = y(b.offset + b.size), y(b.offset) - y(b.offset + b.size)  # type: ignore[operator]
        title = f"<title>{_e(_hover(b))}</title>"
        out.append(
            f'<rect class="buffer {b.kind}{" thin" if bh < 3 else ""}" data-name="{_e(b.name)}" x="{bx:.3f}" y="{by:.3f}" '
            f'width="{bw:.3f}" height="{bh:.3f}" fill="{COLOURS[b.kind]}">{title}</rect>'
        )
        if bh < MARKER:
            # Too thin to see or to point at: a marker of MARKER pixels standing on
            # the buffer's offset shows its colour and carries its hover text.
            out.append(
                f'<rect class="marker" x="{bx:.3f}" y="{y(b.offset) - MARKER:.3f}" width="{bw:.3f}" '
                f'height="{MARKER}" fill="{COLOURS[b.kind]}">{title}</rect>'
            )
    legend_x = LEFT
    for kind in sorted({b.kind for b in placed}, key=list(COLOURS).index):
        out.append(f'<rect x="{legend_x}" y="9" width="11" height="11" fill="{COLOURS[kind]}"/>')
        out.append(f'<text x="{legend_x + 15}" y="19">{_e(LABELS[kind])}</text>')
        legend_x += 32 + 5.6 * len(LABELS[kind])
    out.append(
        f'<line x1="{legend_x}" x2="{legend_x + 18}" y1="14.5" y2="14.5" stroke="#c0392b" '
        f'stroke-width="1.5" stroke-dasharray="6 4"/><text x="{legend_x + 23}" y="19">lower bound</text>'
    )
    ly = y(info.lower_bound)
    out.append(
        f'<line class="lower-bound" data-bytes="{info.lower_bound}" x1="{LEFT}" x2="{LEFT + pw}" '
        f'y1="{ly:.3f}" y2="{ly:.3f}" stroke="#c0392b" stroke-width="1.5" stroke-dasharray="6 4">'
        f"<title>lower bound {info.lower_bound} B</title></line>"
    )
    out.append(
        f'<text x="{LEFT + pw - 4}" y="{ly - 4:.2f}" text-anchor="end" style="fill:#c0392b">'
        f"lower bound {info.lower_bound}</text>"
    )
    out.append("</svg>")
    return "\n".join(out)


def _domain_table(domains: Sequence[DomainPlan]) -> str:
    rows = "".join(
        f'<tr><td class="n">{d.index}</td><td class="n">{_e(_bytes(d.pool_size))}</td>'
        f'<td class="n">{_e(_bytes(d.lower_bound))}</td><td class="n">{d.ratio:.4f}</td>'
        f'<td class="n">{d.slabs}</td></tr>'
        for d in domains
    )
    return (
        "<table><tr><th>domain</th><th>pool size (static)</th><th>lower bound</th>"
        f"<th>R = pool / bound</th><th>dynamic slabs</th></tr>{rows}</table>"
    )


def _buffer_table(buffers: Sequence[PlannedBuffer]) -> str:
    """One row per buffer; the location and kept-apart columns only when some
    buffer has one (a DSA instance has neither)."""
    located = any(b.location for b in buffers)
    explained = any(b.kept_apart for b in buffers)
    domains = len({b.domain for b in buffers}) > 1
    rows = []
    for b in buffers:
        size = b.size_text or _bytes(b.size or 0)
        offset = "runtime" if b.offset is None else str(b.offset)
        cells = [f"<td>{_e(b.name)}</td>"]
        if located:
            # The file's base name keeps the table narrow; the whole path is the hover text.
            where = b.location or ""
            cells.append(f'<td class="loc" title="{_e(where)}">{_e(os.path.basename(where))}</td>')
        cells.append(
            f'<td class="kind">{_e(b.kind)}</td><td class="n">{_e(size)}</td><td class="n">{_e(offset)}</td>'
        )
        if domains:
            cells.append(f'<td class="n">{b.domain}</td>')
        cells.append(f'<td class="live">[{b.live[0]}, {b.live[1]})</td>')
        if explained:
            cells.append('<td class="why">' + "<br>".join(f"{_e(o)}: {_e(why)}" for o, why in b.kept_apart) + "</td>")
        rows.append("<tr>" + "".join(cells) + "</tr>")
    header = ["buffer", *(["allocated at"] if located else []), "kind", "size", "offset"]
    header += [*(["domain"] if domains else []), "live"]
    header += ["kept apart from"] if explained else []
    return (
        "<table><tr>" + "".join(f"<th>{h}</th>" for h in header) + "</tr>" + "".join(rows) + "</table>"
    )


def render_html(plans: Sequence[FunctionPlan], title: str = "memplan plan") -> str:
    """The whole report: one section per plan."""
    parts = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        f"<title>{_e(title)}</title><style>{_STYLE}</style></head><body>",
        f"<h1>{_e(title)}</h1>",
    ]
    if not plans:
        parts.append('<p class="note">No buffers were planned.</p>')
    for plan in plans:
        parts.append(
            f"<h2>{_e(plan.function)}</h2><p>{len(plan.buffers)} buffers, strategy "
            f"{_e(plan.strategy)}. Hover over a buffer for its name, location, size, "
            "offset and live range.</p>"
        )
        parts.append(_domain_table(plan.domains))
        for domain in plan.domains:
            if len(plan.domains) > 1:
                parts.append(f"<h3>domain {domain.index}</h3>")
            parts.append(render_svg(plan, domain.index))
        dynamic = sum(1 for b in plan.buffers if b.size_text)
        if dynamic:
            parts.append(
                f'<p class="note">{dynamic} dynamic buffers live in slabs after the static '
                "region; the table lists them, the picture does not.</p>"
            )
        parts.append(_buffer_table(plan.buffers))
    parts.append("</body></html>\n")
    return "\n".join(parts)


def write_report(path: str, plans: Sequence[FunctionPlan], title: str = "memplan plan") -> None:
    """Write the report to `path` (`-` is stdout) atomically; a failure is a
    `UserError` naming the path."""
    from memplan.diagnostics import UserError
    from memplan.files import OutputError, write_output

    try:
        write_output(path, render_html(plans, title))
    except OutputError as error:
        raise UserError(f"plan report: {error}") from None
