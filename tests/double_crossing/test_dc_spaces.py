"""Scenario tests: every normal and special space (docs/rules/double-crossing.md, "The spaces")."""

from __future__ import annotations

from tabletrek.games.double_crossing.content import BOX, CREW, HOPPER, PASSENGER, TANK

from . import positions as p


def test_govt_contract_buys_up_to_the_die_at_100k_each() -> None:
    s = p.table()
    target = p.space(s, "govt-contract")
    p.land(s, 0, target, 2, 3, 4)  # the card die shows 4
    assert s.pending["k"] == "buy_cards"
    assert p.texts(s) == [f"buy {n}" for n in range(5)]
    before = len(s.draw)
    s.apply("buy 3")
    assert sum(s.hands[0]) == 3 and len(s.draw) == before - 3
    assert s.cash[0] == p.START - 300_000
    p.conserved(s)


def test_govt_contract_limited_by_cash() -> None:
    s = p.table()
    p.cash(s, 0, 150_000)
    p.land(s, 0, p.space(s, "govt-contract"), 2, 3, 6)
    assert p.texts(s) == ["buy 0", "buy 1"]


def test_train_shop_gives_the_car_the_die_names() -> None:
    for face, car in ((1, PASSENGER), (2, BOX), (3, BOX), (4, HOPPER), (5, HOPPER), (6, TANK)):
        s = p.table()
        p.land(s, 0, p.space(s, "train-shop"), 2, 3, face)
        assert s.cars[0][car] == 1 and sum(s.cars[0]) == 1
        assert s.cash[0] == p.START  # free
        p.conserved(s)


def test_train_shop_with_an_empty_yard_gives_nothing() -> None:
    s = p.table()
    p.cars(s, 1, tank=6)
    p.land(s, 0, p.space(s, "train-shop"), 2, 3, 6)
    assert sum(s.cars[0]) == 0


def test_trade_pays_the_price_and_returns_the_cars() -> None:
    s = p.table()
    company_space = p.space(s, "trade", 2)  # prairie-oil
    assert s.content.companies[s.content.spaces[company_space].company] == "prairie-oil"
    p.cars(s, 0, tank=3, box=1)
    p.land(s, 0, company_space)
    assert s.pending["k"] == "trade"
    offered = p.texts(s)
    assert "trade prairie-oil-1" in offered and "trade prairie-oil-3" in offered and "done" in offered
    assert not any("harbor" in t for t in offered)  # only this company's contracts
    k = s.content.contracts[p.contract(s, "prairie-oil-1")]
    s.apply("trade prairie-oil-1")
    assert s.owner[k.index] == 0
    assert s.cash[0] == p.START - k.price
    assert s.cars[0][TANK] == 3 - k.cars[TANK]
    p.conserved(s)


def test_trade_up_to_three_contracts_per_visit() -> None:
    s = p.table()
    p.cars(s, 0, tank=4, box=3)
    p.land(s, 0, p.space(s, "trade", 2))
    for slug in ("prairie-oil-1", "prairie-oil-2"):
        s.apply(f"trade {slug}")
    assert s.pending["k"] == "trade"
    s.apply("done")
    assert s.owner.count(0) == 2
    s2 = p.table()
    p.cars(s2, 0, tank=4, box=2)
    p.land(s2, 0, p.space(s2, "trade", 2))
    for slug in ("prairie-oil-1", "prairie-oil-2", "prairie-oil-3"):
        s2.apply(f"trade {slug}")
    assert s2.owner.count(0) == 3
    assert s2.pending is None or s2.pending["k"] != "trade"  # the third trade closes the visit


def test_trade_needs_the_cars_and_the_cash() -> None:
    s = p.table()
    p.cars(s, 0, tank=1)
    p.cash(s, 0, 50_000)
    p.land(s, 0, p.space(s, "trade", 2))
    # Only prairie-oil-1 (one tank, $50k) is both affordable and covered by the rack: trade or done.
    assert p.texts(s) == ["trade prairie-oil-1", "done"]


def test_trade_space_with_nothing_possible_asks_nothing() -> None:
    s = p.table()
    p.land(s, 0, p.space(s, "trade", 2))
    assert s.pending == {"k": "end", "seat": 0}  # no cars: no trade is possible, nothing asked
    assert p.texts(s) == ["end"]
    p.end_turn(s)
    assert s.turn_seat == 1


def test_roll_again_gives_another_roll() -> None:
    s = p.table()
    p.land(s, 0, p.space(s, "roll-again"))
    assert s.current_player == 0 and s.pending["k"] == "preroll"
    assert s.turn_seat == 0


def test_stop_space_ends_the_turn_even_on_an_occupied_space() -> None:
    s = p.table()
    target = p.space(s, "stop")
    s.pos[2] = target
    p.cards(s, 0, engineer=1)
    p.land(s, 0, target)
    assert s.turn_seat == 1  # no other turn, no Engineer offered
    assert s.hands[0][2] == 1


def test_pay_taxes() -> None:
    s = p.table()
    target = p.space(s, "pay-taxes")
    amount = s.content.spaces[target].amount
    p.land(s, 0, target)
    assert s.cash[0] == p.START - amount
    p.conserved(s)


def test_short_of_cash_sells_at_half_price_until_able_to_pay() -> None:
    s = p.table()
    target = p.space(s, "pay-taxes", 1)
    amount = s.content.spaces[target].amount
    p.cash(s, 0, 0)
    p.cars(s, 0, tank=1, box=1)
    p.give(s, 0, "prairie-oil-3")
    p.land(s, 0, target)
    assert s.pending["k"] == "pay"
    assert set(p.texts(s)) == {"sell box", "sell tank", "sell prairie-oil-3"}
    s.apply("sell tank")  # half of $200k = $100k
    assert s.cash[0] == 100_000 - amount and s.cars[0][TANK] == 0 and s.yard[TANK] == 6
    p.conserved(s)


def test_selling_a_contract_returns_it_to_its_company() -> None:
    s = p.table()
    p.cash(s, 0, 80_000)
    p.give(s, 0, "prairie-oil-3")
    taxes = p.space(s, "pay-taxes", 1)
    p.land(s, 0, taxes)  # a single thing to sell: sold without asking
    k = p.contract(s, "prairie-oil-3")
    assert s.owner[k] == -1
    assert s.cash[0] == 80_000 + s.content.contracts[k].price // 2 - s.content.spaces[taxes].amount
    p.conserved(s)


def test_with_nothing_left_to_sell_the_player_pays_what_is_left() -> None:
    s = p.table()
    p.cash(s, 0, 20_000 if False else 0)
    p.land(s, 0, p.space(s, "pay-taxes"))
    assert s.cash[0] == 0 and s.pending == {"k": "end", "seat": 0}
    p.conserved(s)


def test_yard_sells_its_car_at_the_list_price() -> None:
    s = p.table()
    target = p.space(s, "yard")
    car = s.content.spaces[target].car
    p.land(s, 0, target)
    assert p.texts(s) == [f"buy {('passenger', 'box', 'hopper', 'tank')[car]}", "decline"]
    s.apply(p.texts(s)[0])
    assert s.cars[0][car] == 1 and s.cash[0] == p.START - s.content.car_prices[car]
    p.conserved(s)


def test_yard_can_be_declined() -> None:
    s = p.table()
    p.land(s, 0, p.space(s, "yard"))
    s.apply("decline")
    assert sum(s.cars[0]) == 0 and s.cash[0] == p.START


def test_crew_cards_space_draws_one_card_secretly() -> None:
    s = p.table()
    events = p.land(s, 0, p.space(s, "crew-cards"))
    assert sum(s.hands[0]) == 1
    drew = next(e for e in events if e.key.endswith(".drew"))
    assert drew.audience == frozenset({0}) and "card" in drew.secret and "card" not in drew.args
    assert "card" not in drew.for_viewer(1)["args"]


def test_corner_station_collects_per_passenger_car_from_every_other_player() -> None:
    s = p.table()
    p.cars(s, 0, passenger=2)
    corner = p.space(s, "corner")
    p.land(s, 0, corner, 2, 3, 1)  # card die 1
    fare = s.content.corner_fare * 2
    assert s.cash[0] == p.START + 3 * fare
    assert s.cash[1:] == [p.START - fare] * 3
    assert s.pending["k"] == "buy_cards"  # then crew cards may be bought
    assert p.texts(s) == ["buy 0", "buy 1"]
    p.conserved(s)


def test_corner_station_fare_forces_a_short_player_to_sell() -> None:
    s = p.table()
    p.cars(s, 0, passenger=1)
    p.cash(s, 2, 0)
    p.cars(s, 2, box=1, tank=1)
    p.land(s, 0, p.space(s, "corner"), 2, 3, 1)
    assert s.current_player == 2 and s.pending["k"] == "pay"  # the payer decides, out of turn
    s.apply("sell box")
    assert s.cash[2] == 0 and s.cash[0] == p.START + 3 * s.content.corner_fare
    p.conserved(s)


def test_central_station_is_a_corner_station() -> None:
    s = p.table()
    p.cars(s, 0, passenger=1)
    s.pos[0] = 44
    p.dice(s, 2, 2, 1)  # doubles, but no card to discard; lands on 0
    s.apply("roll")
    assert s.pos[0] == 0 and s.cash[0] == p.START + 3 * s.content.corner_fare


def test_derail_empty_takes_one_of_your_cars() -> None:
    s = p.table()
    target = p.space(s, "derail")
    p.cars(s, 0, box=1, tank=1)
    p.land(s, 0, target)
    assert s.pending["k"] == "drop" and p.texts(s) == ["drop box", "drop tank"]
    s.apply("drop box")
    assert s.dropped == {target: [0, 1, 0, 0]}
    p.conserved(s)


def test_derail_with_a_car_gives_it_free_and_no_engineer() -> None:
    s = p.table()
    target = p.space(s, "derail")
    s.dropped[target] = [0, 0, 1, 0]
    s.yard[HOPPER] -= 1
    p.cards(s, 0, engineer=1)
    p.land(s, 0, target)
    assert s.cars[0][HOPPER] == 1 and target not in s.dropped
    assert s.turn_seat == 1  # the Engineer may not be used on Derail
    p.conserved(s)


def test_double_cross_duel_won_takes_the_contract() -> None:
    s = p.table()
    p.give(s, 2, "prairie-oil-1")
    p.land(s, 0, p.space(s, "double-cross"), 2, 3, 5, 5, 6, 1)  # tie re-rolled, then 6 beats 1
    assert p.texts(s) == ["double-cross prairie-oil-1", "decline"]
    s.apply("double-cross prairie-oil-1")
    assert s.owner[p.contract(s, "prairie-oil-1")] == 0


def test_double_cross_duel_lost_keeps_the_contract() -> None:
    s = p.table()
    p.give(s, 2, "prairie-oil-1")
    p.land(s, 0, p.space(s, "double-cross"), 2, 3, 1, 4)
    s.apply("double-cross prairie-oil-1")
    assert s.owner[p.contract(s, "prairie-oil-1")] == 2


def test_roundhouse_doubles_move_anywhere_and_resolve_it() -> None:
    s = p.table()
    p.land(s, 0, p.space(s, "roundhouse"), 2, 3, 1, 2, 4, 4)  # second try shows doubles
    here = p.space(s, "roundhouse")
    # Every other space, or stay (decline): the move is optional (see test_dc_seed_readings).
    assert s.pending["k"] == "roundhouse" and len(p.texts(s)) == s.content.size
    assert f"go {here}" not in p.texts(s) and "decline" in p.texts(s)
    depot = p.space(s, "depot")
    s.apply(f"go {depot}")
    assert s.pos[0] == depot and s.cash[0] == p.START + s.content.depot_refill


def test_roundhouse_without_doubles_ends_the_turn_without_engineer() -> None:
    s = p.table()
    p.cards(s, 0, engineer=1)
    p.land(s, 0, p.space(s, "roundhouse"), 2, 3, 1, 2, 3, 4, 5, 6)
    assert s.turn_seat == 1 and s.hands[0][2] == 1


def test_control_tower_moves_another_player_who_resolves_the_space() -> None:
    # tabletrek's first reading (tower_to_tower=False): the Control Tower itself is no target.
    s = p.table(tower_to_tower=False)
    p.land(s, 0, p.space(s, "control-tower"))
    tower = p.space(s, "control-tower")
    assert s.pending["k"] == "tower"
    assert f"move p2 {tower}" not in p.texts(s) and "move p1 0" not in p.texts(s)
    assert p.illegal_key(s, f"move p2 {tower}") == "double_crossing.illegal.not_tower"
    taxes = p.space(s, "pay-taxes", 1)
    s.apply(f"move p3 {taxes}")
    assert s.pos[2] == taxes
    assert s.cash[2] == p.START - s.content.spaces[taxes].amount
    p.end_turn(s)  # the mover's turn then ends as usual
    assert s.turn_seat == 1


def test_control_tower_target_decides_on_the_space() -> None:
    s = p.table()
    p.land(s, 0, p.space(s, "control-tower"))
    s.apply(f"move p2 {p.space(s, 'yard')}")
    assert s.current_player == 1 and s.pending["k"] == "yard"
    s.apply("decline")
    assert s.current_player == 0
    p.end_turn(s)
    assert s.turn_seat == 1


def test_control_tower_roll_again_does_not_give_the_moved_player_a_turn() -> None:
    s = p.table()
    p.land(s, 0, p.space(s, "control-tower"))
    s.apply(f"move p3 {p.space(s, 'roll-again')}")
    assert not s.again
    p.end_turn(s)
    assert s.turn_seat == 1


def test_depot_pays_out_and_is_refilled() -> None:
    s = p.table()
    s.depot, s.bank = 300_000, s.bank - 200_000
    p.land(s, 0, p.space(s, "depot"))
    assert s.cash[0] == p.START + 300_000 and s.depot == s.content.depot_refill
    p.conserved(s)


def test_dissatisfied_customer_without_doubles_returns_a_contract() -> None:
    s = p.table()
    p.give(s, 0, "prairie-oil-1", "harbor-steel-2")
    p.land(s, 0, p.space(s, "dissatisfied-customer"), 2, 3, 1, 2, 3, 4, 5, 6)
    assert p.texts(s) == ["return harbor-steel-2", "return prairie-oil-1"] or set(p.texts(s)) == {
        "return harbor-steel-2",
        "return prairie-oil-1",
    }
    s.apply("return prairie-oil-1")
    assert s.owner[p.contract(s, "prairie-oil-1")] == -1 and s.owner.count(0) == 1


def test_dissatisfied_customer_doubles_keep_the_contracts_and_end_the_turn() -> None:
    s = p.table()
    p.give(s, 0, "prairie-oil-1")
    p.cards(s, 0, engineer=1)
    p.land(s, 0, p.space(s, "dissatisfied-customer"), 2, 3, 1, 2, 3, 3)
    assert s.owner.count(0) == 1 and s.turn_seat == 1


def test_dissatisfied_customer_without_contracts_ends_the_turn_without_engineer() -> None:
    s = p.table()
    p.cards(s, 0, engineer=1)
    p.land(s, 0, p.space(s, "dissatisfied-customer"))
    assert s.turn_seat == 1 and s.hands[0][2] == 1


def test_connections_needs_cars_option_pays_half_and_returns_the_cars() -> None:
    s = p.table(connections_needs_cars=True)
    p.cars(s, 0, tank=2)
    p.land(s, 0, p.space(s, "connections"))
    assert "connect prairie-oil-3" in p.texts(s) and "decline" in p.texts(s)
    price = s.content.contracts[p.contract(s, "prairie-oil-3")].price
    s.apply("connect prairie-oil-3")
    assert s.owner[p.contract(s, "prairie-oil-3")] == 0
    assert s.cash[0] == p.START - price // 2 and s.cars[0][TANK] == 0
    p.conserved(s)


def test_connections_buys_any_open_contract_without_cars_by_default() -> None:
    s = p.table()
    p.land(s, 0, p.space(s, "connections"))
    assert len(p.texts(s)) == len(s.content.contracts) + 1
    s.apply("connect capital-mail-3")
    assert s.owner[p.contract(s, "capital-mail-3")] == 0 and sum(s.cars[0]) == 0


def test_cars_left_on_a_space_go_to_the_next_token_to_stop_there() -> None:
    s = p.table()
    target = p.space(s, "govt-contract")
    s.dropped[target] = [1, 0, 0, 1]
    s.yard[PASSENGER] -= 1
    s.yard[TANK] -= 1
    p.land(s, 0, target, 2, 3, 1)
    assert s.cars[0] == [1, 0, 0, 1] and not s.dropped
    p.conserved(s)


def test_first_step_enters_central_station() -> None:
    s = p.table()
    p.dice(s, 1, 2)
    s.apply("roll")
    assert s.pos[0] == 2  # steps: 0 (Central Station), 1, 2
    assert s.hands[0][CREW] == 0
