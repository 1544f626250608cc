"""A Ctrl+C is never lost, and never splits a game: a run stops after the game it came in, with
that game counted and handed to ``on_outcome`` (its record saved), or neither.

Python drops a KeyboardInterrupt raised while a finalizer runs (``__del__``, a generator closed as
it is collected: "Exception ignored in ..."), and a bot of someone's own may catch it with a bare
``except``. The press is a real SIGINT this process sends itself; the progress callback (called as
each game finishes) sends it and loses it one of those two ways."""

from __future__ import annotations

import os
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterator

import pytest

from tabletrek.core.interrupts import sigint_noted
from tabletrek.sim import GamesInterrupted, simulate
from tabletrek.sim.analyze import analyze
from tabletrek.sim.runner import GameOutcome
from tabletrek.sim.tournament import tournament

pytestmark = pytest.mark.skipif(os.name != "posix", reason="sends SIGINT")


@pytest.fixture(autouse=True)
def default_ctrl_c() -> Iterator[None]:
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    yield
    signal.signal(signal.SIGINT, previous)


class PressesAsItIsCollected:
    def __del__(self) -> None:
        os.kill(os.getpid(), signal.SIGINT)
        sum(range(3))  # Python raises the KeyboardInterrupt here, inside the finalizer


def lost_in_a_finalizer() -> None:
    PressesAsItIsCollected()  # collected at once


caught_by_the_bot: list[type[BaseException]] = []


def lost_in_a_bare_except() -> None:
    try:
        os.kill(os.getpid(), signal.SIGINT)
        time.sleep(30)  # not reached: the handler raises first
    except BaseException as error:  # what a careless bot does
        caught_by_the_bot.append(type(error))


def press_after(games: int, lose: Callable[[], None]) -> Callable[[int], None]:
    finished = 0

    def progress(done: int) -> None:
        nonlocal finished
        finished += done
        if finished == games:
            lose()

    return progress


RUNS: dict[str, Callable[[Callable[[int], None]], object]] = {
    "simulate": lambda progress: simulate("touring", 40, ["random", "greedy"], progress=progress),
    "tournament": lambda progress: tournament("touring", ["random", "greedy"], 20, progress=progress),
    "analyze": lambda progress: analyze("touring", 40, ["random", "greedy"], progress=progress),
}


@pytest.mark.parametrize("lose", [lost_in_a_finalizer, lost_in_a_bare_except])
@pytest.mark.parametrize("run", sorted(RUNS))
def test_a_lost_ctrl_c_stops_the_run_after_that_game(
    run: str, lose: Callable[[], None], capsys: pytest.CaptureFixture[str]
) -> None:
    hook = sys.unraisablehook
    caught_by_the_bot.clear()
    with pytest.raises(GamesInterrupted) as stopped:
        RUNS[run](press_after(3, lose))
    assert caught_by_the_bot == ([KeyboardInterrupt] if lose is lost_in_a_bare_except else [])
    result = stopped.value.result
    assert result is not None
    games = result.result.tally.games if run == "analyze" else len(result.outcomes)
    assert games == 3
    assert "KeyboardInterrupt" not in capsys.readouterr().err  # nor "Exception ignored in"
    assert sys.unraisablehook is hook
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler


@pytest.mark.parametrize("jobs", [1, 2])
def test_a_press_while_a_game_is_handed_over_waits_for_it(jobs: int) -> None:
    # before: the game was counted, and the KeyboardInterrupt cut its hand-over (its record's
    # save) short; a run killed with `timeout` said 200 games and had saved 199 records
    handed: list[int] = []

    def save(outcome: GameOutcome) -> None:
        if outcome.index == 3:
            os.kill(os.getpid(), signal.SIGINT)
            sum(range(3))  # the handler runs here
        handed.append(outcome.index)

    with pytest.raises(GamesInterrupted) as stopped:
        simulate("touring", 400, ["random", "greedy"], jobs=jobs, keep_outcomes=False, on_outcome=save)
    assert stopped.value.result.games == len(handed) == handed[-1] + 1 >= 4


def test_other_lost_errors_are_still_shown(capsys: pytest.CaptureFixture[str]) -> None:
    shown: list[type[BaseException]] = []
    hook = sys.unraisablehook
    sys.unraisablehook = lambda unraisable: shown.append(unraisable.exc_type)
    try:

        class Broken:
            def __del__(self) -> None:
                raise RuntimeError("a finalizer's own error")

        with sigint_noted() as presses:
            Broken()
        assert shown == [RuntimeError]
        assert not presses
    finally:
        sys.unraisablehook = hook


def test_another_thread_or_handler_is_left_alone() -> None:
    seen: list[bool] = []

    def in_a_thread() -> None:
        with sigint_noted() as presses:
            seen.append(presses.listening)

    thread = threading.Thread(target=in_a_thread)
    thread.start()
    thread.join()
    assert seen == [False]

    def own(signum: int, frame: object) -> None:
        raise AssertionError("not expected")

    signal.signal(signal.SIGINT, own)
    hook = sys.unraisablehook
    with sigint_noted() as presses:
        assert not presses.listening
        assert signal.getsignal(signal.SIGINT) is own
        assert sys.unraisablehook is hook  # a press lost there is not counted here: it shows
    assert signal.getsignal(signal.SIGINT) is own
