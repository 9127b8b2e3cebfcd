"""The live screen (``cardtable.cli.live``) driven headless by Textual's
pilot, with a fake clock: keys in, screen text and session out. The game
here is Tonk on the virtual clock with a test key map (digits pick a legal
move), so the screen is checked apart from any one game's presenter."""

from __future__ import annotations

import asyncio
from typing import Any

from textual.widgets import Static

from cardtable.cli.live import QUIT_KEYS, Marks, keys_text
from cardtable.cli.live_app import LiveTable
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

    def render(self, view: Any, game: Game, marks: Marks) -> str:
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


def styles_of(text: Any) -> set[str]:
    return {str(span.style) for span in text.spans}


def test_a_bounced_card_is_highlighted_for_a_moment_and_the_telegraph_marks_the_bots_card() -> None:
    from cardtable.cli.live import BOUNCE_STYLE, FLASH_SECONDS, INCOMING_STYLE
    from cardtable.cli.presenters.spit import SpitLive
    from cardtable.games import load_game

    game = load_game("spit")
    play_first = game.string_to_action("play 1 L")

    class Stubborn(SpitLive):
        """Plays pile 1 onto the left pile whatever the view says."""

        def action_for(self, key: str, view: Any, game: Game) -> int | str | None:
            return play_first if key == "q" else super().action_for(key, view, game)

    session = Session(game, [None, "plain:easy"], 8)
    clock = Clock()

    async def play() -> None:
        app = LiveTable(
            session, Stubborn(), game, opponents="plain:easy", clock=clock, telegraph=True
        )
        async with app.run_test(size=(100, 24)) as pilot:
            await pilot.pause()
            # In the countdown nothing may be played: the card bounces (RT-5).
            await pilot.press("q")
            assert session.log()[-1][1:] == (0, play_first, True)
            assert app.marks().bounced == {play_first}
            assert "bounced: play 1 L" in text_of(app, "#message")
            table = app.presenter.render(session.view(0), game, app.marks())
            assert BOUNCE_STYLE in styles_of(table)
            clock.t += FLASH_SECONDS + 0.1
            assert app.marks().bounced == frozenset()
            # The easy bot's card on its way is marked while it travels.
            for _ in range(200):
                clock.t += 0.05
                await pilot.pause(0.01)
                if app.marks().incoming:
                    break
            flying = app.marks().incoming
            assert flying
            assert list(flying) == [a for _at, seat, a in session.in_flight() if seat == 1]
            table = app.presenter.render(session.view(0), game, app.marks())
            assert INCOMING_STYLE in styles_of(table)
            assert "(telegraph)" in text_of(app, "#status")
            await pilot.press("escape")

    asyncio.run(play())


def test_spit_screen_puts_the_bot_on_top_yours_below_with_pile_numbers() -> None:
    from cardtable.cli.presenters.spit import SpitLive
    from cardtable.games import load_game

    game = load_game("spit")
    session = Session(game, [None, None], 3)
    session.advance_to(2_000)  # past the countdown: the spit cards are up
    view = session.view(0)
    lines = SpitLive().render(view, game, Marks()).plain.splitlines()
    bot_row = next(i for i, line in enumerate(lines) if line.startswith("bot"))
    your_row = next(i for i, line in enumerate(lines) if line.startswith("you"))
    centre = next(i for i, line in enumerate(lines) if "L[" in line and "R[" in line)
    assert bot_row < centre < your_row
    assert lines[your_row + 1].split() == ["1", "2", "3", "4", "5"]
    assert lines[bot_row + 1].split() == ["1", "2", "3", "4", "5"]
    for p, (down, up) in enumerate(view.piles[0]):
        column = lines[your_row][6 + 8 * p : 6 + 8 * (p + 1)]
        assert (up[-1].symbol() if up else "▒▒" if down else "··") in column
