"""Where the terminal may end a line: by the Unicode line-breaking rules (UAX #14), so that
Chinese breaks between characters but never before 、。）： nor after （, and English only
between words; and a list's entries kept whole where they fit.

rich breaks text at spaces only. A Chinese line has none, so rich folds it at whatever character
meets the edge: ``（Co`` over ``untry）``, a line opening with ``、``, a team's ``玩家`` over its
``3``. And between spaces it will split a list's entry as readily as it ends a sentence:
``15: 0/2  30:`` over ``0/2``. ``Wrapped`` is a rich ``Text`` that sets its lines by
``uniseg``'s UAX #14 break opportunities instead, tailored as the standard allows so that a
number stays with what it counts or names (``玩家3``, ``15哩``, ``5 cards``, ``2: 1 boxcar``);
``flow`` builds one from a list's entries that breaks between entries where it can.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Iterable, Sequence
from functools import lru_cache
from itertools import pairwise
from typing import Any

from rich.cells import cell_len
from rich.console import Console, ConsoleOptions, Group, JustifyMethod, OverflowMethod
from rich.containers import Lines
from rich.measure import Measurement
from rich.style import Style
from rich.text import Text

from tabletrek.i18n import sides

# A path or an address: a run with a slash and no space, up to a full-width mark (the sentence
# around a path goes on with （ or 。 right after it). Copied from the terminal, it must be whole.
_PATH = re.compile(r"[^\s\u3000-\u303f\uff00-\uffef]*[/\\][^\s\u3000-\u303f\uff00-\uffef]*")


def is_wide(char: str) -> bool:
    """A character of the full-width scripts (CJK ideographs, kana, full-width punctuation)."""
    return unicodedata.east_asian_width(char) in ("W", "F")


def _wide_letter(char: str) -> bool:
    return char.isalpha() and is_wide(char)


def _counts(plain: str, at: int) -> bool:
    """Whether the break at ``at`` is the single space of ``5 cards``, ``1 箱車`` or ``第 1``."""
    if plain[at - 1] != " " or at < 2 or plain[at - 2] == " ":
        return False
    left, after = plain[at - 2], plain[at]
    return (left.isdigit() and after.isalpha()) or (_wide_letter(left) and after.isdigit())


def _inside_a_word(plain: str, at: int) -> bool:
    """Whether the break at ``at`` falls inside a run of narrow characters with no space:
    ``[12|11]``, ``boxcar+1``, ``well-known``. UAX #14 breaks after ``|``, ``+`` or ``-``; rich
    never does, and English reads better without."""
    before, after = plain[at - 1], plain[at]
    return before != " " and not is_wide(before) and not is_wide(after)


def _labels_a_number(plain: str, at: int) -> bool:
    """Whether the break at ``at`` follows a numbered label (``2: 1 boxcar``, ``30: 0/2``,
    ``3：2 箱車``): the label's number and colon stay with what they label."""
    colon = at - 2 if plain[at - 1] == " " else at - 1
    return colon >= 1 and plain[colon] in ":：" and plain[colon - 1].isdigit()


def _opportunities(plain: str) -> Iterable[int]:
    """UAX #14's break opportunities. A text without a wide character (English, numbers, tiles)
    breaks after its spaces, as rich breaks it, which is what UAX #14 gives such text bar a few
    marks it never holds; uniseg, pure Python, takes about a millisecond a line, so only text
    that needs it pays for it."""
    if any(is_wide(char) for char in plain):
        # imported here: uniseg takes ~10 ms to import beside tabletrek (50-65 ms alone, most
        # of it importlib.metadata), which a game played only by a program need not pay
        from uniseg.linebreak import (  # type: ignore[import-untyped]  # noqa: PLC0415 - the package ships no type hints; loaded on first need
            line_break_boundaries,
        )

        return line_break_boundaries(plain)  # type: ignore[no-any-return]  # untyped package
    return (at for at in range(1, len(plain)) if plain[at - 1] == " " and plain[at] != " ")


@lru_cache(maxsize=4096)
def path_spans(plain: str) -> tuple[tuple[int, int], ...]:
    """Where ``plain`` holds a path or an address (``_PATH``), as (start, end) offsets."""
    return tuple(match.span() for match in _PATH.finditer(plain))


@lru_cache(maxsize=4096)
def break_offsets(plain: str) -> tuple[int, ...]:
    """The offsets inside ``plain`` (0 < offset < len) where a line may break: UAX #14's, less
    those that part a number from the word it counts or names. UAX #14 lets a line end between
    a Chinese character and a digit (``玩家`` over ``3``, ``15`` over ``哩``), at the space of
    ``5 cards``, ``1 箱車``, ``第 1 隊``, or after a numbered label (``2:`` over ``1 boxcar``), and
    inside a path; the standard allows such tailoring, and a reader sees each as one thing. A
    wider gap (``75   Discard``) still breaks."""
    offsets = []
    paths = path_spans(plain)
    # UAX #14 never breaks before a "/", even after a space; a path's start after a space may
    starts = {a for a, _ in paths if a > 0 and plain[a - 1] == " "}
    for at in sorted(starts.union(_opportunities(plain))):
        if not 0 < at < len(plain) or any(a < at < b for a, b in paths):
            continue
        before, after = plain[at - 1], plain[at]
        if (_wide_letter(before) and after.isdigit()) or (before.isdigit() and _wide_letter(after)):
            continue
        if _labels_a_number(plain, at) or _counts(plain, at) or _inside_a_word(plain, at):
            continue
        offsets.append(at)
    return tuple(offsets)


def _shown(plain: str, start: int, end: int) -> int:
    """The cells a line from ``start`` to ``end`` fills; spaces at its end do not show."""
    return cell_len(plain[start:end].rstrip(" "))


def _farthest(offsets: Iterable[int], plain: str, start: int, width: int) -> int | None:
    best = None
    for at in offsets:
        if at <= start:
            continue
        if _shown(plain, start, at) > width:
            break
        best = at
    return best


def allowed(plain: str, keep: Sequence[tuple[int, int]] = ()) -> tuple[int, ...]:
    """The break opportunities of ``plain`` outside the ``keep`` ranges (a list's entries)."""
    return tuple(at for at in break_offsets(plain) if not any(a < at < b for a, b in keep))


def _line_end(
    plain: str, start: int, width: int, outside: Sequence[int], opportunities: Sequence[int]
) -> int:
    """Where a line from ``start`` ends, as ``divide`` says."""
    at = _farthest(outside, plain, start, width)
    if at is not None:
        following = next((o for o in outside if o > at), len(plain))
        if _shown(plain, at, following) > width:
            at = None
    if at is None:
        at = _farthest(opportunities, plain, start, width)
    if at is None:
        at = start + 1
        while at < len(plain) and cell_len(plain[start : at + 1]) <= width:
            at += 1
    return at


def divide(
    plain: str, width: int, keep: Sequence[tuple[int, int]] = (), *, whole_paths: bool = False
) -> list[int]:
    """The offsets where each line after the first begins, for a line of text set ``width``
    cells wide: at the farthest break opportunity that fits and is not inside a ``keep`` range;
    but where what follows that break is itself wider than a line (an entry that must be broken
    anyway), or no such break fits, at the farthest opportunity that fits; and where none fits
    (a word wider than the line), after the last character that fits. With ``whole_paths``, a
    path wider than the line is the exception: it gets a line of its own, wider than ``width``."""
    width = max(width, 1)
    starts: list[int] = []
    start = 0
    if cell_len(plain.rstrip(" ")) <= width:
        return starts
    opportunities = break_offsets(plain)
    outside = allowed(plain, keep) if keep else opportunities
    path_ends = dict(path_spans(plain)) if whole_paths else {}
    while _shown(plain, start, len(plain)) > width:
        path_end = path_ends.get(start)
        if path_end is not None and _shown(plain, start, path_end) > width:
            at = next((o for o in opportunities if o >= path_end), len(plain))
        else:
            at = _line_end(plain, start, width, outside, opportunities)
        if at >= len(plain):  # one character (or path) wider than the line: the line is its own
            break
        starts.append(at)
        start = at
    return starts


def _widest_unit(plain: str, offsets: Sequence[int]) -> int:
    bounds = [0, *offsets, len(plain)]
    return max((_shown(plain, a, b) for a, b in pairwise(bounds)), default=0)


class Wrapped(Text):
    """A ``Text`` whose lines break where its language allows (see the module's note), and,
    for a list set by ``flow``, between its entries first."""

    def __init__(
        self, *args: Any, keep: Sequence[tuple[int, int]] = (), whole_paths: bool = False, **kwargs: Any
    ) -> None:
        super().__init__(*args, **kwargs)
        self.keep = tuple(keep)
        # A path wider than the line left whole, for the terminal to wrap: a path folded into
        # two lines cannot be copied from the terminal. Only for text printed on its own (see
        # ``LineBreakingConsole``): in a table's cell it would push the table's rules out.
        self.whole_paths = whole_paths

    @classmethod
    def of(
        cls,
        text: str | Text,
        style: str | Style = "",
        keep: Sequence[tuple[int, int]] = (),
        whole_paths: bool = False,
    ) -> Wrapped:
        if isinstance(text, str):
            return cls(text, style=style, keep=keep, whole_paths=whole_paths)
        return cls(
            text.plain,
            style=text.style,
            justify=text.justify,
            overflow=text.overflow,
            no_wrap=text.no_wrap,
            end=text.end,
            spans=list(text.spans),
            keep=keep,
            whole_paths=whole_paths,
        )

    def _lines_with_keep(self) -> list[tuple[Text, tuple[tuple[int, int], ...]]]:
        """The text's own lines (split at newlines), each with the kept ranges inside it."""
        result = []
        base = 0
        for line in self.split(allow_blank=True):
            size = len(line.plain)
            inside = tuple(
                (max(a - base, 0), min(b - base, size)) for a, b in self.keep if a < base + size and b > base
            )
            result.append((line, inside))
            base += size + 1
        return result

    def wrap(
        self,
        console: Console,
        width: int,
        *,
        justify: JustifyMethod | None = None,
        overflow: OverflowMethod | None = None,
        tab_size: int = 8,
        no_wrap: bool | None = None,
    ) -> Lines:
        # rich's Text.wrap, with rich's divide_line (spaces only) replaced by ``divide``
        if no_wrap or (no_wrap is None and self.no_wrap) or overflow == "ignore":
            return super().wrap(
                console, width, justify=justify, overflow=overflow, tab_size=tab_size, no_wrap=no_wrap
            )
        wrap_justify = justify or self.justify or "default"
        wrap_overflow = overflow or self.overflow or "fold"
        lines = Lines()
        for line, keep in self._lines_with_keep():
            if "\t" in line.plain:
                line.expand_tabs(tab_size)
            new_lines = line.divide(divide(line.plain, width, keep, whole_paths=self.whole_paths))
            for part in new_lines[:-1]:
                part.rstrip()
            new_lines[-1].rstrip_end(width)
            if wrap_justify:
                new_lines.justify(console, width, justify=wrap_justify, overflow=wrap_overflow)
            for part in new_lines:
                if not self.whole_paths:  # the only lines wider than ``width`` are whole paths
                    part.truncate(width, overflow=wrap_overflow)
            lines.extend(new_lines)
        return lines

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        widest = 0
        narrowest = 0
        for line, keep in self._lines_with_keep():
            plain = line.plain
            widest = max(widest, cell_len(plain))
            narrowest = max(narrowest, _widest_unit(plain, allowed(plain, keep)))
        return Measurement(narrowest, widest)


def wrapped(text: str | Text, style: str | Style = "") -> Wrapped:
    """``text`` as a ``Wrapped``, keeping its styles."""
    return Wrapped.of(text, style)


def flow(
    entries: Iterable[str | Text],
    separator: str = "  ",
    lead: str | Text = "",
    tail: str | Text = "",
    style: str | Style = "",
) -> Wrapped:
    """A list's entries (a team's mileage piles, each seat's cards in hand, the cards in a hand)
    in one run of text that breaks a line between two entries, never inside one that fits on a
    line of its own. ``lead`` and ``tail`` (the sentence around the list: "Your hand: ") break
    where their language allows. The separator follows each entry but the last, so a line ends
    in it as running text ends a line in its comma."""
    text = Text(style=style)
    text.append_text(Text(lead) if isinstance(lead, str) else lead)
    keep: list[tuple[int, int]] = []
    for at, entry in enumerate(entries):
        if at:
            text.append(separator)
            keep[-1] = (keep[-1][0], len(text.plain))  # a separator never opens a line
        start = len(text.plain)
        text.append_text(Text(entry) if isinstance(entry, str) else entry)
        keep.append((start, len(text.plain)))
    text.append_text(Text(tail) if isinstance(tail, str) else tail)
    return Wrapped.of(text, keep=keep)


def widest_word(text: str) -> int:
    """The cells of the widest run of ``text`` between spaces: the narrowest a heading (or a
    status) that may break only at its spaces can be set."""
    return max(map(cell_len, text.split() or [""]))


def widest_entry(lists: Iterable[Sequence[str]], separator: str) -> int:
    """The fewest cells a column of ``flow``s of these lists can have and keep every entry whole:
    the widest entry, with the separator's mark when another entry follows it (a line may end
    after the mark, never before it)."""
    mark = separator.rstrip()
    return max(
        cell_len(f"{entry}{mark * (at < len(entries) - 1)}")
        for entries in lists
        for at, entry in enumerate(entries)
    )


def flow_within(
    sentence: Callable[[str], str], entries: Iterable[str | Text], separator: str, style: str | Style = ""
) -> Wrapped:
    """A sentence from the catalogs that holds a list ("Your hand: {cards}"), given as a function
    that fills the list's place: the list flows (see ``flow``) inside the sentence's words."""
    lead, tail = sides(sentence)
    return flow(entries, separator, lead=lead, tail=tail, style=style)


class LineBreakingConsole(Console):
    """A console whose strings and texts break as ``Wrapped`` text does. rich's ``print`` joins
    the strings and texts it is given into a new plain ``Text`` (losing a ``Wrapped``), so
    ``print`` hands them over joined already, inside a ``Group``. A path in what it prints is
    never folded: one wider than the terminal gets a line of its own, printed uncropped, which
    the terminal wraps and a reader copies whole (a record's path is often over 80 columns)."""

    def render_str(self, text: str, **kwargs: Any) -> Text:
        return Wrapped.of(super().render_str(text, **kwargs))

    def print(self, *objects: Any, sep: str = " ", end: str = "\n", **kwargs: Any) -> None:
        if objects and not kwargs.get("soft_wrap") and all(isinstance(o, str | Text) for o in objects):
            texts = [o if isinstance(o, Text) else self.render_str(o) for o in objects]
            one = texts[0] if len(texts) == 1 else None
            if isinstance(one, Wrapped) and one.end == end:  # a copy: the caller's text keeps its own
                joined = Wrapped.of(one, keep=one.keep, whole_paths=True)
            else:  # a flow's kept entries are lost in a join; one text needs none
                joined = Wrapped.of(Text(sep, end=end).join(texts), whole_paths=True)
            objects = (Group(joined),)
            kwargs.setdefault("crop", False)
        super().print(*objects, sep=sep, end=end, **kwargs)
