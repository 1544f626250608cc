"""Scenario tests: setup, the turn, dice rules, every crew card, the rack, winning, rulings."""

from __future__ import annotations

import json

import pytest

from tabletrek import IllegalAction
from tabletrek.core.registry import load
from tabletrek.games.double_crossing.content import BOX, CREW, ENGINEER, STOP, TANK, VILLAIN
from tabletrek.games.double_crossing.rules import step_from_dict
from tabletrek.games.double_crossing.state import DoubleCrossingState

from . import positions as p


def illegal_key(s: DoubleCrossingState, text: str) -> str:
    before = s.to_json()
    with pytest.raises(IllegalAction) as info:
        s.apply(text)
    assert s.to_json() == before
    return info.value.key


# ----- setup -----------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 4, 6])
def test_setup_money_cars_cards_and_first_player(players: int) -> None:
    for seed in range(5):
        s = load("double-crossing", players=players).new_game(seed=seed)
        assert isinstance(s, DoubleCrossingState)
        c = s.content
        assert s.cash == [1_500_000] * players and s.depot == 100_000
        assert s.money_total() == 19_500_000
        assert all(sum(rack) == 2 for rack in s.cars)
        assert all(sum(hand) == 4 for hand in s.hands)
        assert len(s.draw) == 55 - 4 * players
        assert s.pos == [-1] * players and s.turn_seat == s.first
        p.conserved(s)
        assert c.die_car == (0, 1, 1, 2, 2, 3)


def test_first_player_is_the_highest_roll_ties_rolled_again() -> None:
    game = load("double-crossing", players=3)
    s = game.new_game(seed=11)
    assert isinstance(s, DoubleCrossingState)
    assert s.turn_seat == s.first and s.pending is not None
    # the window asks the other players, starting with the one after the first player
    assert s.pending == {
        "k": "window",
        "seat": (s.first + 1) % 3,
        "queue": [(s.first + 2) % 3],
        "target": s.first,
    }


# ----- the Stop card: an out-of-turn reaction window ------------------------------------------------


def window(s: DoubleCrossingState, seat: int) -> None:
    n = s.game.players
    others = [(seat + i) % n for i in range(1, n)]
    p.start_turn(s, seat)
    s.stack.append(step_from_dict({"k": "window", "seat": others[0], "queue": others[1:], "target": seat}))


def test_every_other_player_is_asked_in_turn_order() -> None:
    s = p.table()
    window(s, 1)
    asked = []
    while s.pending["k"] == "window":
        asked.append(s.current_player)
        assert p.texts(s) == ["pass"]  # no Stop card: pass is the only answer, but it is asked
        s.apply("pass")
    assert asked == [2, 3, 0]
    assert s.current_player == 1 and s.pending["k"] == "preroll"


def test_stop_won_skips_the_turn() -> None:
    s = p.table()
    p.cards(s, 3, stop=1)
    window(s, 1)
    s.apply("pass")  # seat 2 (no Stop card) is asked first
    assert s.current_player == 3 and p.texts(s) == ["pass", "stop"]
    p.dice(s, 3, 3, 5, 2)  # tie re-rolled, then 5 beats 2
    s.apply("stop")
    assert s.hands[3][STOP] == 0 and s.discard[-1] == STOP
    assert s.turn_seat == 2  # seat 1 lost the turn
    p.conserved(s)


def test_stop_lost_lets_the_turn_go_on_and_closes_the_window() -> None:
    s = p.table()
    p.cards(s, 2, stop=1)
    p.cards(s, 3, stop=1)
    window(s, 1)
    p.dice(s, 1, 6)
    s.apply("stop")  # seat 2 loses the duel
    assert s.current_player == 1 and s.pending["k"] == "preroll"  # seat 3 is not asked


def test_stops_per_turn_option_keeps_asking() -> None:
    s = p.table(stops_per_turn=2)
    p.cards(s, 2, stop=1)
    p.cards(s, 3, stop=1)
    window(s, 1)
    p.dice(s, 1, 6)
    s.apply("stop")
    assert s.current_player == 3 and p.texts(s) == ["pass", "stop"]


def test_stop_needs_the_card() -> None:
    s = p.table()
    window(s, 1)
    assert illegal_key(s, "stop") == "double_crossing.illegal.no_card"


# ----- rolling, Railroad Crew -----------------------------------------------------------------


def test_roll_options_follow_the_crew_cards_held() -> None:
    s = p.table()
    assert "roll slow" not in p.texts(s)
    assert illegal_key(s, "roll slow") == "double_crossing.illegal.crew_needed"
    p.cards(s, 0, crew=1)
    s._legal = None
    assert {"roll", "roll slow", "roll back"} <= set(p.texts(s)) and "roll slow back" not in p.texts(s)
    p.cards(s, 0, crew=1)
    s._legal = None
    assert "roll slow back" in p.texts(s)


def test_slow_uses_one_die_and_one_card() -> None:
    s = p.table()
    p.cards(s, 0, crew=1)
    s.pos[0] = 10
    p.dice(s, 4)
    s.apply("roll slow")
    assert s.pos[0] == 14 and s.hands[0][CREW] == 0 and s.played[CREW] == 1


def test_reverse_moves_counter_clockwise_for_this_turn_only() -> None:
    s = p.table()
    p.cards(s, 0, crew=1)
    s.pos[0] = 10
    p.dice(s, 1, 2)
    s.apply("roll back")
    assert s.pos[0] == 7
    p.start_turn(s, 0)  # next turn: clockwise again
    p.dice(s, 1, 2)
    s.apply("roll")
    assert s.pos[0] == 10


def test_slow_and_reverse_costs_two_cards() -> None:
    s = p.table()
    p.cards(s, 0, crew=2)
    s.pos[0] = 2
    p.dice(s, 5)
    s.apply("roll slow back")
    assert s.pos[0] == 45 and s.hands[0][CREW] == 0


def test_buy_cards_instead_of_rolling() -> None:
    s = p.table()
    s.pos[0] = 5
    p.dice(s, 2)
    s.apply("buy cards")
    assert p.texts(s) == ["buy 0", "buy 1", "buy 2"]
    s.apply("buy 2")
    assert sum(s.hands[0]) == 2 and s.pos[0] == 5 and s.turn_seat == 1
    assert s.cash[0] == p.START - 200_000


# ----- doubles -----------------------------------------------------------------


def test_doubles_discard_a_card_of_your_choice() -> None:
    s = p.table()
    p.cards(s, 0, villain=1, stop=1)
    s.pos[0] = 5
    p.dice(s, 2, 2)
    s.apply("roll")
    assert s.pending["k"] == "discard" and p.texts(s) == ["discard villain", "discard stop"]
    s.apply("discard stop")
    assert s.hands[0][STOP] == 0 and s.discard == [STOP] and s.pos[0] == 9
    assert s.played[STOP] == 0  # discarded, not played


def test_doubles_without_cards_just_move() -> None:
    s = p.table()
    s.pos[0] = 5
    p.dice(s, 3, 3)
    s.apply("roll")
    assert s.pos[0] == 11


def test_double_sixes_give_a_boxcar_and_no_discard() -> None:
    s = p.table()
    p.cards(s, 0, villain=1)
    s.pos[0] = 1
    p.dice(s, 6, 6)
    s.apply("roll")
    assert s.cars[0][BOX] == 1 and s.hands[0][VILLAIN] == 1 and s.pos[0] == 13


def test_double_sixes_with_no_boxcar_left_give_nothing() -> None:
    s = p.table()
    p.cars(s, 1, box=6)
    s.pos[0] = 1
    p.dice(s, 6, 6)
    s.apply("roll")
    assert s.cars[0][BOX] == 0
    p.conserved(s)


# ----- occupied spaces -----------------------------------------------------------------


def test_landing_on_an_occupied_space_gives_another_turn_with_cards() -> None:
    s = p.table()
    target = p.space(s, "crew-cards")
    s.pos[3] = target
    p.cards(s, 0, crew=1)
    p.land(s, 0, target)
    assert s.current_player == 0 and s.pending["k"] == "preroll"
    assert "roll slow" in p.texts(s)


# ----- Villain -----------------------------------------------------------------


def test_villain_derails_a_car_of_the_target_onto_its_space() -> None:
    s = p.table()
    p.cards(s, 0, villain=2)
    s.pos[2] = 20
    p.cars(s, 2, box=1, tank=1)
    assert "villain p3" in p.texts(s) and "villain p2" not in p.texts(s)  # p2 has no car
    s.apply("villain p3")
    assert s.current_player == 2 and p.texts(s) == ["drop box", "drop tank"]  # the target chooses
    s.apply("drop tank")
    assert s.dropped == {20: [0, 0, 0, 1]} and s.cars[2][TANK] == 0
    assert s.current_player == 0 and s.pending["k"] == "preroll"
    assert not any(t.startswith("villain") for t in p.texts(s))  # one per turn
    assert illegal_key(s, "villain p3") == "double_crossing.illegal.one_per_turn"
    p.conserved(s)


def test_villain_car_goes_to_the_next_player_stopping_there() -> None:
    s = p.table()
    p.cards(s, 0, villain=1)
    target = p.space(s, "govt-contract")
    s.pos[2] = target
    p.cars(s, 2, hopper=1)
    s.apply("villain p3")  # one car type: dropped without asking
    assert s.dropped == {target: [0, 0, 1, 0]}
    p.land(s, 0, target, 2, 3, 1)
    assert s.cars[0] == [0, 0, 1, 0]


def test_villain_needs_a_target_on_the_track() -> None:
    s = p.table()
    p.cards(s, 0, villain=1)
    p.cars(s, 2, hopper=1)
    assert illegal_key(s, "villain p3") == "double_crossing.illegal.villain_target"


# ----- Engineer -----------------------------------------------------------------


def test_engineer_rolls_again_once_per_turn() -> None:
    s = p.table()
    p.cards(s, 0, engineer=2)
    p.land(s, 0, p.space(s, "crew-cards"))
    assert s.pending["k"] == "end" and p.texts(s) == ["engineer", "end"]
    s.apply("engineer")
    assert s.current_player == 0 and s.pending["k"] == "preroll" and s.played[ENGINEER] == 1
    p.land(s, 0, p.space(s, "crew-cards", 1))
    assert s.turn_seat == 1  # a second Engineer is not offered


def test_the_end_of_turn_prompt_does_not_reveal_an_engineer() -> None:
    s = p.table()
    p.land(s, 0, p.space(s, "pay-taxes"))
    assert s.pending == {"k": "end", "seat": 0} and p.texts(s) == ["end"]  # asked all the same


def test_a_single_kind_of_card_is_still_asked_for_the_doubles_discard() -> None:
    s = p.table()
    p.cards(s, 0, crew=2)
    s.pos[0] = 5
    p.dice(s, 1, 1)
    s.apply("roll")
    assert s.pending == {"k": "discard", "seat": 0} and p.texts(s) == ["discard crew"]


def test_engineer_may_be_kept() -> None:
    s = p.table()
    p.cards(s, 0, engineer=1)
    p.land(s, 0, p.space(s, "crew-cards"))
    s.apply("end")
    assert s.turn_seat == 1 and s.hands[0][ENGINEER] == 1


def test_no_engineer_on_the_stop_space() -> None:
    s = p.table()
    p.cards(s, 0, engineer=1)
    p.land(s, 0, p.space(s, "stop"))
    assert s.turn_seat == 1


# ----- the rack -----------------------------------------------------------------


def test_a_seventh_car_is_sold_back_at_half_price() -> None:
    s = p.table()
    p.cars(s, 0, box=3, tank=3)
    p.land(s, 0, p.space(s, "train-shop"), 2, 3, 4)  # a hopper
    assert s.pending["k"] == "rack" and p.texts(s) == ["sell box", "sell hopper", "sell tank"]
    s.apply("sell tank")
    assert sum(s.cars[0]) == 6 and s.cash[0] == p.START + s.content.car_prices[TANK] // 2
    p.conserved(s)


# ----- winning -----------------------------------------------------------------


def test_passing_central_station_with_six_contracts_wins() -> None:
    s = p.table()
    p.give_any(s, 0, 6)
    s.pos[0] = 45
    p.dice(s, 3, 4)
    s.apply("roll")
    assert s.is_over and s.result is not None and s.result.winners == (0,)
    assert s.result.reason == "double_crossing.end.home" and s.pos[0] == 0
    assert s.current_player is None and s.legal_actions() == ()


def test_a_won_game_stays_over_through_clone_and_json() -> None:
    # ``is_over`` is the state's attribute and ``ended`` its name in the saved JSON: both copies
    # and a reload must carry it.
    s = p.table()
    p.give_any(s, 0, 6)
    s.pos[0] = 45
    p.dice(s, 3, 4)
    assert not s.ended and json.loads(s.to_json())["state"]["ended"] is False
    s.apply("roll")
    assert s.is_over and s.ended and json.loads(s.to_json())["state"]["ended"] is True
    for copy in (s.clone(), DoubleCrossingState.from_json(s.to_json())):
        assert isinstance(copy, DoubleCrossingState)
        assert copy.is_over and copy.ended and copy.winner == 0
        assert copy.current_player is None and copy.legal_actions() == ()
        assert copy.to_json() == s.to_json()
    with pytest.raises(IllegalAction) as info:
        s.apply("roll")
    assert info.value.key == "core.illegal.game_over"


def test_five_contracts_do_not_win() -> None:
    s = p.table()
    p.give_any(s, 0, 5)
    s.pos[0] = 45
    p.dice(s, 3, 4)
    s.apply("roll")
    assert not s.is_over and s.pos[0] == 4


def test_exact_return_option_needs_an_exact_landing() -> None:
    s = p.table(exact_return=True)
    p.give_any(s, 0, 6)
    s.pos[0] = 45
    p.dice(s, 3, 4)
    s.apply("roll")
    assert not s.is_over
    s = p.table(exact_return=True)
    p.give_any(s, 0, 6)
    s.pos[0] = 45
    p.dice(s, 1, 2)
    s.apply("roll")
    assert s.is_over and s.winner == 0


def test_backwards_through_central_station_also_counts() -> None:
    s = p.table()
    p.give_any(s, 0, 6)
    p.cards(s, 0, crew=1)
    s.pos[0] = 3
    p.dice(s, 2, 3)
    s.apply("roll back")
    assert s.is_over and s.winner == 0


def test_roundhouse_to_central_station_wins() -> None:
    s = p.table()
    p.give_any(s, 0, 6)
    p.land(s, 0, p.space(s, "roundhouse"), 2, 3, 4, 4)
    s.apply("go 0")
    assert s.is_over and s.winner == 0


def test_max_rounds_ends_in_a_draw() -> None:
    s = p.table(max_rounds=1, players=2, seat=1)
    p.land(s, 1, p.space(s, "stop"))  # seat 1 is the last of round 1
    assert s.is_over and s.result is not None and s.result.winners == ()
    assert s.result.reason == "double_crossing.end.max_rounds"


# ----- explanations -----------------------------------------------------------------


def test_illegal_moves_name_the_rule() -> None:
    s = p.table()
    assert illegal_key(s, "fly home") == "double_crossing.illegal.unknown"
    assert illegal_key(s, "trade prairie-oil-1") == "double_crossing.illegal.not_now"
    assert illegal_key(s, "engineer") == "double_crossing.illegal.not_now"
    assert illegal_key(s, "villain p2") == "double_crossing.illegal.no_card"
    p.cars(s, 0, tank=1)
    p.land(s, 0, p.space(s, "trade", 2))
    assert illegal_key(s, "trade harbor-steel-1") == "double_crossing.illegal.wrong_company"
    assert illegal_key(s, "trade prairie-oil-2") == "double_crossing.illegal.cars_needed"
    message = IllegalAction("double_crossing.illegal.cars_needed").message("zh-Hant")
    assert "車輛" in message


# ----- more rulings ---------------------------------------------------------------------------------


def scripted_start(monkeypatch: pytest.MonkeyPatch, players: int, rolls: list[int]) -> DoubleCrossingState:
    from tabletrek.games.double_crossing import game

    monkeypatch.setattr(game, "make_rng", lambda seed: p.Dice(rolls))
    s = load("double-crossing", players=players).new_game(seed=1)
    assert isinstance(s, DoubleCrossingState)
    return s


def test_start_cars_reroll_a_sold_out_kind_and_first_player_ties_reroll(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    cars = [6, 6, 6, 6, 6, 6, 6, 1, 2, 4, 5, 3, 2]  # the 7th tank is sold out: that die is rolled again
    first = [6, 6, 3, 3, 6, 6, 1, 1, 1, 1, 2, 2]  # seats 1 and 3 tie on 12 ...
    tie = [2, 2, 5, 5]  # ... and roll again: seat 3 wins
    s = scripted_start(monkeypatch, 6, cars + first + tie)
    assert [rack[TANK] for rack in s.cars] == [2, 2, 2, 0, 0, 0]
    assert s.cars[3] == [1, 1, 0, 0] and s.cars[4] == [0, 0, 2, 0] and s.cars[5] == [0, 2, 0, 0]
    assert s.yard[TANK] == 0
    assert s.first == 2 and s.turn_seat == 2
    p.conserved(s)


def test_no_stop_window_before_extra_rolls() -> None:
    s = p.table()
    p.cards(s, 1, stop=1)
    p.land(s, 0, p.space(s, "roll-again"))
    assert s.current_player == 0 and s.pending == {"k": "preroll", "seat": 0}


def test_roundhouse_doubles_are_not_a_move_no_discard() -> None:
    s = p.table()
    p.cards(s, 0, stop=1)
    p.land(s, 0, p.space(s, "roundhouse"), 2, 3, 4, 4)
    assert s.hands[0][STOP] == 1


def test_control_tower_can_send_a_winner_home_and_gives_no_occupied_turn() -> None:
    s = p.table()
    p.give_any(s, 2, 6)
    p.land(s, 0, p.space(s, "control-tower"))
    assert "move p3 0" in p.texts(s)  # a player not yet on the track can be moved too
    s.apply("move p3 0")
    assert s.is_over and s.winner == 2
    s = p.table()
    target = p.space(s, "crew-cards")
    s.pos[3] = target
    p.land(s, 0, p.space(s, "control-tower"))
    s.apply(f"move p3 {target}")
    assert not s.again
    p.end_turn(s)
    assert s.turn_seat == 1


def test_no_engineer_after_buying_cards_instead_of_rolling() -> None:
    s = p.table()
    p.cards(s, 0, engineer=1)
    p.dice(s, 1)
    s.apply("buy cards")
    s.apply("buy 0")
    assert s.turn_seat == 1


def test_card_purchases_are_limited_by_the_cards_left() -> None:
    s = p.table()
    p.cards(s, 1, crew=25, villain=10, engineer=10, stop=8)
    assert len(s.draw) == 2
    p.dice(s, 6)
    s.apply("buy cards")
    assert p.texts(s) == ["buy 0", "buy 1", "buy 2"]


def test_the_discards_are_reshuffled_when_the_pile_runs_out() -> None:
    s = p.table()
    s.discard, s.draw = s.draw, []
    events = p.land(s, 0, p.space(s, "crew-cards"))
    assert any(e.key.endswith(".reshuffle") for e in events)
    assert sum(s.hands[0]) == 1 and s.discard == [] and len(s.draw) == 54


def test_an_empty_bank_pays_what_it_has() -> None:
    s = p.table()
    p.cars(s, 0, box=3, tank=3)
    s.depot += s.bank  # move the whole bank onto the Depot
    s.bank = 0
    p.land(s, 0, p.space(s, "train-shop"), 2, 3, 4)
    s.apply("sell tank")
    assert s.cash[0] == p.START and s.bank == 0
    p.conserved(s)
