"""The card table's shell: the one Textual app of every game. It draws the
header (the game, the opponents, where the match stands), a message line
and the keys that matter now, and holds one game's board
(:mod:`.boards`). Its own keys: ``?`` the help (the engine's rules in play
with their IDs, the variants in force, the table's keys; a live clock
stops while it is open), ``n`` a new game (the new-game screen: game,
players, levels, rule options), the board's quit keys (``q`` or Esc; asks
first while a game is under way), Ctrl-C (leaves at once, exit 130).

A window smaller than the board needs shows one line asking for more room
and the game waits. With ``NO_COLOR``, ``TERM=dumb`` or ``--no-color``
the screen writes no colour at all (bold and the like stay).
"""

from __future__ import annotations

import asyncio
import contextlib
import signal
import time
from collections.abc import Callable, Sequence
from typing import Any

from rich.segment import Segment
from rich.text import Text
from textual.app import App, ComposeResult
from textual.color import Color
from textual.containers import Container
from textual.events import Key, Resize
from textual.filter import LineFilter, Monochrome
from textual.geometry import Size
from textual.widgets import Static

from cardtable.cli.app.boards import Board, Hooks, key_line
from cardtable.cli.app.screens import ConfirmScreen, HelpScreen, NewGameScreen
from cardtable.cli.app.settings import Settings
from cardtable.cli.finished import History
from cardtable.cli.game_options import rule_differences
from cardtable.cli.presenters import PRESENTERS
from cardtable.games import Game

MESSAGE_SECONDS = 3.0
KEY_NAMES = {"escape": "Esc", "backspace": "Backspace", " ": "space"}


def key_name(key: str) -> str:
    return KEY_NAMES.get(key, key)


class Colourless(LineFilter):
    """Drops every colour, keeping bold, underline and the like: with
    ``NO_COLOR`` or ``TERM=dumb`` the screen writes no colour codes at all
    (Textual's own ``NO_COLOR`` filter only turns them grey)."""

    def apply(self, segments: list[Segment], background: Color) -> list[Segment]:
        return [
            Segment(text, None if style is None else style.without_color, control)
            for text, style, control in segments
        ]


def make_board(settings: Settings, game: Game, hooks: Hooks, clock: Callable[[], float]) -> Board:
    """The board of ``settings.game``: its presenter's live screen or turn layout."""
    presenter = PRESENTERS[settings.game]
    if presenter.live is not None:
        from cardtable.cli.app.live import LiveBoard

        return LiveBoard(settings, game, hooks, presenter.live(game), clock=clock)
    assert presenter.layout is not None
    from cardtable.cli.app.turns import TurnBoard

    return TurnBoard(settings, game, hooks, presenter.layout(game))


class CardTable(App[None]):
    """Every game's table: one match at a time, a new one with ``n``."""

    CSS = """
    Screen { overflow: hidden; }
    #header { height: 1; background: $boost; padding: 0 1; text-wrap: nowrap;
        text-overflow: ellipsis; }
    #body { height: 1fr; }
    #message { height: 1; padding: 0 1; color: $warning; text-wrap: nowrap;
        text-overflow: ellipsis; }
    #keys { dock: bottom; height: 1; background: $boost; padding: 0 1; text-wrap: nowrap;
        text-overflow: ellipsis; }
    #small { display: none; width: 100%; height: 100%; content-align: center middle;
        text-align: center; }
    """
    # No command palette: its quit and its key (ctrl+p) would be a way out
    # and a way in that the screen does not name.
    ENABLE_COMMAND_PALETTE = False

    def __init__(
        self,
        settings: Settings,
        *,
        record: Callable[[str], None] | None = None,
        history: History | None = None,
        color: bool | None = None,
        clock: Callable[[], float] = time.monotonic,
        boards: Callable[[Settings, Game, Hooks], Board] | None = None,
    ) -> None:
        super().__init__()
        self.settings = settings
        self.color = color
        self.colourless = Colourless()
        self.clock = clock
        self.hooks = Hooks(self.say, self.draw_chrome, record, history)
        # The first match's board, made now so that it can be looked at
        # before the screen runs (tests give their own maker).
        game = settings.build()
        make = boards or (lambda s, g, h: make_board(s, g, h, clock))
        self.board: Board | None = make(settings, game, self.hooks)
        self.window: Size | None = None
        self.too_small = False
        self.message_timer: Any = None
        self.interrupted = False

    def get_line_filters(self) -> Sequence[LineFilter]:
        filters = super().get_line_filters()
        if self.color is not False:
            return filters
        return [*(f for f in filters if not isinstance(f, Monochrome)), self.colourless]

    def compose(self) -> ComposeResult:
        yield Static(id="header")
        yield Container(id="body")
        yield Static(id="message")
        yield Static(id="keys")
        yield Static(id="small")

    async def on_mount(self) -> None:
        # Textual reads Ctrl-C at the keyboard as a key; a SIGINT from
        # elsewhere (kill -INT) ends the game the same way.
        with contextlib.suppress(NotImplementedError, RuntimeError, ValueError):
            asyncio.get_running_loop().add_signal_handler(signal.SIGINT, self.interrupt)
        assert self.board is not None
        await self.show_board(self.board)

    async def start(self, settings: Settings) -> None:
        """A new match with ``settings``: a new board in the body."""
        self.settings = settings
        await self.show_board(make_board(settings, settings.build(), self.hooks, self.clock))

    async def show_board(self, board: Board) -> None:
        body = self.query_one("#body", Container)
        await body.remove_children()
        self.board = board
        await body.mount(board)
        self.too_small = False
        self.fit_window()
        self.draw_chrome()

    # --- the chrome ------------------------------------------------------------------

    def draw_chrome(self) -> None:
        board = self.board
        if board is None or not board.is_mounted:
            return
        header = Text(f"{self.settings.title}", style="bold")
        header.append(f" · you vs {board.opponents()}")
        status = board.status()
        if status:
            header.append(f" · {status}")
        self.query_one("#header", Static).update(header)
        hints = board.hints()
        named = {word for keys, _ in hints for word in keys.split()}
        quits = [k for k in self.quit_names().split() if k not in named]
        own = [("?", "help"), ("n", "new game")]
        if quits:  # (Esc cancels a choice while one is open: it quits after)
            own.append((" ".join(quits), "quit"))
        pairs = [*hints, *own]
        width = (self.window or self.size).width - 2
        while len(pairs) > len(own) and len(key_line(pairs)) > width:
            pairs.pop(len(pairs) - len(own) - 1)
        self.query_one("#keys", Static).update(key_line(pairs))

    def quit_names(self) -> str:
        assert self.board is not None
        keys = sorted(self.board.quit_keys(), key=lambda k: (len(k), k))
        return " ".join(key_name(k) for k in keys)

    def say(self, text: str, bell: bool = False, seconds: float = MESSAGE_SECONDS) -> None:
        """A message under the table for a few seconds (``seconds=0``: until replaced)."""
        message = self.query_one("#message", Static)
        message.update(text)
        if bell:
            self.bell()
        if self.message_timer is not None:
            self.message_timer.stop()
            self.message_timer = None
        if seconds and text:
            self.message_timer = self.set_timer(seconds, lambda: message.update(""))

    # --- the window ----------------------------------------------------------------------

    def on_resize(self, event: Resize) -> None:
        # (Called before the app takes the new size itself.)
        self.fit_window(event.size)

    def fit_window(self, size: Size | None = None) -> None:
        """Below the board's minimum the table would not fit: the screen asks
        for a larger window instead, and the game waits for it."""
        if self.board is None:
            return
        need_w, need_h = self.board.min_size
        self.window = size or self.window or self.size
        width, height = self.window
        small = width < need_w or height < need_h
        if small != self.too_small:
            (self.board.pause if small else self.board.resume)()
        self.too_small = small
        guard = self.query_one("#small", Static)
        guard.display = small
        for widget in ("#header", "#body", "#message", "#keys"):
            self.query_one(widget).display = not small
        if small:
            guard.update(
                f"Enlarge the window: {self.settings.title} needs {need_w}x{need_h}, "
                f"this one is {width}x{height}.\nThe game waits. {self.quit_names()} quits."
            )
        elif hasattr(self.board, "redraw"):
            self.board.call_after_refresh(self.board.redraw)

    # --- keys ------------------------------------------------------------------------------

    def on_key(self, event: Key) -> None:
        if len(self.screen_stack) > 1 or self.board is None:
            return
        key = event.character if event.character and event.character.isprintable() else event.key
        event.stop()
        if event.key == "ctrl+c":
            self.interrupt()
            return
        board = self.board
        if self.too_small:
            if key in board.quit_keys() or event.key in board.quit_keys():
                self.ask_quit()
            else:
                self.bell()
            return
        if key == "?":
            self.show_help()
            return
        if board.key(key):
            self.draw_chrome()
            return
        if key in board.quit_keys() or event.key in board.quit_keys():
            self.ask_quit()
            return
        if key == "n":
            self.ask_new_game()
            return
        self.say(f"{key_name(key)}: not a key here (? shows them)", bell=True)

    async def action_quit(self) -> None:
        """Textual's ctrl+q: a quit like the others."""
        self.ask_quit()

    def ask(self, question: str, then: Callable[[], Any]) -> None:
        """A yes/no question; ``then`` on yes. The board waits meanwhile."""
        assert self.board is not None
        board = self.board
        board.pause()

        def answer(yes: bool | None) -> None:
            board.resume()
            if yes:
                result = then()
                if asyncio.iscoroutine(result):
                    self.run_worker(result)

        self.push_screen(ConfirmScreen(question), answer)

    def ask_quit(self) -> None:
        assert self.board is not None
        if self.board.in_game():
            self.ask("Quit? The game under way does not count.", self.finish)
        else:
            self.finish()

    def ask_new_game(self) -> None:
        assert self.board is not None
        if self.board.in_game():
            self.ask("Leave the game under way for a new one?", self.new_game)
        else:
            self.new_game()

    def new_game(self) -> None:
        assert self.board is not None
        board = self.board
        board.pause()

        async def chosen(settings: Settings | None) -> None:
            if settings is None:
                board.resume()
                return
            board.abandon()
            await self.start(settings)

        self.push_screen(NewGameScreen(self.settings), chosen)

    def show_help(self) -> None:
        assert self.board is not None
        board = self.board
        board.pause()
        self.push_screen(HelpScreen(self.help_text()), lambda _: board.resume())

    def help_text(self) -> Text:
        """The rules in play in the engine's words (each under its rule ID),
        the variants in force, what the table asks now, and every key."""
        assert self.board is not None
        game = self.board.game
        out = Text()
        out.append(f"{self.settings.title}: the rules in play\n", style="bold underline")
        for title, rule, text in game.rules_summary():
            out.append(f"{title} ({rule}): ", style="bold")
            out.append(f"{text}\n")
        diffs = rule_differences(game)
        out.append("\nVariants in force: ", style="bold")
        if diffs:
            out.append("\n")
            for flag, value, text in diffs:
                out.append(f"  {flag} {value}: {text}\n")
        else:
            out.append("none, the defaults\n")
        notes = self.board.help_notes()
        if notes:
            out.append("\n")
            for line in notes:
                out.append(f"{line}\n")
        out.append("\nKeys\n", style="bold underline")
        pairs = [
            *self.board.help_keys(),
            ("?", "this help (a live clock stops while it is open)"),
            ("n", "a new game: game, players, levels, rules"),
            (self.quit_names(), "quit (asks first during a game); Ctrl-C leaves at once"),
        ]
        width = max(len(k) for k, _ in pairs)
        for key, what in pairs:
            out.append(f"  {key:>{width}}", style="bold")
            out.append(f"  {what}\n")
        out.append("\nRule IDs refer to docs/rules.md (gin rummy: docs/gin_rummy.md). ")
        out.append("Esc, ? or Enter closes this help.", style="italic")
        return out

    # --- leaving -----------------------------------------------------------------------

    def interrupt(self) -> None:
        """Ctrl-C: leaves as on a quit, but ``play`` exits 130."""
        self.interrupted = True
        self.finish()

    def finish(self) -> None:
        if self.board is not None:
            self.board.abandon()
        self.exit()

    def standings(self) -> list[str]:
        """Where the match stands, for after the screen has closed."""
        return self.board.standings() if self.board is not None else []
