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
from textual.events import Key, Resize
from textual.filter import LineFilter, Monochrome
from textual.geometry import Size
from textual.widgets import Static

from cardtable.cli.live import (
    FLASH_SECONDS,
    HUMAN,
    INTERRUPT_KEY,
    MESSAGE_SECONDS,
    OVER_QUIT_KEY,
    Choice,
    LivePresenter,
    hint_line,
    key_name,
    key_names,
    keys_text,
)
from cardtable.games import Game, Session
from cardtable.tables import Marks

TICKER_LINES = 3


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
    Screen { overflow: hidden; }
    #status { background: $boost; padding: 0 1; text-wrap: nowrap; text-overflow: ellipsis; }
    #table { padding: 1 1 0 1; text-wrap: nowrap; }
    #ticker { padding: 1 1 0 1; color: $text-muted; text-wrap: nowrap; text-overflow: ellipsis; }
    #help { padding: 1 1 0 1; color: $text-muted; text-wrap: nowrap; display: none; }
    #message { padding: 0 1; color: $warning; height: 2; }
    #hint {
        dock: bottom; background: $boost; padding: 0 1;
        text-wrap: nowrap; text-overflow: ellipsis;
    }
    #small {
        display: none; width: 100%; height: 100%;
        content-align: center middle; text-align: center;
    }
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
        self.telegraph = telegraph
        self.started = 0.0
        # The virtual clock stands still while paused or while the window
        # is too small to show the table (it waits to be enlarged).
        self.paused = False
        self.too_small = False
        self.stopped_at: float | None = None
        self.stopped_total = 0.0
        self.seen = 0  # events of the public channel already told
        self.last_event: tuple[int, int | None] = (0, None)  # commits, time of the last event
        self.story: list[str] = []  # the ticker's lines, oldest first
        self.bounces: dict[int, float] = {}  # action -> clock time its highlight ends
        self.show_help = False
        self.window: Size | None = None  # the terminal's size, as last reported
        self.drawn: tuple[Any, ...] | None = None
        self.message_timer: Any = None
        self.prompting = False  # the message is an open choice's prompt
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
        yield Static(keys_text([*self.presenter.keys, *self.own_keys()]), id="help")
        yield Static(id="message")
        yield Static(id="hint")
        yield Static(id="small")

    def own_keys(self) -> list[tuple[str, str]]:
        """The screen's own keys, for the help (``?``)."""
        quits = key_names(self.presenter.quit_keys).replace(" or ", " ")
        return [(f"p ? {quits}", "pause, these keys, quit (Ctrl-C too)")]

    def on_mount(self) -> None:
        # Textual reads Ctrl-C at the keyboard as a key; a SIGINT from
        # elsewhere (kill -INT) ends the game the same way.
        # (Where it cannot, on Windows or off the main thread, Ctrl-C stays a key.)
        with contextlib.suppress(NotImplementedError, RuntimeError, ValueError):
            asyncio.get_running_loop().add_signal_handler(signal.SIGINT, self.interrupt)
        self.started = self.clock()
        self.fit_window()
        self.set_interval(1 / self.fps, self.tick)
        self.redraw(force=True)

    # --- the clock ------------------------------------------------------------------

    def virtual_now(self) -> int:
        """Milliseconds of play since the start, pauses left out."""
        now = self.stopped_at if self.stopped_at is not None else self.clock()
        return max(0, int((now - self.started - self.stopped_total) * 1000))

    def set_stopped(self) -> None:
        """Stops or restarts the virtual clock as pause and window size say."""
        stop = self.paused or self.too_small
        if stop and self.stopped_at is None:
            self.stopped_at = self.clock()
        elif not stop and self.stopped_at is not None:
            self.stopped_total += self.clock() - self.stopped_at
            self.stopped_at = None

    def tick(self) -> None:
        if self.stopped_at is None and not self.session.is_over():
            self.session.advance_to(self.virtual_now())
            self.catch_up()
        self.redraw()

    def catch_up(self) -> None:
        """Tells what happened since the last look (the ticker: commits and
        the engine's timers, in order), and flashes your cards that bounced."""
        view = self.session.view(HUMAN)
        # A real-time view tells the time of its last event: the public
        # channel is read only when something happened.
        last = (len(self.session.log()), getattr(view, "now", None))
        if last == self.last_event:
            return
        self.last_event = last
        events = self.session.events()[self.seen :]
        self.seen += len(events)
        commits = [e for e in events if e["kind"] != "timer"]
        told = iter(
            self.presenter.tell(
                [(e["seat"], e["action"], e["kind"] == "bounced") for e in commits],
                view,
                self.game,
            )
        )
        for event in events:
            at = f"{event['at'] / 1000:6.1f} s"
            if event["kind"] == "timer":
                phase = str(event.get("phase") or "on").replace("_", " ")
                self.story.append(f"{at}  now {phase}")
                continue
            text = next(told)
            bounced = event["kind"] == "bounced"
            who = "you" if event["seat"] == HUMAN else "bot"
            self.story.append(f"{at}  {who}: {text}{' (bounced)' * bounced}")
            if bounced and event["seat"] == HUMAN:
                self.bounces[event["action"]] = self.clock() + FLASH_SECONDS
                self.say(self.refused(event["action"], f"bounced: {text}"), bell=True)
        del self.story[:-TICKER_LINES]

    def marks(self) -> Marks:
        now = self.clock()
        self.bounces = {a: end for a, end in self.bounces.items() if end > now}
        incoming: tuple[int, ...] = ()
        if self.telegraph:
            flying = self.session.in_flight()
            incoming = tuple(action for _at, seat, action in flying if seat != HUMAN)
        return Marks(bounced=frozenset(self.bounces), incoming=incoming)

    # --- the window -----------------------------------------------------------------

    def on_resize(self, event: Resize) -> None:
        # (Called before the app takes the new size itself.)
        self.fit_window(event.size)
        self.redraw(force=True)

    def fit_window(self, size: Size | None = None) -> None:
        """Below the presenter's minimum the table would wrap: the screen
        asks for a larger window instead, and the game waits for it."""
        need_w, need_h = self.presenter.min_size
        self.window = size or self.window or self.size
        width, height = self.window
        self.too_small = width < need_w or height < need_h
        self.set_stopped()
        small = self.query_one("#small", Static)
        small.display = self.too_small
        for widget in ("#status", "#table", "#ticker", "#message", "#hint"):
            self.query_one(widget).display = not self.too_small
        self.query_one("#help").display = self.show_help and not self.too_small
        self.query_one("#ticker").display = not self.show_help and not self.too_small
        if self.too_small:
            small.update(
                f"Enlarge the window:\n{self.presenter.title} needs {need_w}x{need_h}, "
                f"this one is {width}x{height}.\n"
                f"The game waits. {key_names(self.quit_keys())} quits."
            )

    # --- drawing --------------------------------------------------------------------

    def quit_keys(self) -> frozenset[str]:
        """Keys that leave now: once the game is over, ``q`` too."""
        if self.session.is_over():
            return self.presenter.quit_keys | {OVER_QUIT_KEY}
        return self.presenter.quit_keys

    def redraw(self, force: bool = False) -> None:
        if self.too_small:
            return
        marks = self.marks()
        key = (len(self.session.log()), self.virtual_now() // 100, marks)
        if key == self.drawn and not force:
            return
        self.drawn = key
        view = self.session.view(HUMAN)
        legal = self.session.legal_actions(HUMAN)
        seconds = self.virtual_now() / 1000
        state = "paused" if self.paused else "live"
        if self.session.is_over():
            seconds = self.session.now / 1000  # the clock stopped with the game
            state = "game over"
        telegraph = " (telegraph)" if self.telegraph else ""
        who = f"{self.presenter.title}  you vs {self.opponents}{telegraph}"
        self.query_one("#status", Static).update(f"{who}   {seconds:6.1f} s   {state}")
        self.query_one("#table", Static).update(self.presenter.render(view, self.game, marks))
        self.query_one("#ticker", Static).update("\n".join(self.story))
        self.query_one("#hint", Static).update(hint_line(self.hint(view, legal)))

    def hint(self, view: Any, legal: Sequence[int]) -> list[tuple[str, str]]:
        """The keys that matter now, for the bottom line: the game's for
        this moment first, then the screen's own, the least needed of them
        left out when the window is too narrow for all (never the way out)."""
        quits = (key_names(self.quit_keys()).replace(" or ", " "), "quit")
        helps = ("?", "hides the keys" if self.show_help else "keys")
        if self.session.is_over():
            return [quits, helps]
        if self.paused:
            return [("p", "plays on"), helps, quits]
        choice = self.presenter.choice(view, self.game, legal)
        if choice is not None:
            return [*choice, ("Esc", "cancels")]
        if self.prompting:  # the choice closed by itself (its move went)
            self.say("")
        game = list(self.presenter.hint(view, self.game, legal))
        own = [("p", "pause"), helps, quits]
        width = (self.window or self.size).width - 2
        while len(own) > 1 and len(hint_line([*game, *own])) > width:
            own.pop(0)
        return [*game, *own]

    def say(self, text: str, bell: bool = False, seconds: float = MESSAGE_SECONDS) -> None:
        """A message under the table for a few seconds (``seconds=0``: until replaced)."""
        message = self.query_one("#message", Static)
        message.update(text)
        self.prompting = False
        if bell:
            self.bell()
        if self.message_timer is not None:
            self.message_timer.stop()
            self.message_timer = None
        if seconds:
            self.message_timer = self.set_timer(seconds, lambda: message.update(""))

    def refused(self, action: int, subject: str) -> str:
        """``subject: why (rule)`` with the engine's reason (RT-5 for a bounce)."""
        why = self.presenter.refusal(action, HUMAN, self.session.state)
        return subject if why is None else f"{subject}: {why[1]} ({why[0]})"

    # --- keys -----------------------------------------------------------------------

    def on_key(self, event: Key) -> None:
        key = event.character if event.character and event.character.isprintable() else event.key
        event.stop()
        if event.key == INTERRUPT_KEY:
            self.interrupt()
            return
        if self.presenter_choosing() and event.key == "escape":
            self.presenter.cancel()
            self.say("")
            self.redraw(force=True)
            return
        if key in self.quit_keys() or event.key in self.quit_keys():
            self.finish()
            return
        if self.too_small:
            self.bell()
            return
        if key == "?":
            self.show_help = not self.show_help
            self.fit_window()
            self.redraw(force=True)
            return
        if self.session.is_over():
            self.say(f"the game is over: {key_names(self.quit_keys())} quits")
            return
        if key == "p":
            self.paused = not self.paused
            self.set_stopped()
            self.redraw(force=True)
            return
        if self.paused:
            self.say("paused: p plays on")
            return
        self.play(key)

    def presenter_choosing(self) -> bool:
        view = self.session.view(HUMAN)
        return self.presenter.choice(view, self.game, self.session.legal_actions(HUMAN)) is not None

    def play(self, key: str) -> None:
        """A game key: its move goes to the session stamped with the time now."""
        now = self.virtual_now()
        self.session.advance_to(now)
        self.catch_up()
        view = self.session.view(HUMAN)
        legal = self.session.legal_actions(HUMAN)
        meaning = self.presenter.action_for(key, view, self.game, legal)
        if meaning is None:
            self.say(f"{key_name(key)}: not a key of this game (? shows them)", bell=True)
        elif isinstance(meaning, Choice):
            self.say(meaning.prompt, seconds=0)
            self.prompting = True
        elif isinstance(meaning, str):
            self.say(meaning, bell=True)
        elif meaning not in legal:
            subject = self.presenter.describe(meaning, HUMAN, view, self.game)
            self.say(self.refused(meaning, subject), bell=True)
        elif not self.session.submit(HUMAN, meaning, now):
            self.say("your hand is busy: wait for your card to land", bell=True)
        else:
            self.say("")
        self.tick()
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
