"""The shell's screens over the table: the help (``?``), a yes/no question
(quitting, a drop, leaving a game) and the new-game screen (``n``: the
game, the players, the opponents' levels from ``Game.bot_levels()`` and
every rule option of the engine's schema)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, overload

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Vertical, VerticalScroll
from textual.events import Click, Key
from textual.screen import ModalScreen
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from cardtable.cli.app.settings import DEFAULT_LEVEL, Opponent, Settings, levels
from cardtable.cli.game_options import flag_name, show_value
from cardtable.cli.presenters import PRESENTERS, command_name
from cardtable.errors import CardGameError
from cardtable.games import game_names, load_game


class HelpScreen(ModalScreen[None]):
    """The help over the table: any of ``?``, Esc, q or Enter closes it."""

    DEFAULT_CSS = """
    HelpScreen { align: center middle; }
    HelpScreen > VerticalScroll { width: 100%; height: 100%; padding: 0 1;
        background: $panel; }
    """

    def __init__(self, text: Text) -> None:
        super().__init__()
        self.text = text

    def compose(self) -> ComposeResult:
        with VerticalScroll():
            yield Static(self.text, id="help")

    def on_key(self, event: Key) -> None:
        event.stop()
        scroll = self.query_one(VerticalScroll)
        if event.key in ("up", "k"):
            scroll.scroll_up(animate=False)
        elif event.key in ("down", "j"):
            scroll.scroll_down(animate=False)
        elif event.key == "pageup":
            scroll.scroll_page_up(animate=False)
        elif event.key in ("pagedown", "space"):
            scroll.scroll_page_down(animate=False)
        elif event.key in ("question_mark", "escape", "q", "enter") or event.character == "?":
            self.dismiss(None)

    def on_click(self, event: Click) -> None:
        self.dismiss(None)


class ConfirmScreen(ModalScreen[bool]):
    """A yes/no question: y or Enter says yes, n or Esc no; or click."""

    DEFAULT_CSS = """
    ConfirmScreen { align: center middle; }
    ConfirmScreen > Vertical { width: 64; height: auto; padding: 1 2;
        border: round $accent; background: $panel; }
    ConfirmScreen #answers { margin-top: 1; }
    """

    def __init__(self, question: str) -> None:
        super().__init__()
        self.question = question

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(self.question, id="question")
            yield Static(Text("[y] yes    [n] no", style="bold"), id="answers")

    def on_key(self, event: Key) -> None:
        event.stop()
        if event.character in ("y", "Y") or event.key == "enter":
            self.dismiss(True)
        elif event.character in ("n", "N") or event.key in ("escape", "q"):
            self.dismiss(False)

    def on_click(self, event: Click) -> None:
        answers = self.query_one("#answers", Static)
        offset = event.get_content_offset(answers)
        if offset is None:
            return
        self.dismiss(offset.x < 9)


@dataclass
class Field:
    """One line of the new-game screen: a label and the values it cycles through."""

    name: str
    label: str
    values: Sequence[Any]
    index: int
    help: str = ""
    rule: str = ""
    words: dict[Any, str] = field(default_factory=dict)

    @property
    def value(self) -> Any:
        return self.values[self.index]

    def text(self) -> str:
        value = self.value
        return self.words.get(value, show_value(value))

    def step(self, by: int) -> None:
        self.index = (self.index + by) % len(self.values)


class Values(Sequence[Any]):
    """An option's values: its words, then a range of numbers (a range
    may be long, e.g. milliseconds: it is never listed)."""

    def __init__(self, words: Sequence[Any], numbers: range = range(0)) -> None:
        self.words = list(words)
        self.numbers = numbers

    def __len__(self) -> int:
        return len(self.words) + len(self.numbers)

    @overload
    def __getitem__(self, index: int) -> Any: ...
    @overload
    def __getitem__(self, index: slice) -> Sequence[Any]: ...
    def __getitem__(self, index: int | slice) -> Any:
        if isinstance(index, slice):
            return [self[i] for i in range(len(self))[index]]
        if index < len(self.words):
            return self.words[index]
        return self.numbers[index - len(self.words)]

    def __contains__(self, value: object) -> bool:
        if value in self.words:
            return True
        return isinstance(value, int) and not isinstance(value, bool) and value in self.numbers

    def index(self, value: Any, start: int = 0, stop: int | None = None) -> int:
        if value in self.words:
            return self.words.index(value)
        return len(self.words) + self.numbers.index(value)


def option_values(spec: Any) -> Values:
    """Every value of a rule option, from the engine's schema."""
    if spec.kind == "bool":
        return Values([False, True])
    if spec.kind == "choice":
        return Values(spec.words)
    numbers = range(spec.minimum, spec.maximum + 1)
    return Values(spec.words if spec.kind == "int_or_word" else [], numbers)


class NewGameScreen(ModalScreen[Settings | None]):
    """A new match's settings: ↑ ↓ a line, ← → (or a click) its value,
    PageUp/PageDown ten at a time, Enter starts, Esc goes back."""

    DEFAULT_CSS = """
    NewGameScreen { align: center middle; }
    NewGameScreen > Vertical { width: 100%; height: 100%; background: $panel; padding: 0 1; }
    NewGameScreen #title { height: 1; text-style: bold; }
    NewGameScreen #fields { height: 1fr; border: none; }
    NewGameScreen #about { height: 3; color: $text-muted; }
    NewGameScreen #error { height: 1; color: $error; }
    NewGameScreen #keys { height: 1; background: $boost; }
    """

    def __init__(self, settings: Settings) -> None:
        super().__init__()
        self.settings = settings
        self.given: set[str] = set(settings.options)
        self.fields: list[Field] = []
        self.build(settings.game, dict(settings.options), [o.spec for o in settings.opponents])

    def build(self, name: str, options: dict[str, Any], opponents: Sequence[str]) -> None:
        """The lines for game ``name``: keeps what was chosen where it still fits."""
        game = load_game(name, **{**PRESENTERS[name].live_defaults, **options})
        names = game_names()
        out = [
            Field(
                "game",
                "Game",
                names,
                names.index(name),
                words={n: PRESENTERS[n].title for n in names},
            )
        ]
        schema = {s.name: s for s in game.option_schema()}
        if "players" in schema:
            low, high = game.min_players, game.max_players
            out.append(
                Field(
                    "players",
                    "Players (you included)",
                    list(range(low, high + 1)),
                    game.players - low,
                    schema["players"].help,
                    schema["players"].rule,
                )
            )
        ladder = levels(game)
        words = [*ladder]
        for given in opponents:
            if given not in words:
                words.append(given)
        for seat in range(1, game.players):
            chosen = opponents[seat - 1] if seat - 1 < len(opponents) else DEFAULT_LEVEL
            out.append(
                Field(
                    f"seat{seat}",
                    f"Player {seat}",
                    words,
                    words.index(chosen) if chosen in words else 0,
                    "The opponent's level (easy, normal, hard, expert), weakest first.",
                )
            )
        out.append(Field("hints", "Hints", [True, False], 0 if self.settings.hints else 1))
        effective = game.options()
        for spec in game.option_schema():
            if spec.name == "players":
                continue
            values = option_values(spec)
            value = effective.get(spec.name)
            out.append(
                Field(
                    spec.name,
                    flag_name(spec.name)[2:],
                    values,
                    values.index(value) if value in values else 0,
                    spec.help,
                    spec.rule,
                )
            )
        self.fields = out

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static("New game", id="title")
            yield OptionList(id="fields")
            yield Static(id="about")
            yield Static(id="error")
            yield Static(
                "↑ ↓ line · ← → or click: change · PgUp PgDn: by ten · Enter: start · Esc: back",
                id="keys",
            )

    def on_mount(self) -> None:
        self.draw(0)
        self.query_one("#fields", OptionList).focus()

    def draw(self, highlighted: int | None = None) -> None:
        fields = self.query_one("#fields", OptionList)
        keep = fields.highlighted if highlighted is None else highlighted
        keep = keep if keep is not None and keep < len(self.fields) else 0
        fields.set_options([Option(self.line(i, i == keep)) for i in range(len(self.fields))])
        fields.highlighted = keep
        self.about()

    def line(self, index: int, highlighted: bool) -> Text:
        """A field's line; the highlighted one marked ``▶`` (seen without colour)."""
        f = self.fields[index]
        width = max(len(x.label) for x in self.fields)
        line = Text("▶ " if highlighted else "  ", style="bold")
        line.append(f"{f.label:<{width}}  ")
        line.append(f"◀ {f.text()} ▶", style="bold")
        return line

    def about(self) -> None:
        fields = self.query_one("#fields", OptionList)
        i = fields.highlighted
        if i is None or i >= len(self.fields):
            return
        f = self.fields[i]
        rule = f" ({f.rule})" if f.rule else ""
        self.query_one("#about", Static).update(f"{f.help}{rule}")

    def on_option_list_option_highlighted(self, message: OptionList.OptionHighlighted) -> None:
        fields = self.query_one("#fields", OptionList)
        for i in range(len(self.fields)):
            fields.replace_option_prompt_at_index(i, self.line(i, i == message.option_index))
        self.about()

    def on_option_list_option_selected(self, message: OptionList.OptionSelected) -> None:
        message.stop()
        self.change(message.option_index, 1)

    def on_key(self, event: Key) -> None:
        fields = self.query_one("#fields", OptionList)
        i = fields.highlighted
        steps = {"left": -1, "right": 1, "pageup": -10, "pagedown": 10}
        if event.key in steps and i is not None:
            event.stop()
            self.change(i, steps[event.key])
        elif event.key == "enter":
            event.stop()
            self.start()
        elif event.key in ("escape", "q"):
            event.stop()
            self.dismiss(None)

    def change(self, index: int, by: int) -> None:
        f = self.fields[index]
        f.step(by)
        if f.name == "game":
            self.given = set()
            self.build(f.value, {}, [])
        elif f.name == "players":
            self.given.add("players")
            opponents = [x.value for x in self.fields if x.name.startswith("seat")]
            self.build(self.fields[0].value, self.chosen_options(), opponents)
        elif not f.name.startswith("seat") and f.name != "hints":
            self.given.add(f.name)
        self.query_one("#error", Static).update("")
        self.draw(index)

    def chosen_options(self) -> dict[str, Any]:
        return {f.name: f.value for f in self.fields if f.name in self.given}

    def result(self) -> Settings:
        """The settings chosen (the engine checks them)."""
        name = self.fields[0].value
        opponents = tuple(Opponent(f.value) for f in self.fields if f.name.startswith("seat"))
        hints = next(f.value for f in self.fields if f.name == "hints")
        return Settings(
            game=name,
            options=self.chosen_options(),
            opponents=opponents,
            seed=None,
            delay=self.settings.delay,
            hints=bool(hints),
            telegraph=self.settings.telegraph if name == self.settings.game else None,
        )

    def start(self) -> None:
        settings = self.result()
        try:
            settings.build()
        except CardGameError as e:
            self.query_one("#error", Static).update(f"{e}")
            self.app.bell()
            return
        self.dismiss(settings)


def command_of(settings: Settings) -> str:
    """The command line that plays these settings again."""
    parts = ["cardtable play", command_name(settings.game)]
    for name, value in settings.options.items():
        parts.append(f"{flag_name(name)} {show_value(value)}")
    return " ".join(parts)
