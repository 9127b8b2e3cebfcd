"""Tonk bindings (cardtable.games.tonk): the Python API behaves like the engine.

Game options and their errors, the state API (legal actions, illegal actions,
the end of a hand, copies, pickling through records), action texts, views and
observations that hide other hands, determinization, stacked deals, bots,
matches, simulations, records, a whole hand driven from Python, and thousands
of random seeded hands per preset with their invariants. Rule IDs refer to
the specification (TK-1 to TK-13).
"""

from __future__ import annotations

import copy
import json
import pickle
import random
from collections.abc import Sequence
from typing import Any

import numpy as np
import pytest

from cardtable import (
    Card,
    GameOverError,
    IllegalActionError,
    InvalidCardError,
    InvalidConfigError,
    InvalidHandError,
    InvalidRecordError,
)
from cardtable.games import Match, Simulation, load_game
from cardtable.games.tonk import (
    TonkBot,
    TonkGame,
    TonkSpread,
    TonkState,
    TonkView,
    play_hand,
    replay_tonk_record,
    simulate,
)

DRAW, TAKE, DROP, PASS, CLAIM_49, SPADES_IN, SPADES_OUT = range(52, 59)
PRESETS = ("pagat", "wikipedia", "texas")


# ---------------------------------------------------------------------------
# Helpers
# ---------------------------------------------------------------------------


def codes(cards: Sequence[Card]) -> set[int]:
    return {c.code for c in cards}


def random_action(state: TonkState, rng: random.Random) -> int:
    """A random legal action, dropping rarely so hands also run long (drop
    windows, which come after every action under any_time, more rarely still)."""
    legal = state.legal_actions()
    a = rng.choice(legal)
    keep_on = 0.99 if state.phase == "drop_window" else 0.9
    if a == DROP and len(legal) > 1 and rng.random() < keep_on:
        a = next(x for x in legal if x != DROP)
    return a


def random_hand(game: TonkGame, seed: int, rng: random.Random) -> TonkState:
    state = game.new_initial_state(seed)
    while state.current_player() is not None:
        state.apply_action(random_action(state, rng))
    return state


def view_key(v: TonkView) -> tuple[Any, ...]:
    """Every field of a view, comparable."""
    return (
        v.seat,
        v.players,
        v.dealer,
        v.phase,
        v.current_player,
        v.turn_player,
        codes(v.hand),
        list(v.hand_sizes),
        [c.code for c in v.discard_pile],
        v.top_discard,
        v.stock_size,
        [(s.id, s.owner, s.kind, s.cards, s.hits) for s in v.spreads],
        list(v.locks),
        v.turn_locked,
        list(v.stock_draws),
        [codes(k) for k in v.known_cards],
        list(v.spades_in),
        v.spades_shown,
        [None if h is None else codes(h) for h in v.shown_hands],
        v.ending,
        v.returns,
        v.legal_actions,
    )


def check_cards_in_one_place(state: TonkState) -> None:
    """Hands, stock, discard pile and table spreads hold 52 distinct cards."""
    seen: list[int] = []
    for p in range(state.players):
        seen += [c.code for c in state.hand(p)]
    seen += [c.code for c in state.discard_pile]
    for s in state.spreads:
        seen += [c.code for c in s.cards]
    assert len(seen) == len(set(seen)), "a card is in two places"
    assert len(seen) + state.stock_size == 52, "cards lost or added"


def stacked(game: TonkGame, hands: Sequence[str], upcard: str | None, stock: str = "") -> TonkState:
    """Dealer 0, so seat 1 plays first."""
    return game.state_from_hands(0, hands, upcard, stock)


def act(state: TonkState, *texts: str) -> None:
    for t in texts:
        state.apply_action(TonkGame().string_to_action(t))


# ---------------------------------------------------------------------------
# TonkGame: options, validation, pickling
# ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"players": 3, "double_double": "responder"}, "two players"),
        ({"players": 6, "hand_size": 9}, "52"),
        ({"colour": "red"}, "unknown Tonk option"),
        ({"hit_lock_unit": "per_turn", "hit_lock_per_hit": 0}, "hit_lock_per_hit is 0"),
        ({"must_spread_aces_exempt": False}, "must_spread"),
        ({"spades_ace_high": False}, "spades_bet"),
        ({"players": 7}, "2 to 6"),
        ({"players": 1}, "TK-1.2"),
        ({"hand_size": 26}, "by_players or 2 to 25"),
        ({"players": 3, "hand_size": 17}, "52"),
        ({"max_idle_rounds": 0}, "TK-10.7"),
        ({"drop_timing": "whenever"}, "must be one of"),
        ({"preset": "vegas"}, "must be one of"),
        ({"max_hits_per_turn": 2}, "none or 1"),
        ({"stake": 0}, "stake"),
        ({"upcard": "maybe"}, "true or false"),
        ({"players": 2.5}, "expected a string, integer or boolean"),
        ({"players": "three"}, "players must be 2 to 6"),
    ],
)
def test_game_invalid_options_raise_invalid_config_error(
    options: dict[str, Any], message: str
) -> None:
    with pytest.raises(InvalidConfigError, match=message) as info:
        TonkGame(**options)
    # The error names the option it is about, one of those given.
    assert info.value.option in options
    assert isinstance(info.value, ValueError)
    with pytest.raises(InvalidConfigError):
        load_game("tonk", **options)


def test_game_options_round_trip() -> None:
    names = TonkGame().option_names()
    assert len(names) == len(set(names)) == 28
    cases: list[dict[str, Any]] = [
        {},
        {"players": 3},
        {"preset": "wikipedia", "players": 4},
        {"preset": "texas", "spades_bet": 2, "stake": 5},
        {"hand_size": "by_players", "players": 3},
        {"must_spread": True, "must_spread_aces_exempt": False, "max_hits_per_turn": 1},
        {"double_double": "tonker", "ace_in_runs": "low_or_high", "upcard": False},
    ]
    for options in cases:
        g = TonkGame(**options)
        opts = g.options()
        assert sorted(opts) == sorted(names)
        for k, v in options.items():
            assert opts[k] == v, k
        assert TonkGame(**opts) == g
        assert TonkGame(**opts).options() == opts
        assert load_game("Tonk", **options) == g
    assert TonkGame(hand_size="by_players", players=3).hand_size == 7
    assert TonkGame(hand_size="by_players", players=2).hand_size == 9
    assert TonkGame(hand_size="by_players", players=5).hand_size == 5
    # TK-2.3: deal wins off by default when the hand size is not 5.
    assert TonkGame(hand_size=7).options()["deal_wins"] == "none"
    assert TonkGame(hand_size=7, deal_wins="pagat").options()["deal_wins"] == "pagat"


def test_game_presets_and_overrides() -> None:
    w = TonkGame(preset="wikipedia").options()
    assert (w["drop_payout"], w["ace_in_runs"], w["drop_timing"]) == (
        "wikipedia",
        "low_or_high",
        "any_time",
    )
    assert (w["hit_lock_per_hit"], w["stock_out_tie"]) == (1, "void")
    t = TonkGame(preset="texas").options()
    assert (t["drop_payout"], t["deal_wins"]) == ("texas", "texas")
    o = TonkGame(preset="wikipedia", drop_timing="start_of_turn").options()
    assert (o["drop_timing"], o["drop_payout"]) == ("start_of_turn", "wikipedia")


def test_game_pickle_eq_hash_repr() -> None:
    a = TonkGame(players=3, preset="texas")
    b = TonkGame(preset="texas", players=3)
    c = TonkGame(players=3)
    assert a == b
    assert hash(a) == hash(b)
    assert a != c
    other: object = "tonk"
    assert a != other
    assert len({a, b, c}) == 2
    for g in (a, c, TonkGame(spades_bet=3, hand_size="by_players")):
        back = pickle.loads(pickle.dumps(g))
        assert back == g
        assert hash(back) == hash(g)
        assert copy.deepcopy(g) == g
    assert repr(TonkGame()) == "TonkGame()"
    assert repr(c) == "TonkGame(players=3)"
    assert a.players == 3
    assert a.hand_size == 5
    assert a.num_distinct_actions() == 59 + 373 + 17 * 52
    assert a.observation_size() == 52 * 3 + 52 * 3 + 52 * 2 + 3 * 3 + 1 + 5 + 1


def test_load_game_unknown() -> None:
    with pytest.raises(InvalidConfigError, match="unknown game"):
        load_game("canasta")


# ---------------------------------------------------------------------------
# TonkState API
# ---------------------------------------------------------------------------


def test_state_end_of_hand() -> None:
    state = random_hand(TonkGame(players=3), 11, random.Random(1))
    assert state.is_terminal()
    assert state.current_player() is None
    assert state.legal_actions() == []
    assert state.phase == "over"
    assert sum(state.returns()) == 0
    ending = state.ending
    assert ending is not None
    assert ending["category"] in {
        "tonk_out",
        "out_by_discard",
        "drop_won",
        "caught",
        "stock_out",
        "deal_win",
        "void",
    }
    for a in (DRAW, PASS, 0):
        with pytest.raises(GameOverError):
            state.apply_action(a)
    for bot in ("random", "greedy"):
        with pytest.raises(GameOverError):
            TonkBot(bot, seed=1).act(state)
    net = [0] * 3
    for payer, payee, amount in state.settlement() + state.side_bet_settlement():
        net[payer] -= amount
        net[payee] += amount
    assert net == state.returns()


def test_state_legal_actions_sorted_and_illegal_actions_change_nothing() -> None:
    rng = random.Random(2)
    g = TonkGame(players=3, preset="wikipedia")
    checked = 0
    for seed in range(30):
        state = g.new_initial_state(seed)
        while (p := state.current_player()) is not None:
            legal = state.legal_actions()
            assert legal
            assert legal == sorted(set(legal))
            illegal = [a for a in range(g.num_distinct_actions()) if a not in legal]
            assert all(not state.is_legal(a) for a in illegal[::37])
            assert all(state.is_legal(a) for a in legal)
            a = rng.choice(illegal)
            history, view = state.history(), view_key(state.view(p))
            before = state.clone()
            with pytest.raises(IllegalActionError):
                state.apply_action(a)
            assert state.history() == history
            assert view_key(state.view(p)) == view
            assert state == before
            checked += 1
            state.apply_action(random_action(state, rng))
    assert checked > 100
    # Not an action at all.
    state = g.new_initial_state(1)
    with pytest.raises(IllegalActionError):
        state.apply_action(g.num_distinct_actions())


def test_refusal_names_the_rule_and_the_reason_and_matches_is_legal() -> None:
    """refusal() is None exactly for legal actions; otherwise (rule, reason),
    which is also the message of apply_action's error (TK-6.10 here)."""
    g = TonkGame(discard_pickup_must_be_used=True, drop_timing="own_turn_any_phase")
    state = g.state_from_hands(0, ["4H 7S TC KD 2S", "6C 7C 2D KS QD"], "8C")
    state.apply_action(TAKE)
    assert state.refusal(DROP) == (
        "TK-6.10",
        "8C, taken from the discard pile, must go into a spread or a hit before you drop",
    )
    with pytest.raises(IllegalActionError, match=r"drop is not legal now: 8C, .* \(TK-6\.10\)"):
        state.apply_action(DROP)
    for a in range(g.num_distinct_actions()):
        assert (state.refusal(a) is None) == state.is_legal(a)
    assert state.refusal(0) == ("TK-6.7", "you do not hold AC")  # discard AC
    with pytest.raises(IllegalActionError):
        state.refusal(g.num_distinct_actions())


def test_can_take_back_a_take_or_a_spread_not_a_draw_or_a_discard() -> None:
    g = TonkGame()
    state = g.state_from_hands(0, ["4H 7S TC KD 2S", "6C 7C 2D KS QD"], "8C")
    assert state.can_take_back(TAKE)
    assert not state.can_take_back(DRAW)
    assert not state.can_take_back(0)  # an illegal discard
    assert not state.can_take_back(-1)
    assert not state.can_take_back(g.num_distinct_actions())
    state.apply_action(TAKE)
    spread = next(a for a in state.legal_actions() if state.describe_action(a).kind == "spread")
    assert state.can_take_back(spread)
    discard = next(a for a in state.legal_actions() if a < 52)
    assert not state.can_take_back(discard)


def test_state_clone_copy_and_deepcopy_are_independent() -> None:
    g = TonkGame()
    state = g.new_initial_state(5, 0)
    state.apply_action(state.legal_actions()[0])
    for other in (state.clone(), copy.copy(state), copy.deepcopy(state)):
        assert other == state
        assert other is not state
        other.apply_action(other.legal_actions()[0])
        assert other != state
        assert len(other.history()) == len(state.history()) + 1


def test_state_pickles_through_its_record() -> None:
    rng = random.Random(3)
    g = TonkGame(players=3, spades_bet=1)
    for seed in range(20):
        state = g.new_initial_state(seed)
        for _ in range(rng.randrange(12)):
            if state.is_terminal():
                break
            state.apply_action(random_action(state, rng))
        back = pickle.loads(pickle.dumps(state))
        assert back == state
        assert back.history() == state.history()
        assert view_key(back.view(0)) == view_key(state.view(0))
    # A stacked deal pickles too (the record keeps the deck).
    state = stacked(TonkGame(), ["3D 6C 9S QC 7D", "5H 6H 7H KC QD"], "AS", "2D")
    act(state, "draw", "spread 5H 6H 7H")
    back = pickle.loads(pickle.dumps(state))
    assert back == state
    assert [c.code for c in back.hand(1)] == [c.code for c in state.hand(1)]


def test_determinized_state_pickles_to_itself_or_refuses() -> None:
    # Pickling goes through the record (seed + history); a determinized state
    # has other hands than its seed deals, so its pickle must not silently
    # come back as another state.
    g = TonkGame(players=3)
    state = g.new_initial_state(5, 0)
    act(state, "draw")
    det = state.determinize(0, 1)
    assert det != state
    try:
        back = pickle.loads(pickle.dumps(det))
    except (InvalidRecordError, IllegalActionError, ValueError):
        return
    assert back == det, "a determinized state unpickles as a different state"


def test_state_properties() -> None:
    g = TonkGame(players=3)
    state = g.new_initial_state(42, 2)
    assert (state.seed, state.dealer, state.players) == (42, 2, 3)
    assert state.turn_player == 0
    assert state.current_player() == 0
    assert state.phase == "turn_start"
    assert state.stock_size == 52 - 15 - 1
    assert len(state.discard_pile) == 1
    assert state.spreads == []
    assert state.ending is None
    assert state.returns() == [0, 0, 0]
    assert state.history() == []
    for p in range(3):
        hand = state.hand(p)
        assert len(hand) == 5
        assert state.count(p) == sum(min(c.rank, 10) for c in hand)
    for bad in (state.hand, state.count, state.view, state.observation):
        with pytest.raises(InvalidConfigError, match="no seat 3"):
            bad(3)
    assert g.new_initial_state(42).dealer == g.draw_for_dealer(42)


# ---------------------------------------------------------------------------
# Action texts
# ---------------------------------------------------------------------------


def test_action_texts_round_trip_for_legal_actions_of_random_states() -> None:
    rng = random.Random(4)
    seen: set[str] = set()
    for preset in PRESETS:
        g = TonkGame(players=3, preset=preset, spades_bet=1)
        for seed in range(40):
            state = g.new_initial_state(seed)
            while state.current_player() is not None:
                for a in state.legal_actions():
                    text = TonkGame().action_to_string(a)
                    assert TonkGame().string_to_action(text) == a, text
                    assert TonkGame().string_to_action(f"  {text.upper()} ") == a
                    d = state.describe_action(a)
                    assert d.text == text
                    seen.add(d.kind)
                state.apply_action(random_action(state, rng))
    assert {"draw", "take", "drop", "pass", "discard", "spread", "hit"} <= seen
    assert {"spades_in", "spades_out"} <= seen


def test_action_text_examples() -> None:
    s2a = TonkGame().string_to_action
    assert [s2a(t) for t in ("draw", "take", "drop", "pass", "claim 49")] == [52, 53, 54, 55, 56]
    assert (s2a("spades in"), s2a("spades out")) == (57, 58)
    assert s2a("discard 7H") == Card("7H").code
    assert s2a("hit 8H S3") == 432 + 52 * 3 + Card("8H").code
    assert s2a("spread 7H 5H 6H") == s2a("spread 5H 6H 7H")
    assert TonkGame().action_to_string(s2a("spread 5H 6H 7H")) == "spread 5H 6H 7H"
    state = TonkGame().new_initial_state(1)
    d = state.describe_action(s2a("hit 8H S3"))
    assert (d.kind, d.cards, d.meld) == ("hit", (Card("8H"),), 3)
    d = state.describe_action(s2a("spread 5H 6H 7H"))
    assert d.kind == "spread"
    assert d.cards == (Card("5H"), Card("6H"), Card("7H"))
    for bad in ("", "jump", "discard 1H", "hit 8H", "spread 5H 6H 8H"):
        with pytest.raises(IllegalActionError):
            s2a(bad)
    with pytest.raises(IllegalActionError):
        TonkGame().action_to_string(10_000)


# ---------------------------------------------------------------------------
# Views, observations, determinization
# ---------------------------------------------------------------------------


def test_view_fields_and_hidden_hands() -> None:
    g = TonkGame(players=3)
    state = stacked(g, ["2C 5D 8H JS 4C", "5H 6H 7H KC QD", "3D 6C 9S QC 7D"], "9D", "2D")
    v = state.view(0)
    assert isinstance(v, TonkView)
    assert (v.seat, v.players, v.dealer, v.phase) == (0, 3, 0, "turn_start")
    assert (v.current_player, v.turn_player) == (1, 1)
    assert codes(v.hand) == codes(state.hand(0))
    assert list(v.hand_sizes) == [5, 5, 5]
    assert v.discard_pile == [Card("9D")]
    assert v.top_discard == Card("9D")
    assert v.stock_size == 36
    assert v.spreads == []
    assert list(v.locks) == [0, 0, 0]
    assert v.turn_locked is False
    assert list(v.stock_draws) == [0, 0, 0]
    assert v.known_cards == [[], [], []]
    assert list(v.spades_in) == []
    assert v.spades_shown == [None, None, None]
    assert v.shown_hands == [None, None, None]
    assert v.ending is None
    assert v.returns is None
    assert v.legal_actions == []
    assert state.view(1).legal_actions == state.legal_actions()
    # Nothing in seat 0's view names a card of another hand.
    hidden = codes(state.hand(1)) | codes(state.hand(2))
    shown = codes(v.hand) | {c.code for c in v.discard_pile}
    assert not hidden & shown
    assert "KC" not in repr(v)
    # A taken card becomes known to everybody; spreads are public.
    act(state, "take", "spread 5H 6H 7H")
    v = state.view(2)
    assert v.known_cards[1] == [Card("9D")]
    assert v.known_cards[2] == []
    assert list(v.hand_sizes) == [5, 3, 5]
    (spread,) = v.spreads
    assert isinstance(spread, TonkSpread)
    assert (spread.id, spread.owner, spread.kind, spread.hits) == (0, 1, "run", 0)
    assert spread.cards == (Card("5H"), Card("6H"), Card("7H"))
    assert state.spreads == v.spreads
    act(state, "discard KC")
    assert state.view(0).known_cards[1] == [Card("9D")]
    act(state, "drop")  # seat 2: 35 against 19 and 29 — caught
    v = state.view(0)
    assert v.phase == "over"
    assert all(h is not None for h in v.shown_hands)
    assert v.ending == {"category": "caught", "player": 2, "caught": True}
    assert v.returns == state.returns()


def test_view_integer_lists_are_lists_of_int() -> None:
    # The stubs (and the other list fields) promise list[int].
    state = TonkGame(players=3, spades_bet=1).new_initial_state(1)
    state.apply_action(SPADES_IN)
    v = state.view(0)
    wrong = []
    for field in ("hand_sizes", "locks", "stock_draws", "spades_in", "legal_actions"):
        value = getattr(v, field)
        if type(value) is not list or not all(type(x) is int for x in value):
            wrong.append(f"TonkView.{field} = {value!r}")
    assert not wrong, f"not a list of int: {wrong}"
    assert v.hand_sizes == [5, 5, 5]
    assert v.spades_in == [1]


def test_observation_shape_dtype_and_layout() -> None:
    rng = random.Random(6)
    for players in (2, 3, 4):
        g = TonkGame(players=players)
        state = g.new_initial_state(9)
        for _ in range(15):
            if state.is_terminal():
                break
            for seat in range(players):
                o = state.observation(seat)
                assert isinstance(o, np.ndarray)
                assert o.dtype == np.float32
                assert o.shape == (g.observation_size(),)
                assert o.tolist() == pytest.approx(state.observation_list(seat))
                own = {i for i in range(52) if o[i] == 1.0}
                assert own == codes(state.hand(seat))
                assert ((o >= 0.0) & (o <= 1.0)).all()
                # The last entry: 1 when this seat decides.
                assert o[-1] == (1.0 if state.current_player() == seat else 0.0)
            state.apply_action(random_action(state, rng))


def test_determinize_keeps_the_view_and_moves_hidden_cards() -> None:
    rng = random.Random(7)
    total = moved = 0
    for preset in PRESETS:
        g = TonkGame(players=3, preset=preset)
        for seed in range(25):
            state = g.new_initial_state(seed)
            while state.current_player() is not None:
                for seat in range(3):
                    other = state.determinize(seat, seed * 1000 + total)
                    assert isinstance(other, TonkState)
                    assert view_key(other.view(seat)) == view_key(state.view(seat))
                    assert other.observation_list(seat) == state.observation_list(seat)
                    check_cards_in_one_place(other)
                    total += 1
                    moved += any(
                        codes(other.hand(p)) != codes(state.hand(p)) for p in range(3) if p != seat
                    )
                state.apply_action(random_action(state, rng))
    assert moved > 0.8 * total, f"only {moved} of {total} determinized states differ"
    with pytest.raises(InvalidConfigError):
        TonkGame().new_initial_state(1).determinize(2, 0)


# ---------------------------------------------------------------------------
# Stacked deals
# ---------------------------------------------------------------------------


def test_state_from_hands_and_deck() -> None:
    g = TonkGame()
    state = stacked(g, ["3D 6C 9S QC 7D", "5H 6H 7H KC QD"], "AS", "2D 8H")
    assert codes(state.hand(1)) == codes([Card(t) for t in ("5H", "6H", "7H", "KC", "QD")])
    assert state.discard_pile == [Card("AS")]
    act(state, "draw")
    assert Card("2D") in state.hand(1)
    # Hands as lists of cards, texts or codes.
    state2 = g.state_from_hands(
        0,
        [[Card("3D"), "6C", Card("9S").code, "QC", "7D"], "5H 6H 7H KC QD"],
        Card("AS"),
        ["2D", "8H"],
    )
    act(state2, "draw")
    assert state2 == state
    # A full deck, top first: one card at a time from the left of the dealer.
    deck = [Card.from_code(c) for c in range(52)]
    state = g.state_from_deck(deck, 1)
    assert [c.code for c in state.hand(0)] == [0, 2, 4, 6, 8]
    assert [c.code for c in state.hand(1)] == [1, 3, 5, 7, 9]
    assert state.discard_pile == [Card.from_code(10)]
    assert state.stock_size == 41


H0 = "3D 6C 9S QC 7D"
H1 = "5H 6H 7H KC QD"


@pytest.mark.parametrize(
    ("call", "error"),
    [
        (lambda g: g.state_from_hands(0, [H0], "AS"), InvalidConfigError),
        (lambda g: g.state_from_hands(0, ["3D 6C 9S QC", H1], "AS"), InvalidHandError),
        (lambda g: g.state_from_hands(0, [H0, "3D 6H 7H KC QD"], "AS"), InvalidHandError),
        (lambda g: g.state_from_hands(0, [H0, H1], "3D"), InvalidHandError),
        (lambda g: g.state_from_hands(0, [H0, H1], "AS", "KC"), InvalidHandError),
        (lambda g: g.state_from_hands(0, ["3D 6C 9S QC JK", H1], "AS"), InvalidHandError),
        (lambda g: g.state_from_hands(0, [H0, H1], None), InvalidConfigError),
        (lambda g: g.state_from_hands(2, [H0, H1], "AS"), InvalidConfigError),
        (lambda g: g.state_from_hands(0, ["3D 6C 9S QC 1D", H1], "AS"), InvalidCardError),
        (lambda g: g.state_from_deck([Card.from_code(c) for c in range(51)], 0), InvalidHandError),
        (lambda g: g.state_from_deck([c % 51 for c in range(52)], 0), InvalidHandError),
        (lambda g: g.state_from_deck(list(range(52)), 5), InvalidConfigError),
        (lambda g: g.new_initial_state(1, 2), InvalidConfigError),
    ],
)
def test_stacked_deal_errors(call: Any, error: type[Exception]) -> None:
    with pytest.raises(error):
        call(TonkGame())


def test_state_from_hands_without_upcard() -> None:
    g = TonkGame(upcard=False)
    state = stacked(g, ["3D 6C 9S QC 7D", "5H 6H 7H KC QD"], None, "KH")
    assert state.discard_pile == []
    assert TAKE not in state.legal_actions()  # TK-4.5: the first player must draw
    with pytest.raises(InvalidConfigError, match="no upcard"):
        stacked(g, ["3D 6C 9S QC 7D", "5H 6H 7H KC QD"], "AS")


# ---------------------------------------------------------------------------
# Bots, matches, simulations, records
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("kind", ["random", "greedy", "greedy:8", "strong:20"])
def test_bots_play_legal_actions_only(kind: str) -> None:
    bot = TonkBot(kind, seed=3)
    assert bot.name == kind
    hands = 6 if kind.startswith("strong") else 40
    for preset in PRESETS:
        g = TonkGame(players=3, preset=preset)
        for seed in range(hands):
            state = g.new_initial_state(seed)
            while state.current_player() is not None:
                a = bot.act(state)
                assert a in state.legal_actions(), (kind, preset, seed, a)
                state.apply_action(a)
            assert sum(state.returns()) == 0


def test_bot_errors() -> None:
    for bad in ("genius", "strong:0", "greedy:x"):
        with pytest.raises(InvalidConfigError):
            TonkBot(bad, seed=1)


def test_match_rotates_the_dealer_and_keeps_a_zero_sum_ledger() -> None:
    g = TonkGame(players=3)
    m = Match(g, seed=77)
    assert (m.seed, m.games_played, m.ledger) == (77, 0, [0, 0, 0])
    first = m.dealer
    assert first == g.draw_for_dealer(77)
    bots = [TonkBot("greedy", seed=i) for i in range(3)]
    ledger = [0, 0, 0]
    for i in range(40):
        assert m.dealer == (first + i) % 3
        hand = m.next_game()
        assert hand.dealer == m.dealer
        if hand.current_player() is not None:
            with pytest.raises(IllegalActionError):
                m.record(hand)
        while (p := hand.current_player()) is not None:
            hand.apply_action(bots[p].act(hand))
        ledger = [a + b for a, b in zip(ledger, hand.returns(), strict=True)]
        m.record(hand)
        assert m.games_played == i + 1
        assert m.ledger == ledger
        assert sum(m.ledger) == 0


def test_simulation_same_results_for_any_threads_and_chunks() -> None:
    g = TonkGame(players=3)
    bots = ["random", "greedy", "greedy:10"]
    base = simulate(g, bots, 60, seed=9, threads=1)
    assert base == simulate(g, bots, 60, seed=9, threads=2)
    assert base == simulate(g, bots, 60, seed=9, threads=2, chunk=7)
    assert base == simulate(g, bots, 60, seed=9, threads=1, chunk=1000)
    assert base["games"] == 60
    assert base["seed"] == 9
    assert [b["bot"] for b in base["bots"]] == bots
    for b in base["bots"]:
        assert set(b) == {
            "bot",
            "games",
            "positive_return_rate",
            "positive_return_rate_ci",
            "stakes_per_game",
            "stakes_per_game_ci",
            "return_distribution",
        }
        assert b["games"] == 60
        assert sum(count for _, count in b["return_distribution"]) == 60
        assert 0.0 <= b["positive_return_rate"] <= 1.0
        low, high = b["stakes_per_game_ci"]
        assert low <= b["stakes_per_game"] <= high
    assert sum(base["endings"].values()) == 60
    assert set(base["length_distribution"]) == {"actions", "deals"}  # no clock in Tonk
    assert base["length_distribution"]["deals"] == [(1, 60)]
    assert sum(b["stakes_per_game"] for b in base["bots"]) == pytest.approx(0.0, abs=1e-9)
    # Games are rounded up to whole seat rotations; two bots get a difference.
    two = simulate(TonkGame(), ["random", "greedy"], 5, seed=1)
    assert two["games"] == 6
    mean, low, high = two["stake_difference"]
    assert low <= mean <= high


def test_simulation_records_progress_and_replay() -> None:
    g = TonkGame(players=2, preset="wikipedia")
    records: list[str] = []
    progress: list[tuple[int, int]] = []
    summary = simulate(
        g,
        ["greedy", "strong:20"],
        20,
        seed=4,
        chunk=6,
        on_records=records.extend,
        on_progress=lambda done, total: progress.append((done, total)),
    )
    assert summary["games"] == 20
    assert len(records) == 20
    assert progress == [(6, 20), (12, 20), (18, 20), (20, 20)]
    for line in records:
        rec = json.loads(line)
        assert rec["game"] == "tonk"
        assert sorted(rec["players"]) == ["greedy", "strong:20"]
        state = replay_tonk_record(line)
        assert state.returns() == rec["result"]["returns"]
    run = Simulation(g, ["random", "random"], 4, 1)
    assert (run.total, run.done) == (4, 0)
    assert run.step(3) == []
    assert run.done == 3
    with pytest.raises(IndexError, match="the run has 2 bots"):
        run.stake_difference(0, 5)
    with pytest.raises(InvalidConfigError):
        Simulation(g, ["random"], 4, 1)


def test_replay_of_a_bot_game_record_reproduces_the_state() -> None:
    for preset in PRESETS:
        g = TonkGame(players=3, preset=preset, spades_bet=1)
        for seed in range(10):
            state = play_hand(g, ["random", "greedy", "strong:10"], seed=seed)
            line = state.to_record(["random", "greedy", "strong:10"])
            rec = json.loads(line)
            assert rec["players"] == ["random", "greedy", "strong:10"]
            assert rec["actions"] == state.history()
            assert rec["seed"] == seed
            assert rec["params"] == g.options()
            back = replay_tonk_record(line)
            assert back == state
            assert back.returns() == state.returns()
            # Corrupted records fail.
            bad = dict(rec, result={**rec["result"], "returns": [9, -9, 0]})
            with pytest.raises(InvalidRecordError):
                replay_tonk_record(json.dumps(bad))
            bad = dict(rec, actions=[*rec["actions"][:-1], 10_000])
            with pytest.raises(InvalidRecordError):
                replay_tonk_record(json.dumps(bad))
    with pytest.raises(InvalidRecordError):
        replay_tonk_record("not json")
    with pytest.raises(ValueError, match="bots for"):
        play_hand(TonkGame(), ["random"])


# ---------------------------------------------------------------------------
# A whole hand from Python
# ---------------------------------------------------------------------------


def test_a_whole_hand_driven_from_python() -> None:
    # TK-10.3 worked example: D=12 (dealer, seat 0), X=8, Y=20 under pagat.
    g = TonkGame(players=3)
    state = stacked(
        g,
        ["AC 2C 3D 4H 2S", "5H 6H 7H 4C 4D", "3H 4S 5C 2D 6D"],
        "KS",
        "KD QS",
    )
    assert [state.count(p) for p in range(3)] == [12, 26, 20]
    assert state.current_player() == 1
    act(state, "draw", "spread 5H 6H 7H", "discard KD")
    assert state.current_player() == 2
    act(state, "draw", "discard QS")
    assert state.current_player() == 0
    assert DROP in state.legal_actions()
    act(state, "drop")
    assert [state.count(p) for p in range(3)] == [12, 8, 20]
    assert state.ending == {"category": "caught", "player": 0, "caught": True}
    assert sorted(state.settlement()) == [(0, 1, 1), (0, 1, 2), (2, 1, 1)]
    assert state.returns() == [-3, 4, -1]
    assert replay_tonk_record(state.to_record()) == state

    # A tonk out (TK-10.1) with the spades side bet (TK-11.3), 2 players.
    g = TonkGame(spades_bet=1)
    state = stacked(g, ["KS QC JD TH 6C", "5H 6H 2C 2D 2S"], "AH", "7H")
    assert state.phase == "spades"
    act(state, "spades in", "spades in")
    assert state.side_bet_settlement() == [(1, 0, 1)]
    assert state.view(1).spades_shown == [Card("KS"), Card("2S")]
    assert Card("KS") in state.view(1).known_cards[0]
    act(state, "draw", "spread 5H 6H 7H", "spread 2C 2D 2S")
    assert state.ending == {"category": "tonk_out", "player": 1, "paid": 2, "double_double": False}
    assert state.returns() == [-1, 1]


# ---------------------------------------------------------------------------
# Thousands of random hands per preset
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("preset", PRESETS)
def test_random_hands_keep_every_invariant(preset: str) -> None:
    rng = random.Random(preset)
    endings: dict[str, int] = {}
    games = [TonkGame(players=p, preset=preset) for p in (2, 3, 4)]
    for i in range(3000):
        g = games[i % 3]
        state = g.new_initial_state(10_000 + i)
        steps = 0
        while state.current_player() is not None:
            legal = state.legal_actions()
            assert legal, "no legal action before the end"
            if steps % 7 == 0:
                check_cards_in_one_place(state)
                assert sum(state.returns()) == 0
            state.apply_action(random_action(state, rng))
            steps += 1
            assert steps < 3000
        assert state.legal_actions() == []
        check_cards_in_one_place(state)
        assert sum(state.returns()) == 0
        ending = state.ending
        assert ending is not None
        endings[ending["category"]] = endings.get(ending["category"], 0) + 1
        if i % 4 == 0:
            assert replay_tonk_record(state.to_record()) == state
    assert sum(endings.values()) == 3000
    assert {"drop_won", "caught", "stock_out"} <= set(endings)
