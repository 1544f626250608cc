"""AI clues are legal in both languages, respect the difficulty knobs, and the guesser reads clues
sensibly (and plays the clock)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import tabletrek
from tabletrek.core.state import State
from tabletrek.games.codenames_duet.ai.bots import situation_from_view
from tabletrek.games.codenames_duet.ai.giver import ClueGiver, GiverKnobs, _top_rows
from tabletrek.games.codenames_duet.ai.guesser import Guesser
from tabletrek.games.codenames_duet.ai.situation import ClueRecord, Situation
from tabletrek.games.codenames_duet.ai.tables import load_tables


def clue_positions(n: int, pack: str = "en", **params: object) -> list[tuple[State, str, int]]:
    """The AI's clue in the opening position of ``n`` seeded games (both sides' keys)."""
    game = tabletrek.load("codenames-duet", word_pack=pack)
    found = []
    for seed in range(n):
        state = game.new_game(seed=seed)
        bot = game.bot("codenames-clue", seat=state.current_player, seed=seed, **params)
        action = bot.act(state)
        _, *word, number = action.text.split()
        found.append((state, " ".join(word), int(number)))
    return found


@pytest.mark.parametrize("pack", ["en", "zh-Hant"])
def test_ai_clues_pass_the_rules_validation(pack: str) -> None:
    for state, word, number in clue_positions(12, pack):
        assert state.clue_problem(word, number) is None
        visible = state.visible_words()
        assert word not in visible
        # Neither a part of a visible word nor containing one (the stricter of the two rule sets).
        assert not any(word in w or w in word for w in visible)
        assert 1 <= number <= 4
        state.apply(f"clue {word} {number}")


def test_chinese_clues_share_no_character_with_the_board() -> None:
    # A shared character ("樣子" for "褲子") is a link by writing, not by meaning.
    for state, word, _ in clue_positions(12, "zh-Hant"):
        board = "".join(state.visible_words())
        assert not set(word) & set(board), word
        assert all("\u4e00" <= ch <= "\u9fff" for ch in word)


def test_clues_over_a_whole_game_stay_valid_in_both_languages() -> None:
    for pack in ("en", "zh-Hant"):
        game = tabletrek.load("codenames-duet", word_pack=pack)
        state = game.new_game(seed=21)
        bots = [game.bot("codenames-clue", seat=s, seed=s) for s in (0, 1)]
        clues = 0
        while not state.is_over:
            seat = state.current_player
            assert seat is not None
            action = bots[seat].act(state)
            if action.text.startswith("clue "):
                _, *word, number = action.text.split()
                assert state.clue_problem(" ".join(word), int(number)) is None
                assert bots[seat].last_targets and len(bots[seat].last_targets) == int(number)
                clues += 1
            state.apply(action)
        assert clues >= 1


def test_max_number_knob() -> None:
    assert {number for _, _, number in clue_positions(6, max_number=1)} == {1}
    assert all(number <= 2 for _, _, number in clue_positions(6, max_number=2))


def test_strict_variants_give_legal_clues_too() -> None:
    for params in ({"worst_weight": 0.5}, {"noise": 1.0, "assassin_cost": 12.0}, {"difficulty": "easy"}):
        for state, word, number in clue_positions(3, **params):
            assert state.clue_problem(word, number) is None


def test_vocabulary_cut_knob() -> None:
    index = load_tables().index
    assert all(index[word] < 2000 for _, word, _ in clue_positions(6, vocab_cut=2000))


def test_bad_parameters_are_rejected() -> None:
    game = tabletrek.load("codenames-duet")
    with pytest.raises(ValueError, match="has no parameter colour"):
        game.bot("codenames-clue", seat=0, seed=1, colour="red")
    with pytest.raises(ValueError, match="difficulty"):
        game.bot("codenames-guess", seat=0, seed=1, difficulty="impossible")
    with pytest.raises(ValueError, match="no word model 'word2vec'"):  # when made, not at a move
        game.bot("codenames-clue", seat=0, seed=1, models="word2vec")


def test_ai_is_offered_for_every_pack_with_tables(tmp_path: Path) -> None:
    for pack in ("en", "zh-Hant"):
        game = tabletrek.load("codenames-duet", word_pack=pack)
        assert game.bots() == ["random", "codenames-clue", "codenames-guess"]
    # A pack in a language without tables offers no AI, rather than a bot that cannot start.
    greek = tmp_path / "greek.txt"
    words = [f"λέξη{'αβγδεζηθικλμνξοπρστυφχψω'[i % 24] * (1 + i // 24)}" for i in range(30)]
    greek.write_text("\n".join(words), encoding="utf-8")
    game = tabletrek.load("codenames-duet", word_pack=str(greek))
    assert game.bots() == ["random"]
    with pytest.raises(ValueError, match="no bot 'codenames-clue'; it offers: random"):
        game.bot("codenames-clue", seat=0, seed=1)


BOARD = [
    *("whale", "piano", "nurse", "apple", "knight", "castle", "doctor", "guitar", "lemon", "banana"),
    *("shark", "hospital", "ocean", "acorn", "actor", "airport", "alarm", "album", "alley", "almond"),
    *("anchor", "ankle", "antenna", "anthem", "anvil"),
]


def situation(key: dict[int, str], **kw: object) -> Situation:
    kinds = tuple(key.get(i, "bystander") for i in range(25))
    return Situation(seat=1, words=tuple(BOARD), my_key=kinds, **kw)


def test_guesser_follows_the_clue() -> None:
    choice = Guesser().guess(situation({}), ("music", 2), 0, list(range(25)), may_stop=False)
    assert BOARD[choice.cell or 0] in {"piano", "guitar"}


def test_guesser_avoids_its_own_assassins_between_close_words() -> None:
    # Banana and apple (found) aside, "fruit" fits lemon and almond about equally (ensemble z 5.10 and
    # 4.97; with the round-6 tables "pie" did, 2.76 / 2.62, and since e5 reads WordNet's definitions
    # "pie" leans to lemon by 0.22, more than the key table's odds move). With a full key side (9
    # greens, 3 assassins), lemon as one of my assassins is my partner's assassin with probability
    # 1/3 (key table) against 1/13 as my bystander, so the guesser turns to almond instead.
    greens = dict.fromkeys(range(10, 19), "green")
    allowed = [i for i in range(25) if i not in (3, 9)]

    def pick(assassins: tuple[int, ...], hits: int) -> str | None:
        key = {**greens, **dict.fromkeys(assassins, "assassin")}
        state = situation(key, covered=frozenset({3, 9}))
        choice = Guesser().guess(state, ("fruit", 1), hits, allowed, may_stop=hits > 0)
        return None if choice.cell is None else BOARD[choice.cell]

    assert pick((2, 5, 6), 0) == "lemon"
    assert pick((8, 5, 6), 0) == "almond"
    # Past the number a bystander costs nothing beyond the turn, so it goes on while the risk is low.
    assert pick((2, 5, 6), 1) == "lemon"
    assert pick((8, 5, 6), 1) != "lemon"


def test_guesser_reuses_an_unfinished_earlier_clue() -> None:
    earlier = ClueRecord("sea", 3, giver=0, hits=(12,))  # "sea 3" found only ocean
    knight = ClueRecord("armor", 1, giver=0, hits=(4,))
    state = situation({}, clues=[earlier, knight], covered=frozenset({12, 4}))
    allowed = [i for i in range(25) if i not in (12, 4)]
    # The current clue "armor 1" found the knight. Going on, the guesser turns to "sea"'s leftovers
    # (whale, shark) only when they stand out, and more readily with few timer tokens left.
    leftovers = {"whale", "shark", "castle"}
    choice = Guesser().guess(state, ("armor", 1), 1, allowed, may_stop=True)
    assert choice.cell is None or BOARD[choice.cell] in leftovers
    hurried = Situation(**{**state.__dict__, "tokens_left": 1})
    choice = Guesser().guess(hurried, ("armor", 1), 1, allowed, may_stop=True)
    assert choice.cell is not None and BOARD[choice.cell] in leftovers
    # An old clue fully found points nowhere any more: then only "armor" itself (its next open words
    # in the AI's tables: anvil, alarm, castle) is worth going on with, or the guesser stops.
    done = Situation(**{**state.__dict__, "clues": [ClueRecord("sea", 1, 0, (12,)), knight]})
    after = Guesser().guess(done, ("armor", 1), 1, allowed, may_stop=True).cell
    assert after is None or BOARD[after] in {"castle", "anvil", "alarm"}


def test_situation_reads_the_view_without_the_partners_key() -> None:
    game = tabletrek.load("codenames-duet")
    state = game.new_game(seed=5)
    view = state.view(1)
    known = situation_from_view(view)
    assert known.my_key == tuple(view["key"])
    assert known.seat == view["side"]
    assert known.tokens_left == 9 and not known.covered and not known.clues


def test_giver_weights_its_models_toward_the_partners_picks() -> None:
    # A partner who touched exactly the cells one model ranks first for "music" is read as that
    # model (every model whose first two cells no other model shares).
    # The two cells must be that model's alone as a set: with the 256-dimension tables e5 ranks
    # "music" piano, album and mpnet album, piano, and mpnet's sharper reading explains both orders.
    giver = ClueGiver(GiverKnobs(adapt=1.0))
    scores = giver.scores(BOARD)
    checked = 0
    for word in ("music", "sea", "fruit", "medicine"):
        z = scores.word_z(word)
        assert z is not None
        firsts = {m: tuple(int(c) for c in np.argsort(-z[i])[:2]) for i, m in enumerate(scores.models)}
        sets = [frozenset(cells) for cells in firsts.values()]
        unique = [m for m, cells in firsts.items() if sets.count(frozenset(cells)) == 1]
        for model in unique:
            seen = situation({}, clues=[ClueRecord(word, 2, giver=1, hits=firsts[model])])
            weights = giver.partner_weights(seen, scores)
            assert weights is not None and abs(float(weights.sum()) - 1.0) < 1e-9
            assert scores.models[int(weights.argmax())] == model, (word, model)
            checked += 1
    assert checked >= 2
    # Off by default (it did not win more games, README), and nothing to learn from before a clue.
    assert ClueGiver().partner_weights(seen, scores) is None
    assert giver.partner_weights(situation({}), scores) is None


def test_top_rows_equal_a_descending_sort() -> None:
    # The giver's k best targets per clue word come from running maxima, not a sort; same values,
    # ties included.
    rng = np.random.default_rng(3)
    rows = np.round(rng.standard_normal((8, 500)), 1).astype(np.float32)  # rounding makes ties
    for k in (1, 3, 8):
        assert np.array_equal(_top_rows(rows, k), -np.sort(-rows, axis=0)[:k])
