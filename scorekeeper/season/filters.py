"""Which part of the season a table looks at: a date range on when games finished, and the
fewest finished games a player needs to be listed or to hold a record.

The same query parameters serve the pages and the API (`?min_games=5&period=year`), read here
once, so both refuse a bad value with the same words.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime

# The date ranges, by their parameter value, with how a page names them.
PERIODS = {"all": "All time", "year": "This year", "12m": "Last 12 months"}
# More finished games than any table plays: a bigger figure is a typing slip, said as such.
MOST_GAMES = 100_000


class FilterError(ValueError):
    """Every problem with the filter's parameters, each named in one sentence."""

    def __init__(self, problems: list[str]):
        super().__init__(" ".join(problems))
        self.problems = problems


@dataclass(frozen=True)
class Filters:
    """A date range (`period`, a key of PERIODS) and the fewest finished games (`min_games`)."""

    period: str = "all"
    min_games: int = 0

    @property
    def is_default(self) -> bool:
        return self == Filters()

    def since(self, now: datetime | None = None) -> datetime | None:
        """The earliest `finished_at` (naive UTC, as stored) the period takes; None for all time.
        "This year" starts on 1 January at midnight on the clock of the machine serving the
        table (the clock the pages show times in); "last 12 months" is the same moment a year
        ago (29 February a year on is 28 February)."""
        moment = (now or datetime.now(UTC)).astimezone(UTC)
        if self.period == "year":
            local = moment.astimezone()
            start = local.replace(month=1, day=1, hour=0, minute=0, second=0, microsecond=0)
            return start.astimezone(UTC).replace(tzinfo=None)
        if self.period == "12m":
            day = moment.day
            if moment.month == 2 and day == 29:
                day = 28
            return moment.replace(year=moment.year - 1, day=day, tzinfo=None)
        return None

    def params(self) -> dict[str, str]:
        """The query parameters that say these filters (none for the defaults)."""
        chosen = {}
        if self.period != "all":
            chosen["period"] = self.period
        if self.min_games:
            chosen["min_games"] = str(self.min_games)
        return chosen


def parse(args: Mapping[str, str]) -> Filters:
    """The filters a request's query asks for; FilterError naming every bad value. An empty
    value is the default (a form sends `min_games=` when the box is left empty)."""
    problems = []
    period = (args.get("period") or "all").strip()
    if period not in PERIODS:
        problems.append(
            f"period must be one of {', '.join(PERIODS)} (all time, this year, the last 12 "
            f"months), not {period!r}."
        )
    text = (args.get("min_games") or "0").strip()
    min_games = 0
    if not text.isascii() or not text.isdigit():
        problems.append(f"min_games must be a whole number of games, 0 or more, not {text!r}.")
    elif int(text) > MOST_GAMES:
        problems.append(f"min_games must be at most {MOST_GAMES:,}, not {text}.")
    else:
        min_games = int(text)
    if problems:
        raise FilterError(problems)
    return Filters(period, min_games)


def in_period(finished: Iterable, since: datetime | None) -> list:
    """The sittings (or anything with `finished_at`) of games finished at or after `since`."""
    return [
        item
        for item in finished
        if item.finished_at is not None and (since is None or item.finished_at >= since)
    ]
