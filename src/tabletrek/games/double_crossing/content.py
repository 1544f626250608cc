"""Double Crossing's rule data: the board, the contracts, cars, crew cards and the bank.

Everything here is read from ``data/*.toml`` and validated; a malformed file raises
``DataError`` naming the file and the key. The content is tabletrek's reconstruction (no source
documents the original board or cards), so the files are meant to be edited and re-balanced.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tabletrek.core.data import DataError, need, need_count, package_toml, read_toml
from tabletrek.core.numeric import ascii_whole, is_whole

PACKAGE = "tabletrek.games.double_crossing"

PASSENGER, BOX, HOPPER, TANK = range(4)
CAR_SLUGS: tuple[str, ...] = ("passenger", "box", "hopper", "tank")
CAR_CODE = {slug: code for code, slug in enumerate(CAR_SLUGS)}
CAR_TYPES = len(CAR_SLUGS)

CREW, VILLAIN, ENGINEER, STOP = range(4)
CARD_SLUGS: tuple[str, ...] = ("crew", "villain", "engineer", "stop")
CARD_CODE = {slug: code for code, slug in enumerate(CARD_SLUGS)}
CARD_TYPES = len(CARD_SLUGS)

KINDS: tuple[str, ...] = (
    "central",
    "corner",
    "trade",
    "yard",
    "govt-contract",
    "train-shop",
    "roll-again",
    "stop",
    "pay-taxes",
    "crew-cards",
    "derail",
    "double-cross",
    "roundhouse",
    "control-tower",
    "depot",
    "dissatisfied-customer",
    "connections",
)
ONE_EACH = (
    "central",
    "derail",
    "double-cross",
    "roundhouse",
    "control-tower",
    "depot",
    "dissatisfied-customer",
    "connections",
)
"""Kinds the board has exactly once."""
BILL = 50_000


def half(amount: int) -> int:
    """Half price (sell-backs, Connections). Money is kept as a sum, not as bills: the bank
    always makes change, so half of a $50,000 price is $25,000 (our ruling)."""
    return amount // 2


@dataclass(frozen=True, slots=True)
class Space:
    kind: str
    company: int = -1
    """Trade spaces: the company's index."""
    car: int = -1
    """Yards: the car type sold there."""
    amount: int = 0
    """Pay Taxes: the tax."""


@dataclass(frozen=True, slots=True)
class Contract:
    index: int
    slug: str
    """Stable id used in action texts, e.g. "prairie-oil-2"."""
    company: int
    cars: tuple[int, int, int, int]
    """Cars needed per type (passenger, box, hopper, tank)."""
    price: int


@dataclass(frozen=True, slots=True)
class Content:
    spaces: tuple[Space, ...]
    companies: tuple[str, ...]
    contracts: tuple[Contract, ...]
    car_counts: tuple[int, ...]
    car_prices: tuple[int, ...]
    die_car: tuple[int, ...]
    """Car type for die faces 1..6 (index 0 is face 1)."""
    crew: tuple[int, ...]
    """Crew-card counts per type."""
    bank_total: int
    start_money: int
    depot_refill: int
    card_price: int
    corner_fare: int
    rack_limit: int
    contracts_to_win: int
    start_cards: int
    start_cars: int

    @property
    def size(self) -> int:
        return len(self.spaces)

    @property
    def corners(self) -> tuple[int, ...]:
        return tuple(i for i, s in enumerate(self.spaces) if s.kind in ("central", "corner"))


def _money(table: dict[str, Any], key: str, source: str, path: str, unit: int = BILL) -> int:
    value = need_count(table, key, source, path)
    if value % unit:
        raise DataError(source, f"{path}.{key}", f"must be a multiple of ${unit:,} ({value:,})")
    return value


def load_economy(source: str, data: dict[str, Any]) -> dict[str, Any]:
    bank = need(data, "bank", dict, source)
    bills = need(bank, "bills", dict, source, "bank")
    total = 0
    for value in bills:
        worth = ascii_whole(value)
        if worth is None or worth % BILL:
            raise DataError(source, f"bank.bills.{value}", "a bill's value must be a multiple of $50,000")
        total += worth * need_count(bills, value, source, "bank.bills")
    rules = need(data, "rules", dict, source)
    cars = need(data, "cars", dict, source)
    counts, prices = [0] * CAR_TYPES, [0] * CAR_TYPES
    die_car = [-1] * 6
    for slug in cars:
        if slug not in CAR_CODE:
            raise DataError(source, f"cars.{slug}", f"unknown car type; known: {', '.join(CAR_SLUGS)}")
    for code, slug in enumerate(CAR_SLUGS):
        car = need(cars, slug, dict, source, "cars")
        path = f"cars.{slug}"
        counts[code] = need_count(car, "count", source, path)
        prices[code] = _money(car, "price", source, path)
        for face in need(car, "die", list, source, path):
            if not is_whole(face) or not 1 <= face <= 6:
                raise DataError(source, f"{path}.die", f"die faces are 1..6, not {face!r}")
            if die_car[face - 1] != -1:
                raise DataError(
                    source, f"{path}.die", f"face {face} already picks {CAR_SLUGS[die_car[face - 1]]}"
                )
            die_car[face - 1] = code
    if -1 in die_car:
        raise DataError(source, "cars", f"die face {die_car.index(-1) + 1} picks no car")
    crew_table = need(data, "crew", dict, source)
    for slug in crew_table:
        if slug not in CARD_CODE:
            raise DataError(source, f"crew.{slug}", f"unknown crew card; known: {', '.join(CARD_SLUGS)}")
    crew = tuple(need_count(crew_table, slug, source, "crew") for slug in CARD_SLUGS)
    out: dict[str, Any] = {
        "car_counts": tuple(counts),
        "car_prices": tuple(prices),
        "die_car": tuple(die_car),
        "crew": crew,
        "bank_total": total,
        "start_money": _money(bank, "start_money", source, "bank"),
        "depot_refill": _money(bank, "depot_refill", source, "bank"),
        "card_price": _money(rules, "card_price", source, "rules"),
        "corner_fare": _money(rules, "corner_fare", source, "rules"),
        "rack_limit": need_count(rules, "rack_limit", source, "rules"),
        "contracts_to_win": need_count(rules, "contracts_to_win", source, "rules"),
        "start_cards": need_count(rules, "start_cards", source, "rules"),
        "start_cars": need_count(rules, "start_cars", source, "rules"),
    }
    for key in ("rack_limit", "contracts_to_win"):
        if out[key] < 1:
            raise DataError(source, f"rules.{key}", "must be at least 1")
    if out["start_cars"] > out["rack_limit"]:
        raise DataError(source, "rules.start_cars", "exceeds the rack limit")
    return out


def load_contracts(source: str, data: dict[str, Any]) -> tuple[tuple[str, ...], tuple[Contract, ...]]:
    companies: list[str] = []
    contracts: list[Contract] = []
    table = need(data, "company", list, source)
    if not table:
        raise DataError(source, "company", "lists no company")
    for ci, company in enumerate(table):
        path = f"company[{ci}]"
        if not isinstance(company, dict):
            raise DataError(source, path, "must be a table")
        slug = need(company, "slug", str, source, path)
        if not slug or not all(ch.isalnum() or ch == "-" for ch in slug) or slug != slug.lower():
            raise DataError(
                source, f"{path}.slug", f"must be lower-case letters, digits and '-', not {slug!r}"
            )
        if slug in companies:
            raise DataError(source, f"{path}.slug", f"company {slug!r} appears twice")
        companies.append(slug)
        rows = need(company, "contracts", list, source, path)
        if not rows:
            raise DataError(source, f"{path}.contracts", "lists no contract")
        for ri, row in enumerate(rows):
            rpath = f"{path}.contracts[{ri}]"
            if not isinstance(row, dict):
                raise DataError(source, rpath, "must be a table")
            cars_table = need(row, "cars", dict, source, rpath)
            cars = [0] * CAR_TYPES
            for car in cars_table:
                if car not in CAR_CODE:
                    raise DataError(
                        source, f"{rpath}.cars.{car}", f"unknown car type; known: {', '.join(CAR_SLUGS)}"
                    )
                cars[CAR_CODE[car]] = need_count(cars_table, car, source, f"{rpath}.cars")
            if not 1 <= sum(cars) <= 3:
                raise DataError(source, f"{rpath}.cars", f"a contract needs 1 to 3 cars, not {sum(cars)}")
            price = _money(row, "price", source, rpath)
            contracts.append(
                Contract(len(contracts), f"{slug}-{ri + 1}", ci, (cars[0], cars[1], cars[2], cars[3]), price)
            )
    return tuple(companies), tuple(contracts)


def load_board(source: str, data: dict[str, Any], companies: tuple[str, ...]) -> tuple[Space, ...]:
    rows = need(data, "spaces", list, source)
    if len(rows) < 8 or len(rows) % 4:
        raise DataError(
            source, "spaces", f"the square loop needs a multiple of 4 spaces (≥ 8), not {len(rows)}"
        )
    side = len(rows) // 4
    spaces: list[Space] = []
    traded: dict[int, int] = {}
    for i, row in enumerate(rows):
        path = f"spaces[{i}]"
        if not isinstance(row, dict):
            raise DataError(source, path, "must be a table")
        kind = need(row, "kind", str, source, path)
        if kind not in KINDS:
            raise DataError(source, f"{path}.kind", f"unknown kind {kind!r}; known: {', '.join(KINDS)}")
        corner = i % side == 0
        if (i == 0) != (kind == "central"):
            raise DataError(source, f"{path}.kind", "Central Station is space 0, and only space 0")
        if corner != (kind in ("central", "corner")):
            raise DataError(
                source, f"{path}.kind", f"the corners (every {side}th space) are the corner stations"
            )
        allowed = {"kind"} | {"trade": {"company"}, "yard": {"car"}, "pay-taxes": {"amount"}}.get(kind, set())
        for key in row:
            if key not in allowed:
                raise DataError(source, f"{path}.{key}", f"a {kind} space takes no {key!r}")
        if kind == "trade":
            slug = need(row, "company", str, source, path)
            if slug not in companies:
                raise DataError(source, f"{path}.company", f"unknown company {slug!r} (see contracts.toml)")
            company = companies.index(slug)
            if company in traded:
                raise DataError(
                    source, f"{path}.company", f"{slug} already trades at space {traded[company]}"
                )
            traded[company] = i
            spaces.append(Space(kind, company=company))
        elif kind == "yard":
            car = need(row, "car", str, source, path)
            if car not in CAR_CODE:
                raise DataError(source, f"{path}.car", f"unknown car type; known: {', '.join(CAR_SLUGS)}")
            spaces.append(Space(kind, car=CAR_CODE[car]))
        elif kind == "pay-taxes":
            spaces.append(Space(kind, amount=_money(row, "amount", source, path)))
        else:
            spaces.append(Space(kind))
    for company, slug in enumerate(companies):
        if company not in traded:
            raise DataError(source, "spaces", f"company {slug!r} has no trade space")
    for kind in ONE_EACH:
        count = sum(1 for s in spaces if s.kind == kind)
        if count != 1:
            raise DataError(source, "spaces", f"the board needs exactly one {kind} space, not {count}")
    return tuple(spaces)


def load_content(folder: str | Path | None = None) -> Content:
    """Read and validate the packaged data (or the same three files from ``folder``)."""

    def read(name: str) -> tuple[str, dict[str, Any]]:
        if folder is None:
            return package_toml(PACKAGE, f"data/{name}")
        path = Path(folder) / name
        return str(path), read_toml(path)

    econ_source, econ_data = read("economy.toml")
    economy = load_economy(econ_source, econ_data)
    contract_source, contract_data = read("contracts.toml")
    companies, contracts = load_contracts(contract_source, contract_data)
    board_source, board_data = read("board.toml")
    spaces = load_board(board_source, board_data, companies)
    content = Content(spaces=spaces, companies=companies, contracts=contracts, **economy)
    needed = content.start_money * 6 + content.depot_refill
    if content.bank_total < needed:
        raise DataError(
            econ_source, "bank.bills", f"${content.bank_total:,} cannot fund 6 players and the Depot"
        )
    for contract in contracts:
        for car, n in enumerate(contract.cars):
            if n > content.car_counts[car]:
                raise DataError(contract_source, contract.slug, "needs more cars than the game has")
    return content


_DEFAULT: Content | None = None


def default_content() -> Content:
    global _DEFAULT
    if _DEFAULT is None:
        _DEFAULT = load_content()
    return _DEFAULT
