"""The live screen (``cardtable.cli.live``) driven headless by Textual's
pilot, with a fake clock: keys in, screen text and session out. The game
here is Tonk on the virtual clock with a test key map (digits pick a legal
move), so the screen is checked apart from any one game's presenter."""

from __future__ import annotations

import asyncio
from typing import Any

from textual.widgets import Static

from cardtable.cli.live import QUIT_KEYS, LiveTable, keys_text
from cardtable.games import Game, Session, replay_record
from cardtable.games.tonk import TonkGame


class Clock:
    def __init__(self) -> None:
        self.t = 100.0

    def __call__(self) -> float:
        return self.t


class DigitKeys:
    title = "Tonk"
    keys_help = keys_text([("1-9", "the legal move of that number")])
    quit_keys = QUIT_KEYS

    def render(self, view: Any, game: Game) -> str:
        moves = [game.action_to_string(a) for a in view.legal_actions]
        return f"hand {' '.join(str(c) for c in view.hand)} | moves {', '.join(moves) or '-'}"

    def action_for(self, key: str, view: Any, game: Game) -> int | str | None:
        if not key.isdigit():
            return None
        legal = view.legal_actions
        k = int(key) - 1
        return legal[k] if 0 <= k < len(legal) else f"no move {key} now"


def text_of(app: LiveTable, widget: str) -> str:
    return str(app.query_one(widget, Static).render())


def test_a_whole_game_by_keys_with_pause_help_bad_keys_and_a_saved_record() -> None:
    game = TonkGame()
    session = Session(game, [None, "greedy"], 21)
    clock = Clock()
    records: list[str] = []

    async def play() -> None:
        app = LiveTable(
            session, DigitKeys(), game, opponents="greedy", record=records.append, clock=clock
        )
        async with app.run_test(size=(100, 20)) as pilot:
            await pilot.pause()
            assert "Tonk  you vs greedy" in text_of(app, "#status")
            await pilot.press("z")
            assert "z: not a key of this game" in text_of(app, "#message")
            await pilot.press("?")
            assert "the legal move of that number" in text_of(app, "#help")
            # Paused, the virtual clock stands still whatever the wall clock does.
            await pilot.press("p")
            frozen = app.virtual_now()
            clock.t += 30
            await pilot.pause(0.05)
            assert app.virtual_now() == frozen
            await pilot.press("1")
            assert "paused" in text_of(app, "#message")
            await pilot.press("p")
            for _ in range(400):
                if session.is_over():
                    break
                if session.legal_actions(0):
                    await pilot.press("9" if len(session.legal_actions(0)) < 9 else "1")
                    await pilot.press("1")
                clock.t += 0.3
                await pilot.pause(0.04)
            assert session.is_over()
            await pilot.pause(0.05)
            assert "game over" in text_of(app, "#status")
            await pilot.press("q")

    asyncio.run(play())
    assert len(records) == 1
    replayed = replay_record(records[0])
    assert replayed.fingerprint() == session.state.fingerprint()
    assert [e[1] for e in session.log()].count(0) > 0


def test_spit_and_speed_live_screens_play_on_their_keys_and_quit_on_escape() -> None:
    from cardtable.cli.presenters import PRESENTERS
    from cardtable.games import load_game

    for name in ("spit", "speed"):
        presenter = PRESENTERS[name]
        assert presenter.live is not None
        game = load_game(name)
        session = Session(game, [None, "plain:easy"], 8)
        clock = Clock()
        records: list[str] = []

        async def play(
            session: Session = session,
            game: Game = game,
            clock: Clock = clock,
            live: Any = presenter.live,
            records: list[str] = records,
        ) -> None:
            app = LiveTable(
                session,
                live(game),
                game,
                opponents="plain:easy",
                record=records.append,
                clock=clock,
            )
            async with app.run_test(size=(100, 24)) as pilot:
                await pilot.pause()
                clock.t += 2.0  # past the countdown
                await pilot.pause(0.05)
                assert "you" in text_of(app, "#table")
                await pilot.press("?")
                assert "LEFT" in text_of(app, "#help")
                # Every play key: each either lands, bounces or says why not.
                for key in "qwertasdfg":
                    await pilot.press(key)
                    clock.t += 0.4
                    await pilot.pause(0.02)
                assert any(seat == 0 for _at, seat, *_ in session.log())
                await pilot.press("q")  # a play key here, not quit
                assert app.is_running
                await pilot.press("escape")

        asyncio.run(play())
        assert len(records) == 1, name
        assert replay_record(records[0]).fingerprint() == session.state.fingerprint()
