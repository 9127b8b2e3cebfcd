"""The live board of the card table (``cardtable.cli.app.live``) driven
headless by Textual's pilot, with a fake clock: keys in, screen text and
session out. The first game here is Tonk on the virtual clock with a test
key map (digits pick a legal move), so the board is checked apart from any
one game's presenter."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from typing import Any

import pytest
from rich.text import Text

from cardtable.cli.live import QUIT_KEYS, Choice, Standings, keys_text, won
from cardtable.games import Game, Session, load_game, replay_record
from cardtable.tables import Marks

from .app_harness import help_shown, live, live_app, screen_lines, text_of


class DigitKeys:
    title = "Tonk"
    keys: Sequence[tuple[str, str]] = (("1-9", "the legal move of that number"),)
    min_size = (40, 10)
    quit_keys = QUIT_KEYS

    def render(self, view: Any, game: Game, marks: Marks) -> str:
        moves = [game.action_to_string(a) for a in view.legal_actions]
        return f"hand {' '.join(str(c) for c in view.hand)} | moves {', '.join(moves) or '-'}"

    def action_for(
        self, key: str, view: Any, game: Game, legal: Sequence[int]
    ) -> int | str | Choice | None:
        if not key.isdigit():
            return None
        legal = view.legal_actions
        k = int(key) - 1
        return legal[k] if 0 <= k < len(legal) else f"no move {key} now"

    def choice(self, view: Any, game: Game, legal: Sequence[int]) -> None:
        return None

    def cancel(self) -> None:
        pass

    def hint(self, view: Any, game: Game, legal: Sequence[int]) -> list[tuple[str, str]]:
        return [("1-9", "move")]

    def describe(self, action: int, seat: int, view: Any, game: Game) -> str:
        return game.action_to_string(action)

    def tell(self, commits: Sequence[tuple[int, int, bool]], view: Any, game: Game) -> list[str]:
        return [game.action_to_string(a) for _seat, a, _bounced in commits]

    def refusal(self, action: int, seat: int, state: Any) -> tuple[str, str] | None:
        return None

    def standings(self, view: Any, game: Game) -> Standings:
        return Standings("hand", 0, True, (won(0, "hand"), won(0, "hand")))


def test_a_whole_game_by_keys_with_pause_help_bad_keys_and_a_saved_record() -> None:
    async def play() -> None:
        app, clock, records = live_app("tonk", [None, "greedy"], 21, DigitKeys(), "greedy")
        board = live(app)
        session = board.session
        async with app.run_test(size=(100, 20)) as pilot:
            await pilot.pause()
            assert "Tonk · you vs greedy" in text_of(app, "#header")
            await pilot.press("z")
            assert "z: not a key here" in text_of(app, "#message")
            # The help stops the clock while it is open, and tells the keys.
            await pilot.press("?")
            assert help_shown(app)
            assert "the legal move of that number" in text_of(app, "#help")
            frozen = board.virtual_now()
            clock.t += 30
            await pilot.pause(0.05)
            assert board.virtual_now() == frozen
            await pilot.press("?")
            assert not help_shown(app)
            # Paused, the virtual clock stands still whatever the wall clock does.
            await pilot.press("p")
            frozen = board.virtual_now()
            clock.t += 30
            await pilot.pause(0.05)
            assert board.virtual_now() == frozen
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
            assert "game over" in text_of(app, "#header")
            await pilot.press("q")
        assert [e[1] for e in session.log()].count(0) > 0
        assert len(records) == 1
        assert replay_record(records[0]).fingerprint() == session.state.fingerprint()

    asyncio.run(play())


def test_spit_and_speed_live_screens_play_on_their_keys_and_quit_on_escape_after_a_yes() -> None:
    for name in ("spit", "speed"):

        async def play(name: str = name) -> None:
            app, clock, records = live_app(name, [None, "plain:easy"])
            board = live(app)
            session = board.session
            async with app.run_test(size=(100, 24)) as pilot:
                await pilot.pause()
                clock.t += 2.0  # past the countdown
                await pilot.pause(0.05)
                assert "you" in text_of(app, "#table")
                await pilot.press("?")
                assert "onto the left" in text_of(app, "#help")
                assert "Goal (S" in text_of(app, "#help")  # the rules in play (SP-, SD-)
                await pilot.press("escape")
                assert not help_shown(app)
                # Every play key: each either lands, bounces or says why not.
                for key in "qwertasdfg":
                    await pilot.press(key)
                    clock.t += 0.4
                    await pilot.pause(0.02)
                assert any(seat == 0 for _at, seat, *_ in session.log())
                await pilot.press("q")  # a play key here, not quit
                assert app.is_running
                await pilot.press("escape")  # quit? asks first
                assert app.is_running
                await pilot.press("n")
                assert app.is_running
                await pilot.press("escape", "y")
                await pilot.pause()
                assert not app.is_running
            assert len(records) == 1, name
            assert replay_record(records[0]).fingerprint() == session.state.fingerprint()

        asyncio.run(play())


def styles_of(text: Any) -> set[str]:
    return {str(span.style) for span in text.spans}


def test_a_bounced_card_is_highlighted_for_a_moment_and_the_telegraph_marks_the_bots_card() -> None:
    from cardtable.cli.live import FLASH_SECONDS
    from cardtable.games import load_game
    from cardtable.tables import BOUNCE_STYLE, INCOMING_STYLE

    game = load_game("spit")
    play_first = game.string_to_action("play 1 L")
    app, clock, _records = live_app("spit", [None, "plain:easy"])
    board = live(app)
    board.telegraph = True
    session = board.session

    async def play() -> None:
        async with app.run_test(size=(100, 24)) as pilot:
            await pilot.pause()
            # A key refuses what the rules refuse; an intent that was legal
            # when sent can still bounce when it lands (RT-5): here one sent
            # in the countdown.
            assert session.submit(0, play_first, board.virtual_now())
            clock.t += 0.05
            await pilot.pause(0.05)
            assert session.log()[-1][1:] == (0, play_first, True)
            assert board.marks().bounced == {play_first}
            card = session.view(0).piles[0][0][1][-1].symbol()
            message = text_of(app, "#message")
            assert message.startswith(f"bounced: {card} onto L: "), message
            assert message.endswith("(SP-1.3)"), message
            assert f"you: {card} onto L (bounced)" in text_of(app, "#ticker")
            table = board.presenter.render(session.view(0), game, board.marks())
            assert BOUNCE_STYLE in styles_of(table)
            clock.t += FLASH_SECONDS + 0.1
            assert board.marks().bounced == frozenset()
            # The easy bot's card on its way is marked while it travels.
            for _ in range(200):
                clock.t += 0.05
                await pilot.pause(0.01)
                if board.marks().incoming:
                    break
            flying = board.marks().incoming
            assert flying
            assert list(flying) == [a for _at, seat, a in session.in_flight() if seat == 1]
            table = board.presenter.render(session.view(0), game, board.marks())
            assert INCOMING_STYLE in styles_of(table)
            assert "telegraph" in text_of(app, "#header")
            await pilot.press("escape", "y")

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
        column = lines[your_row][6 + 7 * p : 6 + 7 * (p + 1)]
        assert (up[-1].symbol() if up else "▒▒" if down else "··") in column


def test_the_game_over_screen_quits_on_q_and_on_escape_at_once_with_the_standings() -> None:
    # Both seats are bots here (seat 0 too), so the game ends by itself.
    for name in ("spit", "speed"):
        for key in ("q", "escape"):

            async def play(name: str = name, key: str = key) -> None:
                app, clock, records = live_app(
                    name, ["plain:instant", "plain:instant"], opponent="plain:instant"
                )
                board = live(app)
                async with app.run_test(size=(100, 24)) as pilot:
                    await pilot.pause()
                    clock.t += 4_000
                    await pilot.pause(0.05)
                    assert board.session.is_over(), name
                    assert "game over" in text_of(app, "#header")
                    # Nothing is left to play: q quits as well as Esc, Enter deals again.
                    assert text_of(app, "#keys") == (
                        "Enter another game · ? help · n new game · q Esc quit"
                    )
                    await pilot.press("p")  # nothing to pause: it says how to go on
                    assert "the game is over: Enter plays another, q or Esc quits" in (
                        text_of(app, "#message")
                    )
                    await pilot.press(key)  # no question: no game is under way
                    await pilot.pause()
                    assert not app.is_running, (name, key)
                assert not app.interrupted
                assert len(records) == 1
                lines = app.standings()
                assert lines[0].startswith("Game over: "), lines
                unit = "game" if name == "spit" else "deal"
                assert lines[1] == f"Standings after 1 {unit}:", lines
                assert "Player 1 (plain:instant)" in lines[3]

            asyncio.run(play())


def test_enter_after_a_game_deals_another_with_the_same_settings() -> None:
    async def play() -> None:
        app, clock, records = live_app(
            "spit", ["plain:instant", "plain:instant"], opponent="plain:instant"
        )
        board = live(app)
        async with app.run_test(size=(100, 24)) as pilot:
            await pilot.pause()
            clock.t += 4_000
            await pilot.pause(0.05)
            first = board.session
            assert first.is_over()
            await pilot.press("enter")
            assert board.session is not first
            assert not board.session.is_over()
            assert "game 2" in text_of(app, "#header")
            clock.t += 4_000
            await pilot.pause(0.05)
            assert board.session.is_over()
            await pilot.press("q")
        assert len(records) == 2
        assert records[0] != records[1]  # another deal (a seed derived from the first)

    asyncio.run(play())


def test_a_game_whose_quit_keys_include_q_names_q_and_esc_at_game_over() -> None:
    for key in ("q", "escape"):

        async def play(key: str = key) -> None:
            app, clock, _ = live_app("tonk", ["greedy", "greedy"], 4, DigitKeys(), "greedy")
            board = live(app)
            async with app.run_test(size=(100, 20)) as pilot:
                await pilot.pause()
                clock.t += 600
                await pilot.pause(0.05)
                assert board.session.is_over()
                assert text_of(app, "#keys").endswith("q Esc quit")
                await pilot.press(key)
                await pilot.pause()
                assert not app.is_running

        asyncio.run(play())


def test_ctrl_c_leaves_at_once_as_an_interruption_and_ctrl_q_asks_as_a_quit() -> None:
    # (A real SIGINT: tests/test_cli_live_terminal.py.)
    for name in ("spit", "speed"):
        for key in ("ctrl+c", "ctrl+q"):

            async def play(name: str = name, key: str = key) -> None:
                app, clock, records = live_app(name, [None, "plain:easy"])
                board = live(app)
                async with app.run_test(size=(100, 24)) as pilot:
                    await pilot.pause()
                    clock.t += 2.0
                    await pilot.press("q", "a")  # a card or two on the way
                    await pilot.press(key)
                    if key == "ctrl+q":
                        await pilot.press("y")
                    await pilot.pause()
                    assert not app.is_running, (name, key)
                assert app.interrupted == (key == "ctrl+c"), (name, key)
                assert len(records) == 1
                fingerprint = board.session.state.fingerprint()
                assert replay_record(records[0]).fingerprint() == fingerprint
                board.abandon()  # once only, however often asked
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
    # RT-12: the time limit decides the deal in play, which then counts.
    short = load_game("speed", max_virtual_ms=4_000)
    session = Session(short, [None, "plain:instant"], 3)
    session.advance_to(5_000)
    assert SpeedLive().standings(session.view(0), short).lines(labels) == [
        "Game over: the bot wins (time limit).",
        "Standings after 1 deal:",
        "  seat 0  you                    0 deals won",
        "  seat 1  Player 1 (plain:easy)  1 deal won",
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

    from cardtable.cli.app.shell import Colourless

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
        board = live(app)
        async with app.run_test(size=(100, 24)) as pilot:
            await pilot.pause()
            clock.t += 4_000
            await pilot.pause(0.05)
            assert board.session.is_over()
            ended = f"{board.session.now / 1000:6.1f} s"
            assert ended in text_of(app, "#header")
            clock.t += 60
            await pilot.pause(0.05)
            assert ended in text_of(app, "#header")
            await pilot.press("escape")

    asyncio.run(play())


def test_below_its_minimum_size_the_screen_asks_for_a_larger_window_and_the_game_waits() -> None:
    async def play() -> None:
        app, clock, _records = live_app("spit", [None, "plain:instant"])
        board = live(app)
        async with app.run_test(size=(59, 20)) as pilot:
            await pilot.pause()
            shown = "\n".join(screen_lines(app))
            assert "Enlarge the window:" in shown
            assert "Spit needs 60x20, this one is 59x20." in shown
            assert "The game waits. Esc quits." in shown
            assert "spit cards" not in shown  # no table, wrapped or not
            # The game waits: the clock stands still and no key plays.
            frozen = board.virtual_now()
            clock.t += 30
            await pilot.press("q", "a", "p", "?")
            await pilot.pause(0.05)
            assert board.virtual_now() == frozen
            assert board.session.log() == []
            assert not board.paused
            assert not help_shown(app)
            # It recovers when the window grows, and asks again when it shrinks.
            await pilot.resize_terminal(60, 20)
            await pilot.pause(0.05)
            shown = "\n".join(screen_lines(app))
            assert "Enlarge" not in shown
            assert "spit cards" in shown
            clock.t += 2
            await pilot.pause(0.05)
            assert board.virtual_now() == frozen + 2000
            await pilot.resize_terminal(80, 19)
            await pilot.pause(0.05)
            assert "Spit needs 60x20, this one is 80x19." in "\n".join(screen_lines(app))
            await pilot.resize_terminal(80, 24)
            await pilot.pause(0.05)
            assert "spit cards" in "\n".join(screen_lines(app))
            await pilot.press("escape", "y")
            await pilot.pause()
            assert not app.is_running

    asyncio.run(play())


def test_at_its_minimum_size_every_line_of_the_screen_is_whole() -> None:
    """At 60x20, with the help shown or the table, during play and after
    it, every line of the table, the header and the bottom line is on the
    screen in one piece, and nothing scrolls."""
    for name in ("spit", "speed"):

        async def play(name: str = name) -> None:
            options: dict[str, Any] = {"jokers": True} if name == "speed" else {}
            app, clock, _records = live_app(name, [None, "plain:instant"], **options)
            board = live(app)
            board.telegraph = True
            async with app.run_test(size=board.min_size) as pilot:
                for step in range(12):
                    clock.t += 1.0
                    board.tick()
                    if step % 3 == 0:
                        await pilot.press("?")  # the help; the next ? closes it
                    if not help_shown(app):
                        await pilot.press("q")  # a message under the table
                    await pilot.pause(0.02)
                    shown = screen_lines(app)
                    assert len(shown) == 20
                    if help_shown(app):
                        continue  # the help scrolls, the table waits under it
                    view = board.session.view(0)
                    table = board.presenter.render(view, board.game, board.marks())
                    for part in (str(table), text_of(app, "#keys")):
                        for line in part.splitlines():
                            assert any(line.strip() in s for s in shown), (line, shown)
                    assert shown[-1].strip() == text_of(app, "#keys")
                await pilot.press("ctrl+c")

        asyncio.run(play())


def test_the_tables_fit_the_minimum_size_in_every_state_of_many_games() -> None:
    """The presenters' tables stay within the screen's minimum: as many
    columns as the window less its padding, and the lines the layout has
    for them (Spit 8, Speed 7), whatever the piles hold."""
    from cardtable.cli.presenters import PRESENTERS
    from cardtable.games import load_game

    for name, lines, options in (
        ("spit", 8, {}),
        ("spit", 8, {"stack_equal_ranks": True, "match_games": 3}),
        ("speed", 7, {"jokers": True}),
        ("speed", 7, {"jokers": True, "side_pile_size": 5, "auto_draw": False}),
    ):
        live = PRESENTERS[name].live
        assert live is not None
        game = load_game(name, **options)
        presenter = live(game)
        width = presenter.min_size[0] - 2
        help_lines = keys_text([*presenter.keys, ("p", "pause (the clock stops)")])
        assert max(len(line) for line in help_lines.splitlines()) <= width
        for seed in range(4):
            session = Session(game, ["plain:hard", "plain:normal"], seed)
            t = 0
            while not session.is_over():
                t += 300
                session.advance_to(t)
                flying = tuple(a for _at, seat, a in session.in_flight() if seat == 1)
                table = presenter.render(session.view(0), game, Marks(incoming=flying))
                assert isinstance(table, Text)
                assert len(table.plain.splitlines()) <= lines, table.plain
                assert max(line.cell_len for line in table.split("\n")) <= width, table.plain


def useful_key(keys: str, board: Any, session: Session) -> str | None:
    """The first of ``keys`` that moves a card usefully now, as a quick
    player would press it: a play, flip, slap or spit before a move to a
    space, and a move only when it uncovers something (SP-3.1 c). Moving a
    lone card from slot to slot is never a stalemate's way out, and pressed
    forever it would keep the game from ending."""
    view = session.view(0)
    legal = session.legal_actions(0)
    moves = []
    for key in keys:
        action = board.presenter.action_for(key, view, board.game, legal)
        if action not in legal:
            continue
        info = session.state.describe_action(action, seat=0)
        if info.kind != "move":
            return key
        down, up = view.piles[0][info.source]
        if down or len(up) > 1:
            moves.append(key)
    return moves[0] if moves else None


@pytest.mark.parametrize("name", ["spit", "speed"])
def test_spit_and_speed_are_played_to_their_end_by_keys(name: str) -> None:
    """The person at seat 0 plays every card by keys (a key that moves a
    card now, as a quick player would press) until the game ends by its
    rules; the history and --record keep it."""
    keys = {"spit": "qwertasdfgzxcvbhl ", "speed": "qwertasdfg "}[name]
    app, clock, records = live_app(name, [None, "plain:easy"], 3)
    board = live(app)
    session = board.session

    async def play() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            for _ in range(3000):
                if session.is_over():
                    break
                key = useful_key(keys, board, session)
                if key is not None:
                    await pilot.press("space" if key == " " else key)
                clock.t += 0.25
                board.tick()
                await pilot.pause(0)
            assert session.is_over()
            await pilot.pause(0.05)
            assert "game over" in text_of(app, "#header")
            await pilot.press("q")

    asyncio.run(play())
    assert session.state.ending_category not in load_game(name).guard_endings()
    assert any(seat == 0 for _at, seat, *_ in session.log())
    assert len(records) == 1
    assert replay_record(records[0]).fingerprint() == session.state.fingerprint()
