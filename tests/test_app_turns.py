"""The card table's turn-based games (Tonk, Three Thirteen, gin rummy)
driven headless by Textual's pilot: each game played to its end by keys
(gin rummy by the mouse too), refusals with their rule, take-backs, the
help, a new game at another level without leaving, and the history of
the games finished. Expected values come from the engine's API."""

from __future__ import annotations

import asyncio
import os
from pathlib import Path

import pytest

from cardtable.cli.app.screens import HelpScreen, NewGameScreen
from cardtable.games import Bot, load_game, replay_record
from cardtable.history import read_games

from .app_harness import (
    make_move,
    play_to_the_end,
    text_of,
    turn_app,
    turns,
    wait_for,
)

GAMES = [("tonk", 3, 7), ("three_thirteen", 2, 3), ("gin_rummy", 2, 11)]


@pytest.mark.parametrize(("name", "players", "seed"), GAMES)
def test_each_game_is_played_to_its_end_by_keys_and_kept(
    name: str, players: int, seed: int
) -> None:
    records: list[str] = []
    app = turn_app(name, players, seed, record=records.append)

    async def play() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            made = await play_to_the_end(pilot, app)
            assert made > 0
            board = turns(app)
            assert board.over
            assert board.match.games_played == 1
            info = str(app.query_one("#info").render())
            assert f"Enter: next {board.table.unit}" in info
            assert "Enter next" in text_of(app, "#keys")
            # The record replays to the game played; the history has it.
            assert replay_record(records[0]).fingerprint() == board.state.fingerprint()
            (stored,) = read_games(Path(os.environ["CARDTABLE_HISTORY"]))
            assert stored.game == name
            assert stored.seats == ["you", *board.names]
            assert stored.levels == [None, *["normal"] * (players - 1)]
            assert stored.returns == board.state.returns()
            assert stored.won == board.state.won(0)
            assert stored.seed == board.seed
            # Enter deals the next game of the match.
            await pilot.press("enter")
            assert not board.over
            assert board.number == 2
            await pilot.press("q", "y")
        assert len(records) == 2  # the second game, unfinished, when quitting

    asyncio.run(play())


def test_gin_rummy_is_played_to_its_end_by_the_mouse() -> None:
    app = turn_app("gin_rummy", 2, 11)

    async def play() -> None:
        async with app.run_test(size=(120, 40)) as pilot:
            await pilot.pause()
            await play_to_the_end(pilot, app, mouse=True)
            assert turns(app).over

    asyncio.run(play())


def test_a_card_chosen_narrows_the_moves_to_that_cards_and_a_letter_plays_the_only_one() -> None:
    app = turn_app("tonk", 2, 27)

    async def play() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            board = turns(app)
            await pilot.press("d")  # draw: the only move of its letter
            assert board.state.view(0).phase == "play"
            card = board.hand[board.cursor]
            await pilot.press("space")
            assert board.shown
            assert all(card in m.cards for m in board.shown)
            await pilot.press("x")  # the discard of the chosen card
            assert card not in board.state.view(0).hand
            assert board.last[0] == f"discard {card.symbol()}"
            await pilot.press("ctrl+c")

    asyncio.run(play())


def test_a_refused_move_says_why_with_its_rule_and_changes_nothing() -> None:
    app = turn_app("tonk", 2, 27)

    async def play() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            board = turns(app)
            before = board.state.fingerprint()
            card = board.hand[board.cursor]
            await pilot.press("x")  # a discard before drawing
            action = board.game.string_to_action(f"discard {card}")
            why = board.state.refusal(action)
            assert why is not None
            rule, sentence = why
            assert text_of(app, "#message") == f"not allowed: {sentence} ({rule})"
            assert rule.startswith("TK-")
            assert board.state.fingerprint() == before
            await pilot.press("ctrl+c")

    asyncio.run(play())


def test_u_takes_back_taking_the_discard_but_not_a_stock_draw() -> None:
    app = turn_app("three_thirteen", 2, 8)

    async def play() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            board = turns(app)
            before = board.state.fingerprint()
            await pilot.press("p")  # take the discard
            assert board.state.fingerprint() != before
            await pilot.press("u")
            assert board.state.fingerprint() == before
            assert text_of(app, "#message").startswith("Taken back: take ")
            await pilot.press("d")
            drawn = board.state.fingerprint()
            await pilot.press("u")
            assert board.state.fingerprint() == drawn
            assert "you saw the card you drew" in text_of(app, "#message")
            await pilot.press("ctrl+c")

    asyncio.run(play())


@pytest.mark.parametrize(
    ("name", "options", "variant"),
    [
        ("gin_rummy", {}, "none, the defaults"),
        ("gin_rummy", {"knock_card": 7}, "--knock-card 7"),
        ("tonk", {"spades_bet": 1}, "--spades-bet 1"),
        ("three_thirteen", {}, "g, the joker gift (TT-10.4), needs --jokers wild-giftable"),
    ],
)
def test_help_tells_the_rules_in_play_the_variants_and_the_keys(
    name: str, options: dict[str, object], variant: str
) -> None:
    app = turn_app(name, 2, 5, options=options)

    async def play() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            await pilot.press("?")
            assert isinstance(app.screen, HelpScreen)
            text = " ".join(text_of(app, "#help").split())
            for title, rule, summary in load_game(name, **options).rules_summary():
                assert f"{title} ({rule}): {' '.join(summary.split())}" in text
            assert variant in text
            assert "Now: " in text  # what the phase asks
            assert "u take back your last move" in text
            await pilot.press("?")
            assert not isinstance(app.screen, HelpScreen)
            await pilot.press("ctrl+c")

    asyncio.run(play())


def test_n_starts_a_new_game_at_another_level_without_leaving() -> None:
    app = turn_app("gin_rummy", 2, 11)

    async def play() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            await play_to_the_end(pilot, app)
            first = turns(app)
            await pilot.press("n")
            await wait_for(pilot, lambda: isinstance(app.screen, NewGameScreen))
            screen = app.screen
            assert isinstance(screen, NewGameScreen)
            seat = next(i for i, f in enumerate(screen.fields) if f.name == "seat1")
            for _ in range(seat):
                await pilot.press("down")
            await pilot.press("right")  # normal -> hard
            assert screen.fields[seat].value == "hard"
            await pilot.press("enter")
            await wait_for(pilot, lambda: app.board is not first)
            board = turns(app)
            assert board.levels == [None, "hard"]
            assert board.names == [load_game("gin_rummy").bot_levels()[2][1]]
            assert "you vs hard" in text_of(app, "#header")
            await play_to_the_end(pilot, app)
            await pilot.press("q")
        stored = read_games(Path(os.environ["CARDTABLE_HISTORY"]))
        assert [g.levels for g in stored] == [[None, "hard"], [None, "normal"]]
        assert stored[0].match != stored[1].match

    asyncio.run(play())


def test_bots_move_at_the_pace_given_and_enter_plays_their_moves_at_once() -> None:
    app = turn_app("tonk", 4, 3)

    async def play() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            board = turns(app)
            board.delay = 5.0  # from now on
            assert board.state.current_player() == 0
            moves_before = len(board.state.history())
            await pilot.press("d")
            await wait_for(pilot, lambda: board.state.current_player() == 0 or board.over)
            await make_move(pilot, app, 0, mouse=False)  # the first discard
            await pilot.pause(0.1)
            if not board.over:
                assert board.state.current_player() != 0  # a bot thinks for 5 s
                assert "Enter skip ahead" in text_of(app, "#keys")
                await pilot.press("enter")
                assert board.state.current_player() == 0 or board.over
            # Each bot's move is its seat's last move and a line of the log.
            for seat in range(1, 4):
                assert seat in board.last
            assert len(board.log_lines) >= len(board.state.history()) - moves_before
            await pilot.press("ctrl+c")

    asyncio.run(play())


def test_gin_rummy_done_with_melds_in_hand_lays_them_first() -> None:
    """Issue 35 item 6: after the bot's knock, the table offers "lay your
    melds, then done", which scores the least deadwood; done without them
    asks first. The opponent is the greedy bot, which knocks as soon as it may."""
    app = turn_app("gin_rummy", 2, 5, level="greedy")

    async def play() -> None:
        async with app.run_test(size=(120, 40)) as pilot:
            await pilot.pause()
            board = turns(app)
            person = Bot(board.game, "greedy", 1)
            while not (board.state.view(0).phase == "layoff" and board.state.current_player() == 0):
                action = person.act(board.state)
                index = next(i for i, m in enumerate(board.shown) if m.actions[0] == action)
                await make_move(pilot, app, index, mouse=False)
            await pilot.press("p")  # done laying off: the melds come next
            view = board.state.view(0)
            assert view.best_melds
            labels = [m.label for m in board.shown]
            lay = next(i for i, label in enumerate(labels) if label.endswith(", then done"))
            bare = next(i for i, m in enumerate(board.shown) if m.confirm is not None)
            assert "count as deadwood" in labels[bare]
            assert board.shown[lay].key == "p"
            least = view.deadwood
            await pilot.press("p")
            assert board.over
            final = board.state.view(0).final_deadwood
            assert final is not None
            assert final[0] == least

    asyncio.run(play())
