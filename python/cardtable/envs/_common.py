"""What the three kinds of environment share: agent names, spaces, masks,
seeds and the text of a seat's view. Everything about a game comes from the
engine (``cardtable.games``); nothing here knows one game from another."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from gymnasium import logger, spaces
from gymnasium.utils import seeding
from numpy.typing import NDArray

from cardtable._core import Card
from cardtable.games import Game
from cardtable.tables import draw

Observation = dict[str, NDArray[Any]]
"""An agent's observation: ``{"observation": float32 vector, "action_mask": int8 vector}``."""

Action = int | np.integer[Any]
"""An action id: an int, or the numpy integer a ``Discrete`` space samples."""

RENDER_MODES = ["human", "ansi"]
"""``"ansi"``: ``render()`` returns the text of a seat's view; ``"human"``:
it prints that text to stdout and returns None (PettingZoo's convention)."""

DEFAULT_MAX_STEPS = 50_000
"""Every environment's default episode limit, in its own steps (a learner's
decisions, a Parallel form's steps, a real-time game's ticks): a longer
episode is truncated. Random legal play finishes a whole two-player Three
Thirteen game in about 7,000 decisions (the longest of 40 took 9,140), a
Tonk hand in a few dozen; a learner that keeps trying refused actions is
cut here instead of running on. For Spit and Speed the session's own guard
(``max_virtual_ms``: an hour, 36,000 ticks of 100 ms) comes first. ``None``
lifts the limit (the game's own guards still end every game)."""

TURN_BASED_RENDER_FPS = 2
"""Frames a second of a watched turn-based game (its frames are decisions,
not time; PettingZoo's classic board games use 2). A real-time game's is
``1000 / dt``: its virtual clock at wall-clock speed."""


def agent_names(players: int) -> list[str]:
    """``player_0`` .. ``player_{n-1}``: agent ``player_i`` sits at seat ``i``."""
    return [f"player_{seat}" for seat in range(players)]


def is_real_time(game: Game) -> bool:
    """True for a game on the virtual clock (the engine says)."""
    return game.real_time


def new_rng(seed: int | None) -> np.random.Generator:
    """Gymnasium's generator of a seed (None: fresh entropy)."""
    rng, _ = seeding.np_random(seed)
    return rng


def draw_seed(rng: np.random.Generator) -> int:
    """The next engine seed (64 bits) from an environment's generator."""
    return int(rng.integers(0, 2**64, dtype=np.uint64))


def observation_space(game: Game, num_actions: int) -> spaces.Space[Any]:
    """PettingZoo's classic layout: the engine's observation vector and the
    action mask (typed as any space: Gymnasium types a Dict's samples as
    dicts of spaces)."""
    return spaces.Dict(
        {
            "observation": spaces.Box(0.0, 1.0, (game.observation_size(),), np.float32),
            "action_mask": spaces.Box(0, 1, (num_actions,), np.int8),
        }
    )


def action_mask(num_actions: int, legal: Sequence[int]) -> NDArray[np.int8]:
    mask = np.zeros(num_actions, np.int8)
    mask[list(legal)] = 1
    return mask


def check_render_mode(render_mode: str | None) -> str | None:
    if render_mode is not None and render_mode not in RENDER_MODES:
        raise ValueError(f"render_mode {render_mode!r}: the environments render {RENDER_MODES}")
    return render_mode


def check_limit(name: str, limit: int | None) -> int | None:
    if limit is not None and limit < 1:
        raise ValueError(f"{name} must be at least 1 (or None for no limit), got {limit}")
    return limit


def warn_no_render_mode() -> None:
    logger.warn("render() was called without a render_mode: give render_mode='ansi' or 'human'")


def present(render_mode: str, text: str) -> str | None:
    """What ``render()`` gives in ``render_mode``: the text itself
    (``"ansi"``), or None once it is printed (``"human"``)."""
    if render_mode == "human":
        print(text, end="", flush=True)
        return None
    return text


class ViewText:
    """The text of what one seat sees (``render_mode="ansi"``), made from
    ``view(seat)`` only, so it never shows a card hidden from that seat.

    A real-time game is drawn as its table (:mod:`cardtable.tables`, the
    live screen's drawing; "you" is the seat, "bot" the other one). A
    turn-based game's view is written out field by field.
    """

    def __init__(self, game: Game) -> None:
        self.game = game

    def __call__(self, seat: int, view: Any, legal: Sequence[int]) -> str:
        header = f"{self.game.name}: player_{seat}'s view"
        drawn = draw(self.game, view)
        if drawn is not None:
            body = drawn.plain
        else:
            body = "\n".join(
                f"{name}: {_value_text(value)}" for name, value in _fields(view, skip=_SKIPPED)
            )
        moves = ", ".join(self.game.action_to_string(a) for a in legal) or "-"
        return f"{header}\n{body}\nlegal: {moves}\n"


# Shown elsewhere in the text: the header names the seat, the last line the legal moves.
_SKIPPED = frozenset({"seat", "legal_actions"})


def _fields(obj: Any, skip: frozenset[str] = frozenset()) -> list[tuple[str, Any]]:
    """An engine object's public properties, by name."""
    out = []
    for name in dir(obj):
        if name.startswith("_") or name in skip:
            continue
        value = getattr(obj, name)
        if not callable(value):
            out.append((name, value))
    return out


def _value_text(value: Any) -> str:
    if value is None:
        return "-"
    if isinstance(value, Card | str | int | float):
        return str(value)
    if isinstance(value, dict):
        return ", ".join(f"{k}={_value_text(v)}" for k, v in value.items())
    if isinstance(value, list | tuple):
        if not value:
            return "-"
        if all(isinstance(v, Card) for v in value):
            return " ".join(str(v) for v in value)
        if all(v is None or isinstance(v, list | tuple) for v in value):
            return " | ".join(_value_text(v) for v in value)  # one entry per seat or pile
        return "[" + ", ".join(_value_text(v) for v in value) + "]"
    text = str(value)
    if " object at 0x" in text:  # no text form of its own: its properties
        return "{" + ", ".join(f"{k}={_value_text(v)}" for k, v in _fields(value)) + "}"
    return text
