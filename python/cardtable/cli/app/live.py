"""The table of a real-time game (Spit, Speed) on the virtual clock: the
game's drawing (:mod:`cardtable.tables`), a ticker of the last moves and
the keys that matter now (see :mod:`cardtable.cli.live` for how keys
become intents).

The engine and its clock stay in Rust (``Session``); this board only maps
the wall clock to virtual milliseconds, frozen while paused (``p``), while
the help is open and while the window is too small, stamps each key with
that time and hands it to the session as an intent of seat 0, and redraws
at most ``fps`` times a second. A key whose move the rules refuse says
why, with the engine's rule; a key that means nothing rings the bell;
neither changes anything (HC-2, HC-4). With ``telegraph`` the bot's cards
in flight are marked during their motor time (HC-4). Once a game is over,
Enter deals another with the same settings (``n`` changes them).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from typing import Any

from textual.app import ComposeResult
from textual.widgets import Static

from cardtable.cli.app.boards import SHELL_KEYS, Board, Hooks
from cardtable.cli.app.settings import Settings
from cardtable.cli.live import (
    FLASH_SECONDS,
    HUMAN,
    MESSAGE_SECONDS,
    OVER_QUIT_KEY,
    Choice,
    LivePresenter,
)
from cardtable.deck import derive_seed, new_seed
from cardtable.games import Bot, Game, Session
from cardtable.tables import Marks

TICKER_LINES = 3


class LiveBoard(Board):
    """One live game after another against the bot: seat 0 is the person."""

    DEFAULT_CSS = """
    LiveBoard { height: 1fr; layout: vertical; }
    LiveBoard #table { padding: 1 1 0 1; text-wrap: nowrap; height: auto; }
    LiveBoard #ticker { padding: 1 1 0 1; color: $text-muted; text-wrap: nowrap;
        text-overflow: ellipsis; height: auto; }
    """

    def __init__(
        self,
        settings: Settings,
        game: Game,
        hooks: Hooks,
        presenter: LivePresenter,
        *,
        clock: Callable[[], float] = time.monotonic,
        fps: int = 30,
        seats: Sequence[str | None] | None = None,
    ) -> None:
        super().__init__(settings, game, hooks)
        # Who plays each seat (None: the keyboard); by default the person
        # and the settings' opponent (tests seat bots or nobody).
        self.seats = list(seats) if seats is not None else None
        self.presenter = presenter
        self.min_size = presenter.min_size
        self.clock = clock
        self.fps = fps
        self.seed = settings.seed if settings.seed is not None else new_seed()
        self.opponent = Bot(game, settings.opponents[0].spec, 0).name
        # HC-4: telegraphing is the easy bots'; any bot can have it.
        self.telegraph = (
            self.opponent.split(",")[0].endswith(":easy")
            if settings.telegraph is None
            else settings.telegraph
        )
        self.number = 0
        self.session = self.new_session()
        self.paused = False  # p
        self.held = False  # the help is open or the window too small
        self.stopped_at: float | None = None
        self.stopped_total = 0.0
        self.started_at = 0.0
        self.seen = 0
        self.last_event: tuple[int, int | None] = (0, None)
        self.story: list[str] = []
        self.bounces: dict[int, float] = {}
        self.drawn: tuple[Any, ...] | None = None
        self.prompting = False
        self.kept = False  # this game's record is kept
        self.game_started = time.time()

    def new_session(self) -> Session:
        """The next game: the first on the settings' seed, the others on seeds derived from it."""
        seed = self.seed if self.number == 0 else derive_seed(self.seed, self.number)
        self.number += 1
        self.game_seed = seed
        seats = self.seats or [None, *(o.spec for o in self.settings.opponents)]
        return Session(self.game, seats, seed)

    def compose(self) -> ComposeResult:
        yield Static(id="table")
        yield Static(id="ticker")

    def on_mount(self) -> None:
        self.started_at = self.clock()
        self.set_interval(1 / self.fps, self.tick)
        self.redraw(force=True)

    # --- the clock ------------------------------------------------------------------

    def virtual_now(self) -> int:
        """Milliseconds of play since the start, pauses left out."""
        now = self.stopped_at if self.stopped_at is not None else self.clock()
        return max(0, int((now - self.started_at - self.stopped_total) * 1000))

    def set_stopped(self) -> None:
        """Stops or restarts the virtual clock as the pauses say."""
        stop = self.paused or self.held
        if stop and self.stopped_at is None:
            self.stopped_at = self.clock()
        elif not stop and self.stopped_at is not None:
            self.stopped_total += self.clock() - self.stopped_at
            self.stopped_at = None

    def tick(self) -> None:
        if self.stopped_at is None and not self.session.is_over():
            self.session.advance_to(self.virtual_now())
            self.catch_up()
        if self.session.is_over() and not self.kept:
            self.kept = True
            record = self.session.to_record()
            self.keep(self.session.state, record, self.seed, self.game_started)
            self.hooks.changed()
        self.redraw()

    def catch_up(self) -> None:
        """Tells what happened since the last look (the ticker: commits and
        the engine's timers, in order), and flashes your cards that bounced."""
        view = self.session.view(HUMAN)
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
                self.hooks.say(self.refused(event["action"], f"bounced: {text}"), True, 3)
        del self.story[:-TICKER_LINES]

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
        if self.held or not self.is_mounted:
            return
        marks = self.marks()
        key = (len(self.session.log()), self.virtual_now() // 100, marks, self.paused)
        if key == self.drawn and not force:
            return
        self.drawn = key
        view = self.session.view(HUMAN)
        self.query_one("#table", Static).update(self.presenter.render(view, self.game, marks))
        self.query_one("#ticker", Static).update("\n".join(self.story))
        self.hooks.changed()

    def status(self) -> str:
        seconds = self.virtual_now() / 1000
        state = "paused" if self.paused else "live"
        if self.session.is_over():
            seconds = self.session.now / 1000  # the clock stopped with the game
            state = "game over"
        telegraph = " · telegraph" if self.telegraph else ""
        return f"game {self.number} · {seconds:6.1f} s {state}{telegraph}"

    def hints(self) -> list[tuple[str, str]]:
        if self.session.is_over():
            return [("Enter", "another game")]
        if self.paused:
            return [("p", "plays on")]
        view = self.session.view(HUMAN)
        legal = self.session.legal_actions(HUMAN)
        choice = self.presenter.choice(view, self.game, legal)
        if choice is not None:
            return [*choice, ("Esc", "cancels")]
        if self.prompting:  # the choice closed by itself (its move went)
            self.prompting = False
            self.hooks.say("", False, 0)
        return [*self.presenter.hint(view, self.game, legal), ("p", "pause")]

    def help_keys(self) -> list[tuple[str, str]]:
        return [
            *self.presenter.keys,
            ("p", "pause (the clock stops)"),
            ("Enter", "once the game is over: another game"),
        ]

    def help_notes(self) -> list[str]:
        return [
            "The clock is virtual: it stops while paused, while this help is open and while"
            " the window is too small. A card that no longer fits when it lands bounces back"
            " and flashes (RT-5)."
        ]

    def standings(self) -> list[str]:
        """The game's (or match's) standing, for after the screen has closed."""
        labels = ["you", self.against()]
        return self.presenter.standings(self.session.view(HUMAN), self.game).lines(labels)

    def refused(self, action: int, subject: str) -> str:
        """``subject: why (rule)`` with the engine's reason (RT-5 for a bounce)."""
        why = self.presenter.refusal(action, HUMAN, self.session.state)
        return subject if why is None else f"{subject}: {why[1]} ({why[0]})"

    # --- what the shell asks ------------------------------------------------------------

    def quit_keys(self) -> frozenset[str]:
        """The game's quit keys (Esc); once the game is over, ``q`` too."""
        if self.session.is_over():
            return self.presenter.quit_keys | {OVER_QUIT_KEY}
        return self.presenter.quit_keys

    def in_game(self) -> bool:
        return not self.session.is_over() and self.virtual_now() > 0

    def pause(self) -> None:
        self.held = True
        self.set_stopped()

    def resume(self) -> None:
        self.held = False
        self.set_stopped()
        self.redraw(force=True)

    def abandon(self) -> None:
        if not self.kept and self.hooks.record is not None:
            self.kept = True
            self.hooks.record(self.session.to_record())

    def key(self, key: str) -> bool:
        if self.presenter_choosing() and key == "escape":
            self.presenter.cancel()
            self.hooks.say("", False, 0)
            self.redraw(force=True)
            return True
        if key in self.quit_keys():
            return False
        if self.session.is_over():
            if key in ("enter", "space", " "):
                self.next_game()
            elif key not in SHELL_KEYS:
                quits = " or ".join(sorted(self.quit_keys(), key=len)).replace("escape", "Esc")
                self.hooks.say(f"the game is over: Enter plays another, {quits} quits", False, 3)
            return key not in SHELL_KEYS
        if key == "p":
            self.paused = not self.paused
            self.set_stopped()
            self.redraw(force=True)
            return True
        if key in SHELL_KEYS:
            return False
        if self.paused:
            self.hooks.say("paused: p plays on", False, 3)
            return True
        return self.play(key)

    def next_game(self) -> None:
        """Another game with the same settings."""
        self.session = self.new_session()
        self.started_at = self.clock()
        self.stopped_total = 0.0
        self.stopped_at = None
        self.seen = 0
        self.last_event = (0, None)
        self.story = []
        self.kept = False
        self.game_started = time.time()
        self.set_stopped()
        self.redraw(force=True)

    def presenter_choosing(self) -> bool:
        view = self.session.view(HUMAN)
        return self.presenter.choice(view, self.game, self.session.legal_actions(HUMAN)) is not None

    def play(self, key: str) -> bool:
        """A game key: its move goes to the session stamped with the time now."""
        now = self.virtual_now()
        self.session.advance_to(now)
        self.catch_up()
        view = self.session.view(HUMAN)
        legal = self.session.legal_actions(HUMAN)
        meaning = self.presenter.action_for(key, view, self.game, legal)
        if meaning is None:
            return False
        if isinstance(meaning, Choice):
            self.hooks.say(meaning.prompt, False, 0)
            self.prompting = True
        elif isinstance(meaning, str):
            self.hooks.say(meaning, True, MESSAGE_SECONDS)
        elif meaning not in legal:
            subject = self.presenter.describe(meaning, HUMAN, view, self.game)
            self.hooks.say(self.refused(meaning, subject), True, MESSAGE_SECONDS)
        elif not self.session.submit(HUMAN, meaning, now):
            self.hooks.say("your hand is busy: wait for your card to land", True, MESSAGE_SECONDS)
        else:
            self.hooks.say("", False, 0)
        self.tick()
        self.redraw(force=True)
        return True
