"""The live screen: a Textual app over a real-time ``Session`` (see
:mod:`cardtable.cli.live` for what it shows and how keys become intents)."""

from __future__ import annotations

import asyncio
import contextlib
import signal
import time
from collections.abc import Callable, Sequence
from typing import Any

from rich.segment import Segment
from textual.app import App, ComposeResult
from textual.color import Color
from textual.events import Key
from textual.filter import LineFilter, Monochrome
from textual.widgets import Static

from cardtable.cli.live import (
    FLASH_SECONDS,
    HUMAN,
    INTERRUPT_KEY,
    LivePresenter,
    Marks,
    key_names,
)
from cardtable.games import Game, Session


class Colourless(LineFilter):
    """Drops every colour, keeping bold, underline and the like: with
    ``NO_COLOR`` or ``TERM=dumb`` the screen writes no colour codes at all
    (Textual's own ``NO_COLOR`` filter only turns them grey)."""

    def apply(self, segments: list[Segment], background: Color) -> list[Segment]:
        return [
            Segment(text, None if style is None else style.without_color, control)
            for text, style, control in segments
        ]


class LiveTable(App[None]):
    """One live game against the bots: seat 0 is the person at the keyboard."""

    CSS = """
    #status { background: $boost; padding: 0 1; }
    #table { padding: 1 1; }
    #ticker { padding: 0 1; color: $text-muted; }
    #message { padding: 0 1; color: $warning; }
    #help { padding: 0 1; color: $text-muted; }
    """
    # No command palette: its quit and its key (ctrl+p, next to ``p``) would
    # be a way out and a way in that the screen does not name.
    ENABLE_COMMAND_PALETTE = False

    def __init__(
        self,
        session: Session,
        presenter: LivePresenter,
        game: Game,
        *,
        opponents: str,
        record: Callable[[str], None] | None = None,
        clock: Callable[[], float] = time.monotonic,
        fps: int = 30,
        telegraph: bool = False,
        color: bool | None = None,
    ) -> None:
        super().__init__()
        self.color = color
        self.colourless = Colourless()
        self.session = session
        self.presenter = presenter
        self.game = game
        self.opponents = opponents
        self.save_record = record
        self.clock = clock
        self.fps = fps
        self.started = 0.0
        self.paused_at: float | None = None
        self.paused_total = 0.0
        self.telegraph = telegraph
        self.seen = 0  # commits already looked at for bounces
        self.bounces: dict[int, float] = {}  # action -> clock time its highlight ends
        self.show_help = False
        self.drawn: tuple[Any, ...] | None = None
        self.interrupted = False  # left by Ctrl-C (the key or the signal)
        self.saved = False

    def get_line_filters(self) -> Sequence[LineFilter]:
        filters = super().get_line_filters()
        if self.color is not False:
            return filters
        return [*(f for f in filters if not isinstance(f, Monochrome)), self.colourless]

    def compose(self) -> ComposeResult:
        yield Static(id="status")
        yield Static(id="table")
        yield Static(id="ticker")
        yield Static(id="message")
        yield Static(id="help")

    def on_mount(self) -> None:
        # Textual reads Ctrl-C at the keyboard as a key; a SIGINT from
        # elsewhere (kill -INT) ends the game the same way.
        # (Where it cannot, on Windows or off the main thread, Ctrl-C stays a key.)
        with contextlib.suppress(NotImplementedError, RuntimeError, ValueError):
            asyncio.get_running_loop().add_signal_handler(signal.SIGINT, self.interrupt)
        self.started = self.clock()
        self.set_interval(1 / self.fps, self.tick)
        self.redraw(force=True)

    # --- the clock ------------------------------------------------------------------

    def virtual_now(self) -> int:
        """Milliseconds of play since the start, pauses left out."""
        now = self.paused_at if self.paused_at is not None else self.clock()
        return max(0, int((now - self.started - self.paused_total) * 1000))

    def tick(self) -> None:
        if self.paused_at is None and not self.session.is_over():
            self.session.advance_to(self.virtual_now())
            self.check_bounces()
        self.redraw()

    def check_bounces(self) -> None:
        log = self.session.log()
        for _at, seat, action, bounced in log[self.seen :]:
            if bounced and seat == HUMAN:
                self.bounces[action] = self.clock() + FLASH_SECONDS
                self.flash(f"bounced: {self.game.action_to_string(action)} no longer fits")
        self.seen = len(log)

    def marks(self) -> Marks:
        now = self.clock()
        self.bounces = {a: end for a, end in self.bounces.items() if end > now}
        incoming: tuple[int, ...] = ()
        if self.telegraph:
            flying = self.session.in_flight()
            incoming = tuple(action for _at, seat, action in flying if seat != HUMAN)
        return Marks(bounced=frozenset(self.bounces), incoming=incoming)

    # --- drawing --------------------------------------------------------------------

    def redraw(self, force: bool = False) -> None:
        marks = self.marks()
        key = (len(self.session.log()), self.virtual_now() // 100, marks)
        if key == self.drawn and not force:
            return
        self.drawn = key
        seconds = self.virtual_now() / 1000
        state = "paused" if self.paused_at is not None else "live"
        if self.session.is_over():
            seconds = self.session.now / 1000  # the clock stopped with the game
            state = f"game over: {key_names(self.presenter.quit_keys)} quits"
        telegraph = "  (telegraph)" if self.telegraph else ""
        self.query_one("#status", Static).update(
            f"{self.presenter.title}  you vs {self.opponents}{telegraph}   {seconds:6.1f} s"
            f"   {state}   ? keys"
        )
        self.query_one("#table", Static).update(
            self.presenter.render(self.session.view(HUMAN), self.game, marks)
        )
        self.query_one("#ticker", Static).update(self.ticker())
        self.query_one("#help", Static).update(self.presenter.keys_help if self.show_help else "")

    def ticker(self, last: int = 3) -> str:
        """The latest happenings of the public channel (RT-10), newest last."""
        lines = []
        for event in self.session.events()[-last:]:
            if event["kind"] == "timer":
                what = f"now {str(event.get('phase') or 'on').replace('_', ' ')}"
            else:
                who = "you" if event.get("seat") == HUMAN else "bot"
                done = " (bounced)" if event["kind"] == "bounced" else ""
                what = f"{who}: {self.game.action_to_string(event.get('action', 0))}{done}"
            lines.append(f"{event['at'] / 1000:6.1f} s  {what}")
        return "\n".join(lines)

    def flash(self, text: str, bell: bool = False) -> None:
        message = self.query_one("#message", Static)
        message.update(text)
        if bell:
            self.bell()
        self.set_timer(FLASH_SECONDS, lambda: message.update(""))

    # --- keys -----------------------------------------------------------------------

    def on_key(self, event: Key) -> None:
        key = event.character if event.character and event.character.isprintable() else event.key
        event.stop()
        if event.key == INTERRUPT_KEY:
            self.interrupt()
            return
        if key in self.presenter.quit_keys or event.key in self.presenter.quit_keys:
            self.finish()
            return
        if key == "?":
            self.show_help = not self.show_help
            self.redraw(force=True)
            return
        if self.session.is_over():
            self.flash(f"the game is over: {key_names(self.presenter.quit_keys)} quits")
            return
        if key == "p":
            self.toggle_pause()
            return
        if self.paused_at is not None:
            self.flash("paused: p plays on")
            return
        now = self.virtual_now()
        self.session.advance_to(now)
        meaning = self.presenter.action_for(key, self.session.view(HUMAN), self.game)
        if meaning is None:
            self.flash(f"{key}: not a key of this game (? shows them)", bell=True)
        elif isinstance(meaning, str):
            self.flash(meaning, bell=True)
        elif not self.session.submit(HUMAN, meaning, now):
            self.flash("your hand is busy: wait for the card to land", bell=True)
        self.tick()

    def toggle_pause(self) -> None:
        if self.paused_at is None:
            self.paused_at = self.clock()
        else:
            self.paused_total += self.clock() - self.paused_at
            self.paused_at = None
        self.redraw(force=True)

    async def action_quit(self) -> None:
        """Textual's ctrl+q: a quit like the others (record and standings kept)."""
        self.finish()

    def interrupt(self) -> None:
        """Ctrl-C: the game ends as on a quit, but ``play`` exits 130."""
        self.finish(interrupted=True)

    def finish(self, interrupted: bool = False) -> None:
        self.interrupted = self.interrupted or interrupted
        self.keep_record()
        self.exit()

    def keep_record(self) -> None:
        """Saves the record (once), however the game ended."""
        if self.save_record is not None and not self.saved:
            self.saved = True
            self.save_record(self.session.to_record())

    def standings(self, labels: Sequence[str]) -> list[str]:
        """Where the game stands, for after the screen has closed."""
        return self.presenter.standings(self.session.view(HUMAN), self.game).lines(labels)
