"""The card table app driven headless by Textual's pilot, with a fake
clock: the shell over one game's board, and what the screen shows."""

from __future__ import annotations

import io
from collections.abc import Callable, Sequence
from typing import Any

from rich.console import Console
from textual.pilot import Pilot
from textual.widgets import Static

from cardtable.cli.app.boards import Board, Hooks
from cardtable.cli.app.live import LiveBoard
from cardtable.cli.app.screens import ConfirmScreen, HelpScreen
from cardtable.cli.app.settings import Opponent, Settings
from cardtable.cli.app.shell import CardTable
from cardtable.cli.app.turns import HandView, MoveList, TurnBoard
from cardtable.cli.finished import History
from cardtable.cli.live import LivePresenter
from cardtable.cli.presenters import PRESENTERS
from cardtable.games import Bot, Game, load_game


class Clock:
    def __init__(self) -> None:
        self.t = 100.0

    def __call__(self) -> float:
        return self.t


def live_app(
    name: str,
    seats: Sequence[str | None],
    seed: int = 8,
    presenter: LivePresenter | None = None,
    opponent: str = "plain:easy",
    **options: Any,
) -> tuple[CardTable, Clock, list[str]]:
    """The card table over a live game of ``name``: ``seats`` play the
    session (None: the keyboard), ``opponent`` is what the header names."""
    clock = Clock()
    records: list[str] = []
    settings = Settings(name, options, (Opponent(opponent),), seed)

    def board(settings: Settings, game: Game, hooks: Hooks) -> Board:
        live = presenter
        if live is None:
            make = PRESENTERS[name].live
            assert make is not None
            live = make(game)
        return LiveBoard(settings, game, hooks, live, clock=clock, seats=seats)

    app = CardTable(settings, record=records.append, clock=clock, boards=board)
    return app, clock, records


def live(app: CardTable) -> LiveBoard:
    assert isinstance(app.board, LiveBoard)
    return app.board


IDS = {"#status": "#header", "#hint": "#keys"}


def text_of(app: CardTable, widget: str) -> str:
    """A widget's text: ``#header``, ``#message``, ``#keys``, ``#table``,
    ``#ticker`` (the old live screen's ``#status`` and ``#hint`` too), or
    ``#help``, the help screen's."""
    if widget == "#help":
        assert isinstance(app.screen, HelpScreen)
        return str(app.screen.query_one("#help", Static).render())
    return str(app.query_one(IDS.get(widget, widget), Static).render())


def help_shown(app: CardTable) -> bool:
    return isinstance(app.screen, HelpScreen)


def screen_lines(app: CardTable) -> list[str]:
    """What the terminal shows, line by line."""
    return [strip.text for strip in app.screen._compositor.render_strips()]


def screen_text(app: CardTable) -> str:
    """The whole screen as text, as a terminal shows it (no styles)."""
    width, height = app.size
    console = Console(
        width=width,
        height=height,
        file=io.StringIO(),
        force_terminal=True,
        color_system="truecolor",
        record=True,
        legacy_windows=False,
        safe_box=False,
    )
    console.print(
        app.screen._compositor.render_update(full=True, screen_stack=app._background_screens)
    )
    return console.export_text(styles=False)


# --- the turn-based games ------------------------------------------------------------------


def turn_app(
    name: str,
    players: int = 2,
    seed: int = 5,
    level: str = "normal",
    options: dict[str, Any] | None = None,
    **kwargs: Any,
) -> CardTable:
    """The card table over a match of ``name`` (bots at once: no delay)."""
    given = dict(options or {})
    if "players" in {s.name for s in load_game(name).option_schema()}:
        given["players"] = players
    settings = Settings(name, given, tuple(Opponent(level) for _ in range(players - 1)), seed, 0.0)
    kwargs.setdefault("history", History(enabled=True))  # the test's own (conftest)
    return CardTable(settings, **kwargs)


def turns(app: CardTable) -> TurnBoard:
    assert isinstance(app.board, TurnBoard)
    return app.board


async def wait_for(pilot: Pilot[None], done: Callable[[], bool], seconds: float = 2.0) -> None:
    """Lets the app run until ``done()`` (a screen pushed or dismissed)."""
    for _ in range(int(seconds / 0.01)):
        if done():
            return
        await pilot.pause(0.01)
    assert done()


async def make_move(pilot: Pilot[None], app: CardTable, index: int, mouse: bool) -> None:
    """Makes move ``index`` of the list by its number, the arrows and Enter,
    or a click (and answers its question yes)."""
    board = turns(app)
    moves = board.list_widget()
    if mouse:
        move = board.shown[index]
        # The card first (a click narrows the list to its moves), then the move.
        if len(move.cards) == 1 and move.cards[0] in board.hand:
            hand = app.query_one(HandView)
            await pilot.click(HandView, offset=hand.card_offset(board.hand.index(move.cards[0])))
            index = next(i for i, m in enumerate(board.shown) if m == move)
        moves.scroll_to(y=index, animate=False)
        await pilot.pause()
        await pilot.click(MoveList, offset=(4, index - int(moves.scroll_y)))
    elif index < 9:
        await pilot.press(str(index + 1))
    else:
        for _ in range(index - (moves.highlighted or 0)):
            await pilot.press("down")
        await pilot.press("enter")
    await pilot.pause()
    if isinstance(app.screen, ConfirmScreen):
        if mouse:
            await pilot.click("#answers", offset=(2, 0))
        else:
            await pilot.press("y")
        await wait_for(pilot, lambda: not isinstance(app.screen, ConfirmScreen))


async def play_to_the_end(
    pilot: Pilot[None], app: CardTable, mouse: bool = False, limit: int = 4000
) -> int:
    """Seat 0 plays as a greedy bot would, by keys (or the mouse), until the
    game ends; returns the number of moves made."""
    board = turns(app)
    person = Bot(board.game, "greedy", 99)
    made = 0
    while not board.over:
        assert made < limit
        action = person.act(board.state)
        index = next(
            i for i, m in enumerate(board.shown) if m.actions[0] == action or m.then == action
        )
        await make_move(pilot, app, index, mouse)
        made += 1
    return made


def colours_on_screen(app: CardTable) -> list[str]:
    """The colours of what the screen shows (none under NO_COLOR)."""
    found = set()
    for strip in app.screen._compositor.render_strips():
        for segment in strip:
            style = segment.style
            if style is not None and (style.color is not None or style.bgcolor is not None):
                found.add(str(style))
    return sorted(found)
