"""The table of a turn-based game (Tonk, Three Thirteen, gin rummy): fixed,
not a log. Every seat with its card count and its last move, the piles,
the tabled melds, your hand drawn as cards (grouped, melds first), the
moves you may make now, a hint, and a short log of the last moves.

Everything comes from the engine: the moves are ``legal_actions`` told by
``describe_action`` (through the game's :class:`TurnLayout`), a refused
choice is told by ``refusal`` with its rule, ``u`` asks
``can_take_back``. Bots move at a readable pace (``delay``; Enter plays
their moves at once), each move shown as that seat's last move and in
the log.

Keys: ← → a card of your hand, space chooses it (the moves narrow to
those that use the chosen cards), ↑ ↓ and Enter a move, 1-9 the move of
that number, a move's letter (``d`` draw, ``x`` discard ...) plays it or
narrows to the moves of that kind, ``u`` takes back, Esc lets go of the
chosen cards. The mouse: click a card to choose it, a move to make it.
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.events import Click
from textual.message import Message
from textual.timer import Timer
from textual.widget import Widget
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from cardtable._core import Card
from cardtable.cli.app.boards import Board, Hooks
from cardtable.cli.app.settings import Settings
from cardtable.cli.board import Move, TurnLayout, Voice
from cardtable.cli.terminal import HUMAN, signed
from cardtable.deck import new_seed
from cardtable.games import Game, Match, State

CARD_WIDTH = 5  # a card drawn as a box: "┌───┐"
LIGHT = "┌─┐│└┘"
HEAVY = "┏━┓┃┗┛"
SHORT_SCREEN = 30  # rows: below this the log and the melds keep to a few lines


class HandView(Widget):
    """Seat 0's hand as cards, in groups; the cursor's card has a heavy
    frame and chosen cards stand one row higher (no colour needed)."""

    DEFAULT_CSS = "HandView { height: 5; }"

    class Picked(Message):
        """A card was clicked."""

        def __init__(self, index: int) -> None:
            super().__init__()
            self.index = index

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.cards: list[Card] = []
        self.groups: list[int] = []
        self.marks: list[str] = []
        self.cursor = 0
        self.chosen: set[int] = set()
        self.title = Text()
        self.show_cursor = True

    def show(
        self,
        groups: Sequence[Sequence[Card]],
        marks: Sequence[str],
        title: Text,
        cursor: int,
        chosen: set[int],
        show_cursor: bool,
    ) -> None:
        self.cards = [c for g in groups for c in g]
        self.groups = [len(g) for g in groups if g]
        self.marks = list(marks)
        self.title = title
        self.cursor = cursor
        self.chosen = set(chosen)
        self.show_cursor = show_cursor
        self.refresh()

    def places(self) -> list[int]:
        """The column each card starts at: groups one column apart."""
        out, x = [], 0
        for size in self.groups:
            for _ in range(size):
                out.append(x)
                x += CARD_WIDTH
            x += 1
        return out

    def render(self) -> Text:
        rows = [Text() for _ in range(4)]
        for i, x in enumerate(self.places()):
            card = self.cards[i]
            frame = HEAVY if self.show_cursor and i == self.cursor else LIGHT
            frame_style = "bold yellow" if frame is HEAVY else "dim"
            face = card.symbol()
            face = " " * max(0, 3 - len(face)) + face
            mark = (self.marks[i] if i < len(self.marks) else "")[:1]
            bottom = frame[4] + (mark or frame[1]) + frame[1] * 2 + frame[5]
            lines = [
                Text(frame[0] + frame[1] * 3 + frame[2], style=frame_style),
                Text(frame[3], style=frame_style)
                + Text(face, style="bold red" if card.is_red else "bold")
                + Text(frame[3], style=frame_style),
                Text(bottom, style=frame_style),
            ]
            top = 0 if i in self.chosen else 1
            for r, row in enumerate(rows):
                row.pad_right(x - row.cell_len)
                k = r - top
                row.append_text(lines[k] if 0 <= k < 3 else Text(" " * CARD_WIDTH))
        out = Text()
        out.append_text(self.title)
        for row in rows:
            out.append("\n")
            out.append_text(row)
        return out

    def on_click(self, event: Click) -> None:
        offset = event.get_content_offset(self)
        if offset is None or offset.y < 1:  # the title line
            return
        for i, x in enumerate(self.places()):
            if x <= offset.x < x + CARD_WIDTH:
                self.post_message(self.Picked(i))
                return

    def card_offset(self, index: int) -> tuple[int, int]:
        """Where to click card ``index``, from the widget's corner (its middle row)."""
        return self.places()[index] + 2 + self.styles.padding.left, 3


class MoveList(OptionList, can_focus=False):
    """The moves you may make now; the board moves the highlight, a click makes one."""


@dataclass
class Snapshot:
    """The table just before one of seat 0's moves, for ``u``."""

    state: State
    allowed: bool
    move: Move
    log: list[str]
    last: dict[int, str]
    notes: Any


class TurnBoard(Board):
    """A turn-based game's table: a match of games against the bots."""

    DEFAULT_CSS = """
    TurnBoard { height: 1fr; layout: vertical; }
    TurnBoard #top { height: auto; }
    TurnBoard #seats { width: 1fr; height: auto; padding: 0 1; text-wrap: nowrap;
        text-overflow: ellipsis; }
    TurnBoard #log { width: 40%; height: auto; padding: 0 1; color: $text-muted;
        border-left: solid $primary-darken-2; text-wrap: nowrap; text-overflow: ellipsis; }
    TurnBoard #tabled { height: auto; padding: 0 1; text-wrap: nowrap; text-overflow: ellipsis; }
    TurnBoard #hand { height: 5; padding: 0 1; }
    TurnBoard #bottom { height: 1fr; }
    TurnBoard #moves { width: 1fr; height: 100%; border: none; padding: 0; }
    TurnBoard #info { width: 40%; height: 100%; padding: 0 1; }
    """

    def __init__(self, settings: Settings, game: Game, hooks: Hooks, layout: TurnLayout) -> None:
        super().__init__(settings, game, hooks)
        self.table = layout
        self.voice = Voice(["you", *self.names])
        self.seed = settings.seed if settings.seed is not None else new_seed()
        self.match = Match(game, self.seed)
        self.bots = settings.bots(game, self.seed)
        self.delay = settings.delay
        self.number = 0
        self.state: State = game.new_initial_state(self.seed)  # replaced by the first deal
        self.game_started = time.time()
        self.over = False
        self.abandoned = False
        self.log_lines: list[str] = []
        self.last: dict[int, str] = {}
        self.hand: list[Card] = []
        self.cursor = 0
        self.chosen: set[int] = set()
        self.kind: str | None = None  # the moves narrowed to one kind (its key was pressed)
        self.shown: list[Move] = []
        self.queued: int | None = None  # a move for seat 0's next decision (Move.then)
        self.taken: list[Snapshot] = []
        self.moved = False
        self.timer: Timer | None = None
        self.paused = False
        self.deciding = False

    def compose(self) -> ComposeResult:
        with Horizontal(id="top"):
            yield Static(id="seats")
            yield Static(id="log")
        yield Static(id="tabled")
        yield HandView(id="hand")
        with Horizontal(id="bottom"):
            yield MoveList(id="moves")
            yield Static(id="info")

    def on_mount(self) -> None:
        self.deal()

    # --- the match ------------------------------------------------------------------

    def deal(self) -> None:
        """The next game of the match."""
        self.number += 1
        self.state = self.match.next_game()
        self.game_started = time.time()
        self.over = False
        self.abandoned = False
        self.taken.clear()
        self.moved = False
        self.last.clear()
        self.queued = None
        self.table.start(self.state)
        dealer = self.state.dealer
        deals = self.voice.says(dealer, "deal", "deals")
        self.tell(f"{self.table.unit.capitalize()} {self.number}: {deals}")
        self.advance()

    def advance(self) -> None:
        """Bots play (paced) until seat 0 decides or the game ends."""
        self.deciding = False
        while True:
            if self.state.is_terminal():
                self.finish()
                return
            seat = self.state.current_player()
            assert seat is not None
            if seat == HUMAN:
                queued, self.queued = self.queued, None
                if queued is not None and self.state.is_legal(queued):
                    self.apply(HUMAN, queued)
                    continue
                auto = self.table.auto(self.state)
                if auto is not None:
                    self.apply(HUMAN, auto)
                    continue
                self.deciding = True
                self.redraw()
                return
            if self.delay > 0:
                self.redraw()
                self.timer = self.set_timer(self.delay, self.bot_step, pause=self.paused)
                return
            bot = self.bots[seat]
            assert bot is not None
            self.apply(seat, bot.act(self.state))

    def bot_step(self) -> None:
        self.timer = None
        seat = self.state.current_player()
        if seat is not None and seat != HUMAN:
            bot = self.bots[seat]
            assert bot is not None
            self.apply(seat, bot.act(self.state))
        self.advance()

    def hurry(self) -> None:
        """Enter while the bots play: their moves up to yours, at once."""
        if self.timer is not None:
            self.timer.stop()
            self.timer = None
        delay, self.delay = self.delay, 0.0
        try:
            self.advance()
        finally:
            self.delay = delay

    def apply(self, seat: int, action: int) -> None:
        info = self.state.describe_action(action)
        before = self.state.view(HUMAN)
        self.state.apply_action(action)
        after = self.state.view(HUMAN)
        line = self.table.narrate(self.voice, seat, info, before, after)
        if line is not None:
            self.tell(line)
            self.last[seat] = self.table.last_move(self.voice, seat, line)
        for extra in self.table.observe(self.voice, seat, info, before, after):
            self.tell(extra)
        if seat != HUMAN:
            self.taken.clear()

    def finish(self) -> None:
        self.over = True
        self.deciding = False
        self.match.record(self.state)
        for line in self.table.end_lines(self.state, self.voice):
            self.tell(line)
        record = self.state.to_record(["human", *self.names])
        self.keep(self.state, record, self.seed, self.game_started)
        self.redraw()
        self.hooks.changed()

    def tell(self, line: str) -> None:
        self.log_lines.append(line)
        del self.log_lines[:-200]

    # --- seat 0's moves ------------------------------------------------------------

    def moves(self) -> list[Move]:
        """The moves shown: narrowed by the chosen cards and the kind asked for."""
        if not self.deciding:
            return []
        chosen = Counter(self.hand[i] for i in self.chosen if i < len(self.hand))
        out = []
        for move in self.table.moves(self.state):
            if self.kind is not None and move.kind != self.kind:
                continue
            if chosen and chosen - Counter(move.cards):
                continue
            out.append(move)
        # By kind (the layout's order), then as the cards lie in the hand.
        place = {c: i for i, c in reversed(list(enumerate(self.hand)))}

        def order(move: Move) -> tuple[int, int, str]:
            first = place.get(move.cards[0], len(place)) if move.cards else -1
            return self.table.order(move)[0], first, move.label

        return sorted(out, key=order)

    def make(self, move: Move) -> None:
        """Makes a move of seat 0 (after its question, if it has one)."""
        if move.confirm is not None:
            from cardtable.cli.app.screens import ConfirmScreen

            def answer(yes: bool | None) -> None:
                if yes:
                    self.play(move)

            self.app.push_screen(ConfirmScreen(move.confirm), answer)
            return
        self.play(move)

    def play(self, move: Move) -> None:
        if not self.deciding or not self.state.is_legal(move.actions[0]):
            return
        trial = self.state.clone()
        allowed = True
        for a in move.actions:
            allowed = allowed and trial.can_take_back(a)
            trial.apply_action(a)
        snapshot = Snapshot(
            self.state.clone(),
            allowed,
            move,
            list(self.log_lines),
            dict(self.last),
            self.table.save(),
        )
        for a in move.actions:
            self.apply(HUMAN, a)
        self.taken.append(snapshot)
        self.moved = True
        self.queued = move.then
        self.let_go()
        self.hooks.say("", False, 0)
        self.advance()

    def take_back(self) -> None:
        """``u``: back to before seat 0's last move, or why not."""
        if not self.deciding:
            self.hooks.say("nothing to take back now", True, 3)
            return
        if not self.taken:
            why = (
                "the others have moved since your last move"
                if self.moved
                else "you have not moved yet"
            )
            self.hooks.say(f"nothing to take back: {why}", True, 3)
            return
        last = self.taken[-1]
        if not last.allowed:
            if last.move.kind == "draw":
                why = "you saw the card you drew: a stock draw cannot be taken back"
            else:
                why = f"{last.move.label} cannot be taken back: it showed a card or ended your turn"
            self.hooks.say(why, True, 3)
            return
        self.taken.pop()
        self.state = last.state
        self.log_lines = last.log
        self.last = last.last
        self.table.load(last.notes)
        self.queued = None
        self.let_go()
        self.hooks.say(f"Taken back: {last.move.label}", False, 3)
        self.advance()

    def let_go(self) -> None:
        self.chosen.clear()
        self.kind = None

    def by_key(self, key: str) -> None:
        """A move's letter: plays the only such move, narrows to several, or
        says why there is none (the engine's refusal, with its rule)."""
        kinds = [k for k, letter in self.table.kind_keys.items() if letter == key]
        shown = [m for m in self.moves() if m.key == key]
        if not shown and self.kind is not None:
            self.kind = None
            shown = [m for m in self.moves() if m.key == key]
        if len(shown) == 1:
            self.make(shown[0])
            return
        if shown:
            self.kind = shown[0].kind
            self.redraw()
            self.hooks.say(f"{len(shown)} moves: choose one (↑ ↓ Enter, or its number)", False, 3)
            return
        cards = [self.hand[i] for i in sorted(self.chosen) if i < len(self.hand)]
        if not cards and 0 <= self.cursor < len(self.hand):
            cards = [self.hand[self.cursor]]
        for kind in kinds:
            action = self.table.intended(self.state, kind, cards)
            if action is None:
                continue
            why = self.state.refusal(action)
            if why is not None:
                rule, sentence = why
                self.hooks.say(f"not allowed: {sentence} ({rule})", True, 5)
                return
        word = kinds[0].replace("_", " ") if kinds else key
        self.hooks.say(f"no {word} now: choose from the moves shown", True, 3)

    # --- keys and the mouse --------------------------------------------------------

    def key(self, key: str) -> bool:
        if self.over:
            if key in ("enter", "space", " "):
                self.deal()
                return True
            return False
        if not self.deciding:
            if key in ("enter", "space", " "):
                self.hurry()
                return True
            if key in ("u",) or key in self.table.kind_keys.values() or key.isdigit():
                self.hooks.say("the others are playing: Enter plays their moves at once", True, 3)
                return True
            return False
        message = self.table.key(key, self.state)
        if message is not None:
            self.hooks.say(message, False, 3)
            self.redraw()
            return True
        moves = self.list_widget()
        if key in ("left", "right"):
            if self.hand:
                step = -1 if key == "left" else 1
                self.cursor = (self.cursor + step) % len(self.hand)
                self.redraw()
            return True
        if key in ("space", " "):
            self.choose_card(self.cursor)
            return True
        if key == "up":
            moves.action_cursor_up()
            return True
        if key == "down":
            moves.action_cursor_down()
            return True
        if key == "enter":
            if moves.highlighted is not None and moves.highlighted < len(self.shown):
                self.make(self.shown[moves.highlighted])
            return True
        if key.isdigit():
            n = int(key) or 10
            if n <= len(self.shown):
                self.make(self.shown[n - 1])
            else:
                self.hooks.say(f"no move {n}: the moves shown are 1 to {len(self.shown)}", True, 3)
            return True
        if key == "u":
            self.take_back()
            return True
        if key == "escape" and (self.chosen or self.kind is not None):
            self.let_go()
            self.redraw()
            return True
        if key in self.table.kind_keys.values():
            self.by_key(key)
            return True
        return False

    def choose_card(self, index: int) -> None:
        if not 0 <= index < len(self.hand):
            return
        self.cursor = index
        self.chosen ^= {index}
        self.kind = None
        self.redraw()
        if self.chosen and not self.shown:
            self.hooks.say("no move uses these cards together (Esc lets go of them)", True, 3)

    def on_hand_view_picked(self, message: HandView.Picked) -> None:
        if self.deciding:
            self.choose_card(message.index)

    def on_option_list_option_selected(self, message: OptionList.OptionSelected) -> None:
        message.stop()
        if self.deciding and message.option_index < len(self.shown):
            self.make(self.shown[message.option_index])

    def list_widget(self) -> MoveList:
        return self.query_one("#moves", MoveList)

    # --- what the shell asks ----------------------------------------------------------

    def in_game(self) -> bool:
        return not self.over and (self.moved or self.state.history() != [])

    def pause(self) -> None:
        self.paused = True
        if self.timer is not None:
            self.timer.pause()

    def resume(self) -> None:
        self.paused = False
        if self.timer is not None:
            self.timer.resume()

    def abandon(self) -> None:
        """``--record`` keeps the game under way (once, however often asked)."""
        if self.over or self.abandoned:
            return
        self.abandoned = True
        if self.hooks.record is not None:
            self.hooks.record(self.state.to_record(["human", *self.names]))

    def status(self) -> str:
        return f"{self.table.unit} {self.number} · seed {self.seed}"

    def standings(self) -> list[str]:
        played = self.match.games_played
        unit = self.table.unit
        note = f" (the unfinished {unit} does not count)" if self.in_game() else ""
        out = [f"Standings after {played} {unit}{'s' * (played != 1)}{note}:"]
        labels = ["you"] + [
            f"Player {p} ({self.levels[p] or self.names[p - 1]})"
            for p in range(1, len(self.match.ledger))
        ]
        width = max(len(label) for label in labels)
        for p, amount in enumerate(self.match.ledger):
            out.append(f"  seat {p}  {labels[p]:<{width}}  {signed(amount)}")
        return out

    def hints(self) -> list[tuple[str, str]]:
        if self.over:
            return [("Enter", f"next {self.table.unit}")]
        if not self.deciding:
            return [("Enter", "skip ahead")]
        out = [("← →", "card"), ("space", "choose"), ("↑ ↓ Enter", "move"), ("1-9", "move N")]
        if self.chosen or self.kind is not None:
            out.append(("Esc", "let go"))
        out.append(("u", "undo"))
        return out

    def help_keys(self) -> list[tuple[str, str]]:
        keys = [
            ("← →", "a card of your hand (or click it)"),
            ("space", "choose the card: the moves narrow to those that use it"),
            ("↑ ↓ Enter", "a move of the list (or click it)"),
            ("1-9", "the move of that number"),
        ]
        letters: dict[str, list[str]] = {}
        for kind, letter in self.table.kind_keys.items():
            letters.setdefault(letter, []).append(kind.replace("_", " "))
        for letter, kinds in letters.items():
            keys.append((letter, " or ".join(kinds) + " (with the chosen card)"))
        keys += [
            *self.table.key_help,
            ("u", "take back your last move, where the rules allow it"),
            ("Esc", "let go of the chosen cards"),
            ("Enter", "while the others play: their moves at once"),
        ]
        return keys

    def help_notes(self) -> list[str]:
        view = self.state.view(HUMAN)
        now = self.table.phase_text(self.state, view) if self.deciding else ""
        return [*([f"Now: {now}"] if now else []), *self.table.help_notes()]

    # --- drawing ------------------------------------------------------------------------

    def redraw(self) -> None:
        if not self.is_mounted:
            return
        state, view = self.state, self.state.view(HUMAN)
        self.draw_seats(state, view)
        rows = self.app.size.height
        lines = self.table.tabled(view, self.voice)
        # The melds take what the seats, the hand and five lines of moves leave.
        room = max(1, rows - 3 - (state.players + 1) - 5 - 5)
        if len(lines) > room:
            more = len(lines) - room + 1
            lines = [*lines[: room - 1], Text(f"… and {more} more")]
        self.query_one("#tabled", Static).update(Text("\n").join(lines))
        self.draw_hand(state, view)
        self.draw_moves()
        self.draw_info(state, view)
        self.hooks.changed()

    def draw_seats(self, state: State, view: Any) -> None:
        players = state.players
        labels = ["you"] + [
            f"Player {p} ({self.levels[p] or self.names[p - 1]})" for p in range(1, players)
        ]
        width = max(len(label) for label in labels)
        turn = state.current_player()
        out = Text(no_wrap=True, overflow="ellipsis")
        for p in range(players):
            marker = "▶ " if p == turn else "  "
            held = view.hand_sizes[p]
            line = Text(marker, style="bold")
            line.append(f"{labels[p]:<{width}} ", style="bold" if p == HUMAN else "")
            line.append(f"{held:>2} card{'s' * (held != 1)} ")
            note = self.table.seat_note(state, view, p)
            if note:
                line.append(f"{note} ", style="dim")
            if p in self.last:
                line.append(f"· {self.last[p]}", style="italic")
            out.append_text(line)
            out.append("\n")
        out.append_text(self.table.piles(view))
        self.query_one("#seats", Static).update(out)
        rows = players + 1
        if self.app.size.height >= SHORT_SCREEN:
            rows += 4
        self.query_one("#log", Static).update("\n".join(self.log_lines[-rows:]))

    def draw_hand(self, state: State, view: Any) -> None:
        groups = self.table.hand_groups(state, view)
        cards = [c for g in groups for c in g]
        if cards != self.hand:
            self.hand = cards
            self.chosen = {i for i in self.chosen if i < len(cards)}
        self.cursor = min(self.cursor, max(0, len(cards) - 1))
        marks = self.table.card_marks(view, cards)
        title = Text("Your hand", style="bold")
        note = self.table.hand_note(state, view)
        if note:
            title.append(f"  {note}")
        self.query_one("#hand", HandView).show(
            groups, marks, title, self.cursor, self.chosen, self.deciding
        )

    def draw_moves(self) -> None:
        self.shown = self.moves()
        widget = self.list_widget()
        old = widget.highlighted
        highlighted = old if old is not None and old < len(self.shown) else 0
        widget.set_options(
            [Option(self.prompt(n, n == highlighted)) for n in range(len(self.shown))]
        )
        if self.shown:
            widget.highlighted = highlighted
        # Between your decisions the notes under the table take the whole width.
        widget.display = self.deciding
        self.query_one("#info", Static).styles.width = "40%" if self.deciding else "100%"

    def prompt(self, index: int, highlighted: bool) -> Text:
        """A line of the move list; the highlighted one marked ``▶`` (seen without colour)."""
        move = self.shown[index]
        n = index + 1
        prompt = Text("▶" if highlighted else " ", style="bold")
        prompt.append(f"{n:>2} " if n <= 10 else "   ")
        prompt.append(f"{move.key:<2}", style="bold")
        prompt.append(move.label)
        return prompt

    def on_option_list_option_highlighted(self, message: OptionList.OptionHighlighted) -> None:
        message.stop()
        widget = self.list_widget()
        for i in range(len(self.shown)):
            widget.replace_option_prompt_at_index(i, self.prompt(i, i == message.option_index))

    def draw_info(self, state: State, view: Any) -> None:
        out = Text()
        if self.over:
            for line in self.table.end_lines(state, self.voice):
                out.append(line + "\n", style="bold")
            out.append(self.table.ledger_line(self.match, self.voice) + "\n")
            out.append(f"Enter: next {self.table.unit} · n: new game · q: quit\n", style="bold")
        elif self.deciding:
            out.append(self.table.phase_text(state, view) + "\n", style="bold")
            hint = self.table.hint(state) if self.settings.hints else None
            if hint:
                out.append(hint + "\n", style="italic")
            if self.chosen and not self.shown:
                out.append("No move uses these cards together.\n")
        else:
            seat = state.current_player()
            if seat is not None:
                out.append(f"{self.voice.subject(seat)} to play…\n", style="italic")
        for line in self.table.score_lines(state, self.voice):
            out.append(line + "\n")
        self.query_one("#info", Static).update(out)


def counted(n: int, word: str) -> str:
    return f"{n} {word}{'s' * (n != 1)}"
