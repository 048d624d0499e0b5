"""Line charts drawn on the server as inline SVG: readable on a tablet, no script, no request.

Each player's line has its own colour and its own marker shape and ends in a direct label, so
lines are told apart without colour; the leader's line is drawn thicker and labelled as such.
The chart is a picture (`role="img"` with an `aria-label` that sums it up); the ledger beside it
stays the accessible table.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from flask_babel import gettext as _
from flask_babel import ngettext
from markupsafe import Markup, escape

from .ledger import Book, signed

# Told apart on white (each at least 3:1), and from one another with common colour blindness.
COLOURS = (
    "#0072b2",
    "#c4480a",
    "#007a5e",
    "#882255",
    "#8a6100",
    "#222222",
    "#7b52ab",
    "#2f7f98",
)
WIDTH, HEIGHT = 720, 300
LEFT, RIGHT, TOP, BOTTOM = 52, 150, 18, 44
LABEL_GAP = 15
# How far right of a line's last point its label starts.
LABEL_INDENT = 10
LABEL_CHARS = 11


@dataclass(frozen=True)
class Line:
    """One player's line: a value at each x position from the first one."""

    name: str
    values: tuple[int, ...]
    lead: bool = False


def _marker(shape: int, x: float, y: float, colour: str) -> str:
    """A marker of one of eight shapes, so that lines differ by more than their colour."""
    r = 5.0
    points = {
        1: [(x - r, y - r), (x + r, y - r), (x + r, y + r), (x - r, y + r)],
        2: [(x, y - r - 1), (x + r + 1, y + r), (x - r - 1, y + r)],
        3: [(x, y - r - 1), (x + r + 1, y), (x, y + r + 1), (x - r - 1, y)],
        4: [(x - r - 1, y - r), (x + r + 1, y - r), (x, y + r + 1)],
        6: [
            (x - r, y - 2),
            (x - 2, y - 2),
            (x - 2, y - r),
            (x + 2, y - r),
            (x + 2, y - 2),
            (x + r, y - 2),
            (x + r, y + 2),
            (x + 2, y + 2),
            (x + 2, y + r),
            (x - 2, y + r),
            (x - 2, y + 2),
            (x - r, y + 2),
        ],
        7: [
            (x, y - r - 1),
            (x + r + 1, y - 1),
            (x + r - 1, y + r),
            (x - r + 1, y + r),
            (x - r - 1, y - 1),
        ],
    }.get(shape % 8)
    if shape % 8 == 0:
        return f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{r}" fill="{colour}"/>'
    if shape % 8 == 5:
        return (
            f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{r}" fill="#fff" stroke="{colour}" '
            'stroke-width="2.5"/>'
        )
    coordinates = " ".join(f"{px:.1f},{py:.1f}" for px, py in points)
    return f'<polygon points="{coordinates}" fill="{colour}"/>'


def _ticks(low: int, high: int) -> list[int]:
    """Round numbers from below `low` to above `high`, at most about six of them."""
    span = max(high - low, 1)
    step = (
        next(
            size
            for size in (5, 10, 20, 25, 50, 100, 200, 250, 500, 1000, 2000, 5000, 10**4, 10**5)
            if span / size <= 6
        )
        if span <= 6 * 10**5
        else 10 ** len(str(span))
    )
    start = (low // step) * step
    stop = -((-high) // step) * step
    return list(range(start, stop + step, step))


def _spread(positions: list[float], low: float, high: float) -> list[float]:
    """Move label positions apart by at least `LABEL_GAP`, keeping their order, inside the plot."""
    order = sorted(range(len(positions)), key=lambda index: positions[index])
    placed = [0.0] * len(positions)
    floor = low
    for index in order:
        placed[index] = max(positions[index], floor)
        floor = placed[index] + LABEL_GAP
    overflow = max(placed, default=high) - high
    if overflow > 0:
        for index in order:
            placed[index] -= overflow
        ceiling = high
        for index in reversed(order):
            placed[index] = min(placed[index], ceiling)
            ceiling = placed[index] - LABEL_GAP
    return placed


def _short(name: str) -> str:
    """A name short enough for the labels beside the plot (the full name is in the label)."""
    return name if len(name) <= LABEL_CHARS else name[: LABEL_CHARS - 1] + "…"


# A score with a real minus sign, as the ledger writes it.
number = signed


@dataclass(frozen=True)
class _Plot:
    """The plotting area: where an x position and a value are drawn."""

    count: int  # x positions
    low: int
    high: int
    width: float = WIDTH - LEFT - RIGHT
    height: float = HEIGHT - TOP - BOTTOM

    def x_at(self, index: int) -> float:
        # A lone position stands in the middle: one point is not the start of a line.
        return LEFT + self.width * (index / (self.count - 1) if self.count > 1 else 0.5)

    def y_at(self, value: int) -> float:
        return TOP + self.height * (self.high - value) / (self.high - self.low)


def line_chart(
    lines: Sequence[Line],
    x_labels: Sequence[str],
    *,
    label: str,
    x_title: str,
    css_class: str = "chart",
    from_zero: bool = False,
) -> Markup:
    """The SVG: one x position per label, a line per player with markers and a direct label.

    `from_zero` draws every line from 0 at the first position (a game's start), its values
    from the second position on.
    """
    first = 1 if from_zero else 0
    values = [value for line in lines for value in line.values] or [0]
    ticks = _ticks(min(0, *values), max(10, *values))
    plot = _Plot(len(x_labels), ticks[0], ticks[-1])
    parts = [
        f'<svg class="{escape(css_class)}" viewBox="0 0 {WIDTH} {HEIGHT}" role="img" '
        f'aria-label="{escape(label)}" '
        'preserveAspectRatio="xMidYMid meet" font-size="13">',
        _grid(plot, ticks, x_labels, x_title),
    ]
    ends = [plot.y_at(line.values[-1]) if line.values else plot.y_at(0) for line in lines]
    label_ys = _spread(ends, TOP + 4, TOP + plot.height)
    # The labels follow the last value drawn, so nothing runs on over positions not reached yet.
    reached = max((len(line.values) for line in lines), default=0) - 1 + first
    label_at = plot.x_at(max(reached, 0)) + LABEL_INDENT
    for index, line in enumerate(lines):
        drawn = (0, *line.values) if from_zero else line.values
        points = [(plot.x_at(step), plot.y_at(value)) for step, value in enumerate(drawn)]
        parts.append(_series(index, line, points, first, (label_at, label_ys[index])))
    parts.append("</svg>")
    return Markup("".join(parts))


def _grid(plot: _Plot, ticks: list[int], x_labels: Sequence[str], x_title: str) -> str:
    """The value lines with their numbers, the x positions' labels and the x axis' title."""
    parts = ['<g class="grid" aria-hidden="true">']
    for tick in ticks:
        y = plot.y_at(tick)
        stroke = ' stroke="#767676"' if tick == 0 else ' stroke="#dddddd"'
        parts.append(
            f'<line x1="{LEFT}" x2="{LEFT + plot.width}" y1="{y:.1f}" y2="{y:.1f}"{stroke}/>'
            f'<text x="{LEFT - 6}" y="{y + 4:.1f}" text-anchor="end" fill="#444">'
            f"{number(tick)}</text>"
        )
    for index, text in enumerate(x_labels):
        parts.append(
            f'<text x="{plot.x_at(index):.1f}" y="{TOP + plot.height + 18}" '
            f'text-anchor="middle" fill="#444">{escape(text)}</text>'
        )
    parts.append(
        f'<text x="{LEFT + plot.width / 2:.1f}" y="{HEIGHT - 6}" text-anchor="middle" '
        f'fill="#444">{escape(x_title)}</text></g>'
    )
    return "".join(parts)


def _series(
    index: int,
    line: Line,
    points: list[tuple[float, float]],
    first: int,
    label: tuple[float, float],
) -> str:
    """One player's line: its path, a marker at each value from `first`, its direct label at
    `label` (x, y), joined to its last point."""
    colour = COLOURS[index % len(COLOURS)]
    totals = ",".join(str(value) for value in line.values)
    classes = "series lead" if line.lead else "series"
    parts = [f'<g class="{classes}" data-player="{escape(line.name)}" data-totals="{totals}">']
    if len(points) > 1:
        path = " ".join(f"{x:.1f},{y:.1f}" for x, y in points)
        parts.append(
            f'<polyline points="{path}" fill="none" stroke="{colour}" '
            f'stroke-width="{5 if line.lead else 2.5}" stroke-linejoin="round"/>'
        )
    parts.extend(_marker(index, x, y, colour) for x, y in points[first:])
    if line.values:
        end_x, end_y = points[-1]
        label_x, label_y = label
        text = f"{_short(line.name)} {number(line.values[-1])}"
        weight = ""
        if line.lead:
            text = f"★ {text}"
            weight = ' font-weight="bold"'
        parts.append(
            f'<line x1="{end_x + 7:.1f}" y1="{end_y:.1f}" x2="{label_x - 2:.1f}" '
            f'y2="{label_y:.1f}" stroke="{colour}" stroke-width="1"/>'
            f'<text x="{label_x:.1f}" y="{label_y + 4:.1f}" fill="{colour}"'
            f"{weight}>{escape(text)}</text>"
        )
    parts.append("</g>")
    return "".join(parts)


def running_totals(book: Book) -> list[list[int]]:
    """Each player's total after each recorded round, in seat order."""
    lines: list[list[int]] = [[] for _ in book.names]
    for played in book.game.rounds:
        for line in played.scores:
            previous = lines[line.seat][-1] if lines[line.seat] else 0
            lines[line.seat].append(previous + line.score)
    return lines


def totals_chart(book: Book) -> Markup | None:
    """The game's running totals, from the start to its last deal on the x axis (the game's own
    rules say how many); None before the first round."""
    if not book.game.rounds:
        return None
    totals = running_totals(book)
    done = len(book.game.rounds)
    ahead = book.winners or book.leaders
    lines = [
        Line(name, tuple(values), seat in ahead)
        for seat, (name, values) in enumerate(zip(book.names, totals, strict=True))
    ]
    standing = "; ".join(f"{line.name} {number(line.total)}" for line in book.standings)
    said = {
        "names": _(" and ").join(book.names[seat] for seat in ahead),
        "done": done,
        "last": book.last_round,
        "standing": standing,
    }
    if book.winners:
        label = ngettext(
            "Running totals after round %(done)s of %(last)s: %(names)s wins. Totals, lowest "
            "first: %(standing)s.",
            "Running totals after round %(done)s of %(last)s: %(names)s win. Totals, lowest "
            "first: %(standing)s.",
            len(ahead),
            **said,
        )
    else:
        label = ngettext(
            "Running totals after round %(done)s of %(last)s: %(names)s leads. Totals, lowest "
            "first: %(standing)s.",
            "Running totals after round %(done)s of %(last)s: %(names)s lead. Totals, lowest "
            "first: %(standing)s.",
            len(ahead),
            **said,
        )
    return line_chart(
        lines,
        [_("start"), *(str(n) for n in range(1, book.last_round + 1))],
        label=label,
        x_title=_("Round"),
        css_class="chart totals-chart",
        from_zero=True,
    )
