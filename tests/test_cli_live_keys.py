"""The keys of the live Spit and Speed screens, driven headless by Textual's
pilot with a fake clock: every key the screen names does what it says, in
every state (playing, paused, keys shown, the end of a deal, a joker
waiting for its rank, game over, match over, a window too small); a
joker is played by keys (SD-5) and no card the engine counts as playable
is out of the keys' reach; messages use the table's card symbols and the
engine's reasons (SP-/SD- rules)."""

from __future__ import annotations

import asyncio
import re
from collections.abc import Awaitable, Callable
from functools import partial
from typing import Any

from textual.pilot import Pilot

from cardtable.cli.app.screens import ConfirmScreen, NewGameScreen
from cardtable.cli.app.shell import CardTable
from cardtable.cli.live import Choice
from cardtable.cli.presenters import PRESENTERS
from cardtable.games import Game, Session, load_game

from . import app_harness
from .app_harness import Clock, help_shown, live, text_of


def live_app(
    name: str, seats: list[str | None], seed: int = 8, **options: Any
) -> tuple[CardTable, Clock]:
    app, clock, _records = app_harness.live_app(name, seats, seed, None, "plain:easy", **options)
    return app, clock


# --- reading the keys the screen names -------------------------------------------------

KEY_TOKEN = re.compile(r"^(?:[a-z0-9?]|[a-z]-[a-z]|Esc|space|Backspace|Enter)$")
ROWS = ("qwertyuiop", "asdfghjkl", "zxcvbnm")
PRESSED = {"Esc": "escape", "space": "space", "Backspace": "backspace", "Enter": "enter"}


def expand(token: str) -> list[str]:
    """``q-t`` → q w e r t (a keyboard row), ``Esc`` → escape."""
    if len(token) == 3 and token[1] == "-":
        row = next(r for r in ROWS if token[0] in r)
        return list(row[row.index(token[0]) : row.index(token[2]) + 1])
    return [PRESSED.get(token, token)]


def named_keys(line: str) -> list[tuple[list[str], str]]:
    """The bottom line's ``key(s) what`` segments: ``q-t a-g play`` gives
    the ten play keys and ``play``; a segment with no key is a note."""
    named = []
    for segment in line.split(" · "):
        words = segment.split()
        keys: list[str] = []
        while words and KEY_TOKEN.match(words[0]):
            keys.extend(expand(words.pop(0)))
        if keys:
            named.append((keys, " ".join(words)))
    return named


async def each_named_key(
    app: CardTable,
    pilot: Pilot[None],
    check: Callable[[CardTable, Pilot[None], str, str], Awaitable[None]],
) -> list[str]:
    """Presses every key the bottom line names and checks what it did. A
    key that moves changes the state, and with it the keys named: each key
    is pressed only while the line still names it (Esc and the keys that
    quit are pressed last, in the tests)."""
    named = named_keys(text_of(app, "#hint"))
    assert named, text_of(app, "#hint")
    pressed = []
    for keys, what in named:
        for key in keys:
            if what in ("quit", "cancels", "another game") or not app.is_running:
                continue
            if (keys, what) not in named_keys(text_of(app, "#hint")):
                continue
            await check(app, pilot, key, what)
            pressed.append(key)
    return pressed


def commits_of(app: CardTable, seat: int = 0) -> list[str]:
    board = live(app)
    return [
        board.game.action_to_string(a) for _at, s, a, bounced in board.session.log() if s == seat
    ]


async def does_what_it_says(app: CardTable, pilot: Pilot[None], key: str, what: str) -> None:
    """The bottom line's promise for ``key``: pause, help, new game, a move."""
    board = live(app)
    paused, before = board.paused, len(commits_of(app))
    await pilot.press(key)
    message = text_of(app, "#message")
    assert "not a key" not in message, (key, what)
    if what == "pause":
        assert board.paused
        assert not paused
        await pilot.press("p")
        assert not board.paused
    elif what == "plays on":
        assert paused
        assert not board.paused
        await pilot.press("p")
    elif what == "help":
        assert help_shown(app)
        assert board.stopped_at is not None  # the clock waits while the help is open
        await pilot.press("?")
        assert not help_shown(app)
    elif what == "new game":
        if isinstance(app.screen, ConfirmScreen):  # a game is under way: leave it?
            await pilot.press("y")
        for _ in range(20):
            if isinstance(app.screen, NewGameScreen):
                break
            await pilot.pause(0.01)
        assert isinstance(app.screen, NewGameScreen)
        await pilot.press("escape")  # back to the same game
        await pilot.pause()
        assert app.board is board
        assert not isinstance(app.screen, NewGameScreen)
    elif what.startswith(("slap ", "take ", "spit alone", "JK as")):
        # One key, one move that lands.
        assert len(commits_of(app)) == before + 1, (key, what, message)
        assert not board.session.log()[-1][3]
    else:  # play, flip/move, spit, draw: a move, or the engine's reason
        moved = len(commits_of(app)) > before
        assert moved or re.search(r"\((SP|SD)-[0-9.]+\)$|is empty$", message), (key, message)


def hint_of(app: CardTable) -> str:
    return text_of(app, "#keys")


def help_keys(text: str) -> list[str]:
    """The keys the help's key section names."""
    section = text[text.index("Keys\n") :].splitlines()[1:]
    out: list[str] = []
    for line in section:
        token = line.strip().split("  ")[0].strip()
        out.extend(word for word in token.replace("/", " ").split() if KEY_TOKEN.match(word))
    return out


def test_every_key_the_screen_names_does_what_it_says_in_play_and_paused() -> None:
    for name in ("spit", "speed"):

        async def play(name: str = name) -> None:
            app, clock = live_app(name, [None, "plain:easy"])
            board = live(app)
            async with app.run_test(size=(80, 24)) as pilot:
                await pilot.pause()
                clock.t += 2.0
                await pilot.pause(0.05)
                assert hint_of(app) == "q-t a-g play · p pause · ? help · n new game · Esc quit"
                pressed = await each_named_key(app, pilot, does_what_it_says)
                assert {"p", "?", "n", "q", "g"} <= set(pressed)
                await pilot.press("p")
                assert hint_of(app) == "p plays on · ? help · n new game · Esc quit"
                await each_named_key(app, pilot, does_what_it_says)
                await pilot.press("p", "?")
                # Every key of the help means something in play.
                keys = help_keys(text_of(app, "#help"))
                assert {"q-t", "a-g", "p", "?", "n", "Esc"} <= set(keys), keys
                await pilot.press("?")
                for word in keys:
                    if word in ("Esc", "p", "?", "n", "Enter"):
                        continue
                    for key in expand(word):
                        await pilot.press(key)
                        assert "not a key" not in text_of(app, "#message"), key
                        board.presenter.cancel()
                await pilot.press("escape", "y")
                await pilot.pause()
                assert not app.is_running

        asyncio.run(play())


def productive(view: Any, legal: list[int], texts: list[str]) -> int | None:
    """A move of seat 0's that gets on with the deal (SP-3.1): a play, a
    flip, or a move to a space that uncovers a card."""
    for verb in ("play", "flip", "move"):
        for action, text in zip(legal, texts, strict=True):
            words = text.split()
            if words[0] == verb and (verb != "move" or view.piles[0][int(words[1]) - 1][0]):
                return action
    return None


def test_at_the_end_of_a_spit_deal_the_screen_names_the_slap_keys_and_they_slap() -> None:
    for slap, key in ((True, "h"), (True, "l"), (False, "h"), (False, "l")):

        async def play(slap: bool = slap, key: str = key) -> None:
            app, clock = live_app("spit", [None, "plain:instant"], seed=7, slap=slap)
            board = live(app)
            session = board.session
            async with app.run_test(size=(80, 24)) as pilot:
                await pilot.pause()
                # Seat 0 plays (a play, a flip, a move that uncovers a card)
                # until a deal ends with seat 0 to slap (or to choose).
                for _ in range(3000):
                    legal = session.legal_actions(0)
                    texts = [board.game.action_to_string(a) for a in legal]
                    if any(t.startswith("slap") for t in texts):
                        break
                    move = productive(session.view(0), legal, texts)
                    if move is not None:
                        session.submit(0, move, board.virtual_now())
                    clock.t += 0.25
                    board.tick()
                await pilot.pause(0.02)
                view = session.view(0)
                assert view.phase == "slap"
                verb = "slap" if slap else "take"
                sizes = [len(p) for p in view.centre]
                assert hint_of(app).startswith(
                    f"h {verb} L ({sizes[0]} cards) · l {verb} R ({sizes[1]} cards) · "
                ), hint_of(app)
                (what,) = [w for keys, w in named_keys(hint_of(app)) if keys == [key]]
                await does_what_it_says(app, pilot, key, what)
                assert commits_of(app)[-1] == f"slap {'L' if key == 'h' else 'R'}"
                await each_named_key(app, pilot, does_what_it_says)  # p, ?, n, what is left
                await pilot.press("escape", "y")

        asyncio.run(play())


def test_game_over_and_match_over_name_enter_q_and_esc_and_both_quit_at_once() -> None:
    cases = [("spit", {}), ("spit", {"match_games": 3}), ("speed", {"match": "best_of_3"})]
    for (name, options), key in zip(cases * 2, ["q"] * 3 + ["escape"] * 3, strict=True):

        async def play(name: str = name, options: Any = options, key: str = key) -> None:
            app, clock = live_app(name, ["plain:instant", "plain:instant"], **options)
            async with app.run_test(size=(80, 24)) as pilot:
                await pilot.pause()
                clock.t += 20_000
                await pilot.pause(0.05)
                assert live(app).session.is_over()
                assert named_keys(hint_of(app)) == [
                    (["enter"], "another game"),
                    (["?"], "help"),
                    (["n"], "new game"),
                    (["q", "escape"], "quit"),
                ]
                await each_named_key(app, pilot, does_what_it_says)
                await pilot.press(key)
                await pilot.pause()
                assert not app.is_running
            assert not app.interrupted

        asyncio.run(play())


# --- jokers (SD-5) ----------------------------------------------------------------------

# Seed 291 deals seat 0 a hand whose only playable card is its joker (slot
# 4) on K♣ and K♦, and seat 1 nothing playable: before a joker could be
# played from the keys this game stood still.
ONLY_A_JOKER = 291


def test_a_joker_is_played_by_its_key_then_its_rank_when_it_is_the_only_playable_card() -> None:
    async def play() -> None:
        app, clock = live_app("speed", [None, None], seed=ONLY_A_JOKER, jokers=True)
        board = live(app)
        session, game = board.session, board.game
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            clock.t += 2.0
            await pilot.pause(0.05)
            legal = [game.action_to_string(a) for a in session.legal_actions(0)]
            assert legal
            assert all(t.startswith("play JK") for t in legal), legal
            assert session.legal_actions(1) == []
            assert "q-t a-g play (JK: then its rank)" in hint_of(app)
            await pilot.press("r")  # slot 4 onto the left pile
            assert text_of(app, "#message") == "JK onto L: press the rank it stands for"
            assert hint_of(app) == "a JK as A · q JK as Q · Esc cancels · ? help · n new game"
            # A rank the engine does not offer is refused with its reason.
            await pilot.press("5")
            assert text_of(app, "#message") == "JK as 5 on K♣: a joker here is A or Q, not 5 (SD-5)"
            assert board.presenter.choice(session.view(0), game, session.legal_actions(0))
            # Esc puts it back; the keys name the ranks again after its key.
            await pilot.press("escape")
            assert app.is_running
            assert hint_of(app).startswith("q-t a-g play")
            await pilot.press("f")  # slot 4 onto the right pile
            assert hint_of(app) == "a JK as A · q JK as Q · Esc cancels · ? help · n new game"
            await each_named_key(app, pilot, does_what_it_says)  # a: the joker lands as A
            assert commits_of(app) == ["play JK R as A"]
            assert "you: JK as A onto R" in text_of(app, "#ticker")
            assert "R[JK=A x2]" in text_of(app, "#table")
            await pilot.press("escape", "y")

    asyncio.run(play())


def reachable(presenter_of: Callable[[], Any], view: Any, game: Game, legal: list[int]) -> set[int]:
    """Every action one or two keys give (a key, or a key then a second
    one while a choice is open), each from a fresh presenter."""
    alphabet = [chr(c) for c in range(ord("a"), ord("z") + 1)] + list("0123456789") + ["space"]
    found = set()
    for first in alphabet:
        presenter = presenter_of()
        meaning = presenter.action_for(first, view, game, legal)
        if isinstance(meaning, int):
            found.add(meaning)
        elif isinstance(meaning, Choice):
            for second in alphabet:
                again = presenter_of()
                again.action_for(first, view, game, legal)
                then = again.action_for(second, view, game, legal)
                if isinstance(then, int):
                    found.add(then)
    return found


def source(game: Game, action: int) -> str:
    """What a move moves: a card to a space or onto an equal rank counts
    as one move of its pile whichever space it goes to (SP-2.3, SP-7.4)."""
    words = game.action_to_string(action).split()
    return f"own pile {words[1]}" if words[0] in ("move", "stack") else " ".join(words)


def test_every_move_the_engine_counts_as_playable_is_in_the_keys_reach() -> None:
    """The stalemate check (RT-8, SP-3.1, SD-3.1) and the key map agree: in
    bot games under many rule sets, each legal action of seat 0 is one or
    two keys away, so no game stands still for want of a key."""
    configs: list[tuple[str, dict[str, Any]]] = [
        ("speed", {"jokers": True}),
        ("speed", {"jokers": True, "auto_draw": False, "equal_rank_play": True}),
        ("spit", {"stack_equal_ranks": True, "auto_flip": False}),
        ("spit", {"stack_equal_ranks": True, "stalemate": "agreed", "stock_piles": 4}),
        ("spit", {"slap": False, "lone_spit_pile": "choose"}),
    ]
    checked = 0
    for name, options in configs:
        live = PRESENTERS[name].live
        assert live is not None
        game = load_game(name, **options)
        for seed in range(6):
            session = Session(game, ["plain:normal", "plain:normal"], seed)
            t = 0
            while not session.is_over() and t < 120_000:
                legal = session.legal_actions(0)
                if legal:
                    view = session.view(0)
                    keys = reachable(partial(live, game), view, game, legal)
                    missing = {source(game, a) for a in legal} - {source(game, a) for a in keys}
                    assert not missing, (name, options, seed, missing)
                    checked += 1
                t += 250
                session.advance_to(t)
    assert checked > 300, checked


# --- messages in the table's symbols ------------------------------------------------------

ENGINE_CARD = re.compile(r"\b(?:[2-9TJQKA][SHDC])\b")
ENGINE_MOVE = re.compile(r"\bplay \d [LR]\b|\bplay [2-9TJQKA][SHDC] [LR]\b")


def test_messages_and_the_ticker_use_the_tables_card_symbols_and_say_why() -> None:
    for name in ("spit", "speed"):

        async def play(name: str = name) -> None:
            app, clock = live_app(name, [None, "plain:hard"])
            async with app.run_test(size=(80, 24)) as pilot:
                await pilot.pause()
                clock.t += 2.0
                refusals, told = [], []
                for _ in range(12):
                    for key in "qwertasdfg":
                        await pilot.press(key)
                        message = text_of(app, "#message")
                        if re.search(r"\((SP|SD)-[0-9.]+\)$", message):
                            refusals.append(message)
                    clock.t += 0.5
                    live(app).tick()
                    await pilot.pause(0)
                    told.extend(live(app).story)
                    for text in (text_of(app, "#ticker"), text_of(app, "#message")):
                        assert not ENGINE_CARD.search(text), text
                        assert not ENGINE_MOVE.search(text), text
                assert any(re.search(r"bot: \S+[♠♥♣♦] onto [LR]", line) for line in told), told
                # ``2♣ on 7♦: the ranks are not one apart (A and K are) (SP-2.1)``
                rule = "SP-2.1" if name == "spit" else "SD-2.1"
                apart = re.compile(
                    rf"^(10|[2-9AJQK])[♠♥♣♦] on (10|[2-9AJQK])[♠♥♣♦]: "
                    rf"the ranks are not one apart \(A and K are\) \({rule}\)$"
                )
                assert any(apart.match(m) for m in refusals), refusals
                await pilot.press("escape", "y")

        asyncio.run(play())
