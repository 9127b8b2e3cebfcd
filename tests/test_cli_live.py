"""The live screen (``cardtable.cli.live``) driven headless by Textual's
pilot, with a fake clock: keys in, screen text and session out. The game
here is Tonk on the virtual clock with a test key map (digits pick a legal
move), so the screen is checked apart from any one game's presenter."""

from __future__ import annotations

import asyncio
from typing import Any

from textual.widgets import Static

from cardtable.cli.live import QUIT_KEYS, Marks, Standings, keys_text, won
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

    def standings(self, view: Any, game: Game) -> Standings:
        return Standings("hand", 0, True, (won(0, "hand"), won(0, "hand")))


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


def live_app(
    name: str, seats: list[str | None], seed: int = 8, **options: Any
) -> tuple[LiveTable, Clock, list[str]]:
    """Spit's or Speed's live screen over a session of ``seats``, with a fake clock."""
    from cardtable.cli.presenters import PRESENTERS
    from cardtable.games import load_game

    live = PRESENTERS[name].live
    assert live is not None
    game = load_game(name, **options)
    clock = Clock()
    records: list[str] = []
    app = LiveTable(
        Session(game, seats, seed),
        live(game),
        game,
        opponents="plain:easy",
        record=records.append,
        clock=clock,
    )
    return app, clock, records


NAMED_KEYS = {"Esc": "escape"}


def test_the_game_over_screen_names_the_key_that_quits_and_it_does() -> None:
    # Both seats are bots here (seat 0 too), so the game ends by itself.
    for name in ("spit", "speed"):

        async def play(name: str = name) -> None:
            app, clock, records = live_app(name, ["plain:instant", "plain:instant"])
            async with app.run_test(size=(100, 24)) as pilot:
                await pilot.pause()
                clock.t += 4_000
                await pilot.pause(0.05)
                assert app.session.is_over(), name
                status = text_of(app, "#status")
                assert "game over: " in status, status
                named = status.split("game over: ")[1].split(" quits")[0]
                assert named == "Esc", status  # q plays a card in these games
                # q does not quit here: it says which key does.
                await pilot.press("q")
                assert app.is_running
                assert "the game is over: Esc quits" in text_of(app, "#message")
                await pilot.press("?")  # "? keys" on the status line
                assert "pause, these keys, quit" in text_of(app, "#help")
                await pilot.press("p")  # nothing to pause: it says how to leave
                assert "Esc quits" in text_of(app, "#message")
                await pilot.press(NAMED_KEYS[named])
                await pilot.pause()
                assert not app.is_running, name
            assert not app.interrupted
            assert len(records) == 1
            lines = app.standings(["you", "Player 1 (plain:instant)"])
            assert lines[0].startswith("Game over: "), lines
            unit = "game" if name == "spit" else "deal"
            assert lines[1] == f"Standings after 1 {unit}:", lines

        asyncio.run(play())


def test_a_game_whose_quit_keys_include_q_names_q_and_esc_at_game_over() -> None:
    game = TonkGame()
    for key in ("q", "escape"):
        session = Session(game, ["greedy", "greedy"], 4)
        clock = Clock()

        async def play(key: str = key, session: Session = session, clock: Clock = clock) -> None:
            app = LiveTable(session, DigitKeys(), game, opponents="greedy", clock=clock)
            async with app.run_test(size=(100, 20)) as pilot:
                await pilot.pause()
                clock.t += 600
                await pilot.pause(0.05)
                assert session.is_over()
                assert "game over: q or Esc quits" in text_of(app, "#status")
                await pilot.press(key)
                await pilot.pause()
                assert not app.is_running

        asyncio.run(play())


def test_ctrl_c_leaves_as_an_interruption_and_ctrl_q_as_a_quit_both_keeping_the_record() -> None:
    # (A real SIGINT: tests/test_cli_live_terminal.py.)
    for name in ("spit", "speed"):
        for key in ("ctrl+c", "ctrl+q"):

            async def play(name: str = name, key: str = key) -> None:
                app, clock, records = live_app(name, [None, "plain:easy"])
                async with app.run_test(size=(100, 24)) as pilot:
                    await pilot.pause()
                    clock.t += 2.0
                    await pilot.press("q", "a")  # a card or two on the way
                    await pilot.press(key)
                    await pilot.pause()
                    assert not app.is_running, (name, key)
                assert app.interrupted == (key == "ctrl+c"), (name, key)
                assert len(records) == 1
                assert replay_record(records[0]).fingerprint() == app.session.state.fingerprint()
                app.keep_record()  # once only, however often asked
                assert len(records) == 1

            asyncio.run(play())


def test_the_standings_count_what_was_won_and_note_an_unfinished_game() -> None:
    from cardtable.cli.presenters.speed import SpeedLive
    from cardtable.cli.presenters.spit import SpitLive
    from cardtable.games import load_game

    labels = ["you", "Player 1 (plain:easy)"]
    spit = load_game("spit")
    session = Session(spit, [None, "plain:easy"], 8)
    session.advance_to(5_000)
    assert SpitLive().standings(session.view(0), spit).lines(labels) == [
        "Standings after 0 games (the unfinished game does not count):",
        "  seat 0  you                    0 games won",
        "  seat 1  Player 1 (plain:easy)  0 games won",
    ]
    # A best-of-three match, played out by two bots.
    match = load_game("spit", match_games=3)
    session = Session(match, ["plain:hard", "plain:normal"], 5)
    session.run()
    view = session.view(0)
    assert list(view.wins) == [2, 0]
    assert SpitLive().standings(view, match).lines(labels) == [
        f"Game over: you win ({view.ending.replace('_', ' ')}).",
        "Standings after 2 games:",
        "  seat 0  you                    2 games won",
        "  seat 1  Player 1 (plain:easy)  0 games won",
    ]
    # A guard ending has no winner, and the game it cut short does not count.
    short = load_game("spit", max_virtual_ms=5_000)
    session = Session(short, [None, None], 8)
    session.advance_to(6_000)
    lines = SpitLive().standings(session.view(0), short).lines(labels)
    assert lines[:2] == [
        "Game over: nobody wins (time limit).",
        "Standings after 0 games (the unfinished game does not count):",
    ]
    assert "nobody wins (time limit)" in SpitLive().render(session.view(0), short, Marks()).plain
    # Speed with scoring: deals won and points.
    speed = load_game("speed", scoring=True)
    session = Session(speed, ["plain:hard", "plain:normal"], 5)
    session.run()
    view = session.view(0)
    assert SpeedLive().standings(view, speed).lines(labels) == [
        f"Game over: you win ({view.ending}).",
        f"Standings after {view.deal + 1} deals:",
        f"  seat 0  you                    {view.deal_wins[0]} deals won, {view.scores[0]} points",
        f"  seat 1  Player 1 (plain:easy)  {view.deal_wins[1]} deals won, 0 points",
    ]
    session = Session(load_game("speed"), [None, "plain:easy"], 8)
    session.advance_to(3_000)
    assert SpeedLive().standings(session.view(0), load_game("speed")).lines(labels)[0] == (
        "Standings after 0 deals (the unfinished deal does not count):"
    )


def test_without_colour_the_screen_drops_every_colour_and_keeps_bold() -> None:
    from rich.segment import Segment
    from rich.style import Style
    from textual.color import Color
    from textual.filter import Monochrome

    from cardtable.cli.live_app import Colourless

    app, _clock, _records = live_app("spit", [None, "plain:easy"])
    assert not any(isinstance(f, Colourless) for f in app.get_line_filters())
    app.color = False
    filters = app.get_line_filters()
    assert any(isinstance(f, Colourless) for f in filters)
    assert not any(isinstance(f, Monochrome) for f in filters)
    (segment,) = Colourless().apply(
        [Segment("7♥", Style.parse("bold red on yellow"))], Color(0, 0, 0)
    )
    assert segment.style == Style(bold=True)


def test_the_clock_on_the_status_line_stops_with_the_game() -> None:
    async def play() -> None:
        app, clock, _records = live_app("speed", ["plain:instant", "plain:instant"])
        async with app.run_test(size=(100, 24)) as pilot:
            await pilot.pause()
            clock.t += 4_000
            await pilot.pause(0.05)
            assert app.session.is_over()
            ended = f"{app.session.now / 1000:6.1f} s"
            assert ended in text_of(app, "#status")
            clock.t += 60
            await pilot.pause(0.05)
            assert ended in text_of(app, "#status")
            await pilot.press("escape")

    asyncio.run(play())
