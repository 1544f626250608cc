"""The seed as written (docs/rules/double-crossing.md, "Changed in the second rules review"):
Railroad Crew per turn, optional Roundhouse and Control Tower moves, the Control Tower to any space,
Connections without cars. Each rule has a test of the seed's reading and one of the option that
keeps tabletrek's first reading."""

from __future__ import annotations

from tabletrek.games.double_crossing import rules
from tabletrek.games.double_crossing.content import CREW, TANK

from . import positions as p


def crew_turn(**options: object) -> p.DoubleCrossingState:
    """Seat 0 holds 4 Railroad Crew cards, plays two on a roll that lands on Roll Again."""
    s = p.table(**options)
    p.cards(s, 0, crew=4)
    target = p.space(s, "roll-again")
    s.pos[0] = (target + 6) % s.content.size  # 6 back with one die: slow and reverse
    p.dice(s, 6)
    s.apply("roll slow back")
    assert s.pos[0] == target and s.hands[0][CREW] == 2
    assert s.pending is not None and s.pending["k"] == "preroll"  # Roll Again: the same turn
    return s


def test_railroad_crew_counts_per_turn_even_after_roll_again() -> None:
    # Seed: "(1)Railroad Crew(鐵路員)：玩家在每回合可使用1~2張" — 1-2 cards per turn, as the
    # Villain and the Engineer ("玩家在每回合只能使用1張") are counted per turn.
    s = crew_turn()
    texts = p.texts(s)
    assert "roll" in texts and not {"roll slow", "roll back", "roll slow back"} & set(texts)
    assert p.illegal_key(s, "roll slow") == "double_crossing.illegal.crew_per_turn"
    p.dice(s, 1, 2)
    s.apply("roll")
    assert s.hands[0][CREW] == 2  # the two left are kept for a later turn


def test_railroad_crew_one_card_leaves_one_for_the_rest_of_the_turn() -> None:
    s = p.table()
    p.cards(s, 0, crew=3)
    target = p.space(s, "roll-again")
    s.pos[0] = (target - 4) % s.content.size
    p.dice(s, 4)
    s.apply("roll slow")
    texts = set(p.texts(s))
    assert {"roll slow", "roll back"} <= texts and "roll slow back" not in texts


def test_railroad_crew_turn_count_starts_again_next_turn() -> None:
    s = crew_turn()
    p.dice(s, 1, 2)
    s.apply("roll")
    s.stack.clear()
    rules.begin_turn(s, [])  # the turn machine starts seat 0's next turn
    rules.advance(s, [])
    s._legal = None
    while s.pending is not None and s.pending["k"] == "window":
        s.apply("pass")
    assert s.crew_used == 0 and "roll slow back" in p.texts(s)


def test_crew_per_roll_option_allows_two_more_after_roll_again() -> None:
    s = crew_turn(crew_per_roll=True)
    assert "roll slow back" in p.texts(s)
    p.dice(s, 2)
    s.apply("roll slow back")
    assert s.hands[0][CREW] == 0


def roundhouse(**options: object) -> p.DoubleCrossingState:
    s = p.table(**options)
    p.land(s, 0, p.space(s, "roundhouse"), 2, 3, 4, 4)  # the first try shows doubles
    assert s.pending is not None and s.pending["k"] == "roundhouse"
    return s


def test_roundhouse_move_may_be_declined() -> None:
    # Seed, Roundhouse: "若三次擲骰中，出現2顆骰子點數相同情況，可將自家機車代表物移至圖板上
    # 任一方格內" — on doubles the player *may* move their token to any space.
    s = roundhouse()
    here = p.space(s, "roundhouse")
    assert "decline" in p.texts(s)
    events = s.apply("decline")
    assert s.pos[0] == here
    assert [e.key for e in events if e.key.endswith(".try")] == []  # no second set of rolls
    assert any(e.key == "double_crossing.event.stay" for e in events)
    assert s.pending is not None and s.pending["k"] == "end"


def test_roundhouse_own_space_is_no_move_and_does_not_roll_again() -> None:
    s = roundhouse()
    here = p.space(s, "roundhouse")
    assert f"go {here}" not in p.texts(s)
    assert p.illegal_key(s, f"go {here}") == "double_crossing.illegal.stay_is_decline"


def test_forced_moves_option_keeps_the_compulsory_roundhouse() -> None:
    s = roundhouse(forced_moves=True)
    here = p.space(s, "roundhouse")
    assert "decline" not in p.texts(s) and len(p.texts(s)) == s.content.size
    p.dice(s, 1, 2, 3, 4, 5, 6)  # tabletrek's first reading: "go" to itself rolls three times again
    events = s.apply(f"go {here}")
    assert len([e for e in events if e.key == "double_crossing.event.try"]) == 3


def test_control_tower_move_may_be_declined() -> None:
    # Seed, Control Tower: "可將其他任一玩家的機車代表物移至圖板上任一方格內" — the player *may*
    # move any other player's token to any space.
    s = p.table()
    p.land(s, 0, p.space(s, "control-tower"))
    positions = list(s.pos)
    assert "decline" in p.texts(s)
    events = s.apply("decline")
    assert s.pos == positions
    assert any(e.key == "double_crossing.event.tower_declined" for e in events)


def test_forced_moves_option_keeps_the_compulsory_control_tower() -> None:
    s = p.table(forced_moves=True)
    p.land(s, 0, p.space(s, "control-tower"))
    assert "decline" not in p.texts(s)


def test_control_tower_sends_a_token_to_the_control_tower_itself() -> None:
    # Seed: "移至圖板上任一方格內" — any space (任一方格), the Control Tower included.
    s = p.table()
    tower = p.space(s, "control-tower")
    p.land(s, 0, tower)
    assert f"move p2 {tower}" in p.texts(s)
    s.apply(f"move p2 {tower}")
    # The moved player resolves the Control Tower: they may move another token (or decline).
    assert s.pos[1] == tower and s.current_player == 1
    assert s.pending is not None and s.pending["k"] == "tower"
    assert f"move p1 {tower}" in p.texts(s) and "decline" in p.texts(s)
    s.apply("decline")
    assert s.current_player == 0


def test_connections_buys_at_half_price_without_cars() -> None:
    # Connections (docs/rules/double-crossing.md, "The spaces"): any open contract at half price,
    # no cars named.
    s = p.table()
    p.cars(s, 0, tank=2)
    p.land(s, 0, p.space(s, "connections"))
    assert len(p.texts(s)) == len(s.content.contracts) + 1
    k = p.contract(s, "prairie-oil-3")
    s.apply("connect prairie-oil-3")
    assert s.owner[k] == 0 and s.cash[0] == p.START - s.content.contracts[k].price // 2
    assert s.cars[0][TANK] == 2  # the cars stay on the rack
    p.conserved(s)


def test_connections_needs_cars_option_refuses_without_the_cars() -> None:
    s = p.table(connections_needs_cars=True)
    p.cars(s, 0, tank=2)
    p.land(s, 0, p.space(s, "connections"))
    assert "connect capital-mail-3" not in p.texts(s)
    assert p.illegal_key(s, "connect capital-mail-3") == "double_crossing.illegal.cars_needed"
