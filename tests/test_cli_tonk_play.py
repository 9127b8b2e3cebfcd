"""``cardtable play tonk``: whole hands driven through stdin, mnemonics, quitting, records.

The expected games are played again through the API (``Match`` and
``TonkBot`` seeded as the command seeds them), choosing the human's actions
with a policy and turning each into the text a user would type.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

from cardtable import Card
from cardtable.cli import main
from cardtable.cli.presenters.tonk import TonkTable
from cardtable.cli.terminal import hand_order, sort_hand
from cardtable.deck import derive_seed
from cardtable.games import Match
from cardtable.games.tonk import (
    TonkBot,
    TonkGame,
    TonkState,
    replay_tonk_record,
)

Policy = Callable[[TonkState, Card | None], int]
SUITS = "♠♥♦♣"


def run(
    args: Sequence[str],
    lines: Sequence[str],
    color: bool = False,
    env: dict[str, str | None] | None = None,
) -> Result:
    """``play tonk`` with ``args``; opponents ``greedy`` unless ``args`` name
    them: these scripts were found against ``greedy``, not against whichever
    bot the ladder's default level stands for (that is tested in
    ``test_the_default_opponent_is_the_normal_level``)."""
    args = list(args)
    if "--bots" not in args and "--level" not in args:
        players = int(args[args.index("--players") + 1]) if "--players" in args else 2
        args += ["--bots", ",".join(["greedy"] * (players - 1))]
    text = "".join(line + "\n" for line in lines)
    return CliRunner().invoke(main, ["play", "tonk", *args], input=text, color=color, env=env)


def typed(state: TonkState, action: int, new: Card | None = None) -> str:
    """What a user types for ``action``: the HC-6 mnemonic, slots in the hand's order
    (sorted, the card just drawn or taken last)."""
    slot = {c: i for i, c in enumerate(hand_order(state.view(0).hand, new), 1)}
    d = state.describe_action(action)
    simple = {"draw": "d", "take": "p", "drop": "k", "pass": "pass", "claim_49": "c"}
    simple |= {"spades_in": "y", "spades_out": "n"}
    kind = d.kind
    if kind in simple:
        return simple[kind]
    card = d.cards[0] if d.cards else None
    if kind == "discard":
        assert card is not None
        return f"x {slot[card]}"
    if kind == "hit":
        assert card is not None
        return f"h {slot[card]} S{d.meld}"
    assert kind == "spread"
    return "m " + " ".join(str(slot[c]) for c in d.cards)


def value(card: Card) -> int:
    return min(card.rank, 10)


def smart(state: TonkState, new: Card | None = None) -> int:
    """Spread, hit, drop at 8 or less, draw, discard the highest card; pass windows."""
    legal = state.legal_actions()
    if state.phase == "drop_window":
        return 54 if state.count(0) <= 8 else 55
    if state.phase == "spades":
        return 57
    kinds = {a: state.describe_action(a) for a in legal}
    for wanted in ("spread", "hit"):
        for a, d in kinds.items():
            if d.kind == wanted:
                return a
    if 54 in legal and state.count(0) <= 8:
        return 54
    if 52 in legal:
        return 52
    discards = [a for a in legal if kinds[a].kind == "discard"]
    return max(discards, key=lambda a: (value(kinds[a].cards[0]), a))


def first_menu_item(game: TonkGame, names: Sequence[str]) -> Policy:
    table = TonkTable(game, names, color=False)

    def choose(state: TonkState, new: Card | None) -> int:
        table.state, table.new_card = state, new
        return table.menu(state.view(0))[0].action

    return choose


def after_passes(state: TonkState) -> TonkState | None:
    """The state once everybody passes the drop window, if seat 0 moves next."""
    ahead = state.clone()
    while ahead.phase == "drop_window" and ahead.current_player() is not None:
        ahead.apply_action(55)
    return ahead if ahead.current_player() == 0 else None


@dataclass
class Expected:
    game: TonkGame
    inputs: list[str]
    states: list[TonkState]
    ledger: list[int]


def expected_match(
    seed: int,
    bots: Sequence[str],
    options: dict[str, Any],
    policy: Policy | None = None,
    hands: int = 1,
    by_number: bool = False,
    ask_windows: bool = False,
) -> Expected:
    """Plays the match the command plays, and the input that makes it play it.

    As the command does: a drop asks y/n; a drop window just before seat 0's
    own move is that move's menu (``k`` drops, any other choice passes the
    window and is played once it closes); the other windows pass quietly
    unless ``ask_windows``: then ``w`` is typed at the first prompt and the
    windows after it are asked.
    """
    game = TonkGame(players=len(bots) + 1, **options)
    match = Match(game, seed)
    players = [TonkBot(b, derive_seed(seed, 100 + i)) for i, b in enumerate(bots, 1)]
    choose = policy or first_menu_item(game, ["you", *bots])
    inputs: list[str] = []
    states = []
    asking = False

    def say(state: TonkState, action: int, new: Card | None) -> None:
        nonlocal asking
        if ask_windows and not asking:
            inputs.append("w")
            asking = True
        inputs.append("1" if by_number else typed(state, action, new))
        if action == 54:
            inputs.append("y")

    for h in range(hands):
        state = match.next_game()
        new: Card | None = None
        queued: int | None = None
        while (p := state.current_player()) is not None:
            before = state.view(0).hand
            if p != 0:
                action = players[p - 1].act(state)
            elif queued is not None and state.phase != "drop_window":
                action, queued = queued, None
                assert state.is_legal(action)
            elif state.phase == "drop_window" and set(state.legal_actions()) <= {54, 55}:
                ahead = after_passes(state)
                if ahead is not None:
                    action = choose(state, new)
                    if action == 54:
                        say(state, action, new)
                    else:
                        queued = choose(ahead, new)
                        say(ahead, queued, new)
                        action = 55
                elif asking and 54 in state.legal_actions():
                    action = choose(state, new)
                    say(state, action, new)
                else:
                    action = 55
            else:
                action = choose(state, new)
                say(state, action, new)
            info = state.describe_action(action)
            state.apply_action(action)
            if p == 0 and info.kind in {"draw", "take"}:
                new = next((c for c in state.view(0).hand if c not in before), None)
            if state.turn_player != 0 or state.is_terminal():
                new = None
        match.record(state)
        states.append(state)
        inputs.append("y" if h + 1 < hands else "n")
    return Expected(game, inputs, states, match.ledger)


def ledger_text(amounts: Sequence[int]) -> str:
    """``you +3, Player 1 -3`` as the command prints returns and ledgers."""
    names = ["you", *(f"Player {p}" for p in range(1, len(amounts)))]
    return ", ".join(f"{n} {a:+d}" if a else f"{n} 0" for n, a in zip(names, amounts, strict=True))


def records(path: Path) -> list[str]:
    return path.read_text(encoding="utf-8").splitlines()


def test_whole_hand_by_menu_numbers(tmp_path: Path) -> None:
    exp = expected_match(11, ["greedy"], {}, by_number=True)
    rec = tmp_path / "hands.jsonl"
    result = run(["--seed", "11", "--record", str(rec)], exp.inputs)
    assert result.exit_code == 0, result.output
    out = result.output
    assert "Traceback" not in out
    assert out.startswith("Tonk: you against Player 1 (greedy); seed 11\n")
    assert "=== Hand 1 over: " in out
    assert "Settlement:" in out
    assert f"This hand: {ledger_text(exp.states[0].returns())}" in out
    assert f"Ledger after 1 hand: {ledger_text(exp.ledger)}" in out
    assert out.rstrip().endswith("Bye.")
    assert records(rec) == [exp.states[0].to_record(["human", "greedy"])]
    replayed = replay_tonk_record(records(rec)[0])
    assert replayed.returns() == exp.states[0].returns()


def test_settlement_lines_name_payer_and_payee() -> None:
    exp = expected_match(27, ["greedy"], {}, smart)
    state = exp.states[0]
    assert state.ending is not None
    assert state.ending["category"] == "drop_won"
    result = run(["--seed", "27"], exp.inputs)
    assert result.exit_code == 0, result.output
    assert "=== Hand 1 over: You dropped with the lowest count ===" in result.output
    for payer, payee, units in state.settlement():
        who = ["You pay you", "Player 1 pays you"][payer] if payee == 0 else "You pay Player 1"
        assert f"  {who} {units}" in result.output


def test_mnemonics_d_m_h_x_k(tmp_path: Path) -> None:
    # Seed 27: the human draws, spreads, hits and finally drops (found by search).
    exp = expected_match(27, ["greedy"], {}, smart)
    heads = [i.split()[0] for i in exp.inputs]
    assert {"d", "m", "h", "x", "k"} <= set(heads)
    rec = tmp_path / "r.jsonl"
    result = run(["--seed", "27", "--record", str(rec)], exp.inputs)
    assert result.exit_code == 0, result.output
    out = result.output
    assert re.search(r"^You draw \S+ from the stock$", out, re.M)
    assert re.search(r"^You spread \S+ \S+ \S+ as S0$", out, re.M)
    assert re.search(r"^You hit \S+ on S0 \(your run\)$", out, re.M)
    assert re.search(r"^You discard \S+$", out, re.M)
    assert "You drop!" in out
    assert records(rec) == [exp.states[0].to_record(["human", "greedy"])]


def test_typed_action_texts_work_too() -> None:
    # Up to the human's first decision, then "draw" and "discard <card>" as texts.
    state = Match(TonkGame(), 27).next_game()
    bot = TonkBot("greedy", derive_seed(27, 101))
    while state.current_player() != 0:
        state.apply_action(bot.act(state))
    state.apply_action(52)
    card = sort_hand(state.view(0).hand)[-1]
    result = run(["--seed", "27"], ["draw", f"discard {card}", "q", "y"])
    assert result.exit_code == 0, result.output
    assert f"You discard {card.symbol()}" in result.output


def test_two_hands_rotate_the_dealer_and_keep_a_ledger(tmp_path: Path) -> None:
    exp = expected_match(5, ["greedy", "greedy"], {}, smart, hands=2)
    rec = tmp_path / "two.jsonl"
    result = run(["--seed", "5", "--players", "3", "--record", str(rec)], exp.inputs)
    assert result.exit_code == 0, result.output
    out = result.output
    dealers = [s.dealer for s in exp.states]
    assert dealers[1] == (dealers[0] + 1) % 3
    for n, d in enumerate(dealers, 1):
        who = "you deal" if d == 0 else f"Player {d} deals"
        assert f"=== Hand {n}: {who} ===" in out
    first = exp.states[0].returns()
    assert f"Ledger after 1 hand: {ledger_text(first)}" in out
    assert f"Ledger after 2 hands: {ledger_text(exp.ledger)}" in out
    assert exp.ledger == [a + b for a, b in zip(first, exp.states[1].returns(), strict=True)]
    lines = records(rec)
    assert lines == [s.to_record(["human", "greedy", "greedy"]) for s in exp.states]
    result = CliRunner().invoke(main, ["replay", str(rec)])
    assert result.exit_code == 0
    assert result.output == "2 records, all valid\n"


def test_bad_input_prompts_again() -> None:
    lines = ["", "foo", "99", "x 9", "h 1 S4", "m 1 2", "x", "k k", "n", "q", "y"]
    result = run(["--seed", "27"], lines)
    assert result.exit_code == 0, result.output
    out = result.output
    assert "Traceback" not in out
    assert "'foo': type a menu number or a mnemonic" in out
    assert "no menu item 99: choose 1 to 3" in out
    assert "no slot 9: your hand has slots 1 to 5" in out
    assert "there is no spread S4 on the table" in out
    assert "a spread needs three or more cards" in out
    # "n" (stay out of a spades bet) with no bet: refused with the engine's reason.
    state = Match(TonkGame(), 27).next_game()
    bot = TonkBot("greedy", derive_seed(27, 101))
    while state.current_player() != 0:
        state.apply_action(bot.act(state))
    why = state.refusal(state.string_to_action("spades out"))
    assert why is not None
    assert f"  not allowed: {why[1]} ({why[0]})\n" in out
    # One menu, then a prompt per line of input (the empty one is re-asked by click).
    assert out.count("Your move:") == 1
    assert out.count("Your choice:") == len(lines) - 1
    assert out.count("Quit the match? [y/n]") == 1
    assert out.rstrip().endswith("Bye.")


def test_quit_at_the_first_prompt_writes_the_unfinished_hand(tmp_path: Path) -> None:
    rec = tmp_path / "q.jsonl"
    result = run(["--seed", "27", "--record", str(rec)], ["q", "y"])
    assert result.exit_code == 0, result.output
    assert result.output.rstrip().endswith("Bye.")
    (line,) = records(rec)
    data = json.loads(line)
    assert data["result"] is None
    assert data["players"] == ["human", "greedy"]
    state = replay_tonk_record(line)
    assert state.current_player() == 0
    assert not state.is_terminal()


def test_quit_mid_hand(tmp_path: Path) -> None:
    rec = tmp_path / "q.jsonl"
    result = run(["--seed", "27", "--record", str(rec)], ["d", "x 1", "quit", "y"])
    assert result.exit_code == 0, result.output
    (line,) = records(rec)
    state = replay_tonk_record(line)
    assert not state.is_terminal()
    assert state.current_player() == 0
    # The bot's turn, then the human's draw and discard, then the bot's next turn.
    assert 52 in state.history()
    assert "You discard " in result.output
    assert "=== Hand 1 over" not in result.output


def test_quit_at_another_hand(tmp_path: Path) -> None:
    exp = expected_match(27, ["greedy"], {}, smart)
    rec = tmp_path / "q.jsonl"
    result = run(["--seed", "27", "--record", str(rec)], [*exp.inputs[:-1], "q"])
    assert result.exit_code == 0, result.output
    assert "Another hand? [Y/n]" in result.output
    assert result.output.rstrip().endswith("Bye.")
    assert records(rec) == [exp.states[0].to_record(["human", "greedy"])]


def test_another_hand_asks_again_on_bad_answers() -> None:
    exp = expected_match(27, ["greedy"], {}, smart)
    result = run(["--seed", "27"], [*exp.inputs[:-1], "maybe", "n"])
    assert result.exit_code == 0, result.output
    assert "answer y or n (q quits)" in result.output
    assert result.output.count("Another hand? [Y/n]") == 2


def test_end_of_input_interrupts_with_standings_and_keeps_the_record(tmp_path: Path) -> None:
    # As every command: an interruption (Ctrl-C, or the input ending) exits 130.
    rec = tmp_path / "eof.jsonl"
    result = run(["--seed", "27", "--record", str(rec)], ["d"])
    assert result.exit_code == 130
    assert "Standings" in result.output or "standings" in result.output
    assert result.output.rstrip().endswith("Interrupted.")
    (line,) = records(rec)
    assert json.loads(line)["result"] is None


def test_a_record_file_that_cannot_be_opened_is_a_usage_error(tmp_path: Path) -> None:
    result = run(["--seed", "27", "--record", str(tmp_path / "no" / "r.jsonl")], ["q", "y"])
    assert result.exit_code == 2
    assert "'--record'" in result.output
    assert "cannot open" in result.output


def public_cards(state: TonkState) -> set[Card]:
    """Every card that was ever on the discard pile, in a spread or shown for spades."""
    params = json.loads(state.to_record())["params"]
    replay = TonkGame(**params).new_initial_state(state.seed, state.dealer)
    seen: set[Card] = set(replay.discard_pile)
    for a in state.history():
        replay.apply_action(a)
        view = replay.view(0)
        seen |= set(view.discard_pile)
        for s in view.spreads:
            seen |= set(s.cards)
        seen |= {c for c in view.spades_shown if c is not None}
    return seen


@pytest.mark.parametrize(
    ("seed", "options"),
    [(4, {}), (14, {"drop_timing": "any_time"}), (8, {"spades_bet": 1})],
)
def test_no_hidden_card_shows_before_the_end(seed: int, options: dict[str, Any]) -> None:
    exp = expected_match(seed, ["greedy", "greedy"], options, smart)
    state = exp.states[0]
    view = state.view(0)
    assert all(h is not None for h in view.shown_hands)  # the end shows every hand
    public = public_cards(state) | set(state.hand(0))
    hidden = {c for p in (1, 2) for c in state.hand(p) if c not in public}
    assert len(hidden) >= 3
    flags = [f"--{k.replace('_', '-')}={v}" for k, v in options.items()]
    result = run(["--seed", str(seed), "--players", "3", *flags], exp.inputs)
    assert result.exit_code == 0, result.output
    before, after = result.output.split("=== Hand 1 over", 1)
    for card in hidden:
        assert card.symbol() not in before, card
        assert card.symbol() in after, card
    # A bot's draw from the stock never names the card.
    for line in before.splitlines():
        if line.startswith("Player") and "from the stock" in line:
            assert not any(s in line for s in SUITS), line


def test_drop_windows_and_spades_bet() -> None:
    options = {"drop_timing": "any_time", "spades_bet": 2}
    exp = expected_match(3, ["greedy", "greedy"], options, smart)
    result = run(
        ["--seed", "3", "--players", "3", "--drop-timing", "any-time", "--spades-bet", "2"],
        exp.inputs,
    )
    assert result.exit_code == 0, result.output
    out = result.output
    assert "Spades bet: join?" in out
    assert "You join the spades bet" in out
    assert re.search(r"^You show (\S+|no spade) for the spades bet$", out, re.M)
    # The drop windows are quiet: k sits in your own menus, the others' windows pass.
    assert "Drop window" not in out
    assert "Your choice [pass]" not in out
    assert re.search(r"^ +\d\) k +drop \(knock\) with a count of \d+$", out, re.M)
    # One prompt per move (the last input answers "Another hand?").
    assert out.count("Your choice:") == len(exp.inputs) - 1
    # Your draw was chosen with the window before your turn open; Player 2 dropped in it.
    assert exp.states[0].ending == {"category": "drop_won", "player": 2, "caught": False}
    assert "Player 2 drops!\n(The hand is over: your 'draw' was not played.)" in out
    assert f"Ledger after 1 hand: {ledger_text(exp.ledger)}" in out


def test_hit_lock_is_shown() -> None:
    # Seed 27: the bot hits the human's run S0, so the human may not drop next turn.
    exp = expected_match(27, ["greedy"], {}, smart)
    result = run(["--seed", "27"], exp.inputs)
    assert result.exit_code == 0
    out = result.output
    hit = re.search(r"^Player 1 hits \S+ on S0 \(your run\)$", out, re.M)
    assert hit is not None
    after = out[hit.end() :]
    assert "You cannot drop this turn (hit lock)." in after
    menu = after[: after.index("Your choice")]
    assert "k  drop" not in menu
    # The human's own hit on S0 does not lock anybody.
    assert re.search(r"^You hit \S+ on S0 \(your run\)$", out, re.M)


def test_claim_49() -> None:
    # Seed 171: the human holds 49 at their first turn under forty_nine_in_turn (TK-5.4).
    result = run(["--seed", "171", "--deal-wins", "forty-nine-in-turn"], ["c", "n"])
    assert result.exit_code == 0, result.output
    out = result.output
    assert re.search(r"^ +\d\) c +claim your 49 on the deal$", out, re.M)
    assert "count 49" in out
    assert "=== Hand 1 over: You win on the deal (paid 2s) ===" in out
    assert "Player 1:  not shown (5 cards)" in out
    assert "Ledger after 1 hand: you +2, Player 1 -2" in out


def test_a_deal_win_ends_the_hand_before_any_move() -> None:
    # Seed 18: the human is dealt 50.
    result = run(["--seed", "18"], ["n"])
    assert result.exit_code == 0, result.output
    assert "Your choice" not in result.output
    assert "=== Hand 1 over: You win on the deal (paid 2s) ===" in result.output
    assert "(count 50)" in result.output


def test_counts_match_the_engine() -> None:
    exp = expected_match(4, ["greedy", "greedy"], {"face_values": "eleven_twelve_thirteen"}, smart)
    state = exp.states[0]
    result = run(["--seed", "4", "--players", "3", "--face-values", "eleven-twelve-thirteen"],
                 exp.inputs)  # fmt: skip
    assert result.exit_code == 0, result.output
    end = result.output.split("=== Hand 1 over")[1]
    for p in range(3):
        assert f"(count {state.count(p)})" in end


def test_colour_for_red_suits() -> None:
    exp = expected_match(27, ["greedy"], {}, smart)
    coloured = run(["--seed", "27"], exp.inputs, color=True)
    assert coloured.exit_code == 0
    assert "\x1b[31m" in coloured.output
    plain = run(["--seed", "27", "--no-color"], exp.inputs, color=True)
    assert plain.exit_code == 0
    assert "\x1b[" not in plain.output
    assert re.sub(r"\x1b\[\d+m", "", coloured.output) == plain.output


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--bots", "greedy,bogus"], "unknown bot"),
        (["--players", "3", "--bots", "greedy"], "--players 3 needs 2 opponents in --bots"),
        (
            ["--players", "3", "--double-double", "responder"],
            "Invalid value for '--double-double': double_double needs exactly two players",
        ),
        (["--drop-timing", "never"], "'never' is not one of"),
        (["--players", "7"], "--players"),
    ],
)
def test_usage_errors(args: list[str], message: str) -> None:
    result = run(args, [])
    assert result.exit_code == 2
    assert message in result.output


def test_strong_bot_opponent() -> None:
    exp = expected_match(2, ["strong:20"], {}, smart)
    result = run(["--seed", "2", "--bots", "strong:20"], exp.inputs)
    assert result.exit_code == 0, result.output
    assert "Player 1 (strong:20)" in result.output
    assert f"Ledger after 1 hand: {ledger_text(exp.ledger)}" in result.output


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full (Linux)")
def test_a_record_that_cannot_be_written_is_a_write_error() -> None:
    result = run(["--seed", "27", "--record", "/dev/full"], ["q", "y"])
    assert result.exit_code == 3, result.output
    assert "cannot write '/dev/full'" in result.output
    assert "Traceback" not in result.output


def test_the_default_opponent_is_the_normal_level() -> None:
    """Without --bots or --level, ``play tonk`` seats the ladder's normal level."""
    normal = dict(TonkGame().bot_levels())["normal"]
    text = "q\ny\n"
    result = CliRunner().invoke(main, ["play", "tonk", "--seed", "27"], input=text)
    assert result.exit_code == 0, result.output
    assert result.output.startswith(f"Tonk: you against Player 1 ({normal}); seed 27\n")
