"""``replay --show`` of a gin rummy record: both hands, then every action
told by the narrator of :mod:`.words` (omnisciently: a stock draw names its
card), then the deadwoods and the returns."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import click

from cardtable._core import Card
from cardtable.cli.game_options import describe_options
from cardtable.cli.presenters.gin_rummy.words import narrate
from cardtable.cli.terminal import signed
from cardtable.games import Game, State
from cardtable.games.gin_rummy import GinRummyGame, GinRummyState


class StoryVoice:
    """Every seat in the third person, with its bot: ``Player 1 (greedy)``."""

    def __init__(self, names: Sequence[str]) -> None:
        self.names = list(names)

    def who(self, seat: int) -> str:
        return f"Player {seat} ({self.names[seat]})"

    def says(self, seat: int, you: str, other: str) -> str:
        return f"{self.who(seat)} {other}"

    def card(self, card: Card) -> str:
        return card.symbol()


def symbols(cards: Sequence[Card]) -> str:
    return " ".join(c.symbol() for c in cards) if cards else "-"


def show_record(game: Game, state: State, names: Sequence[str], record: dict[str, Any]) -> None:
    """A recorded game turn by turn, omnisciently (both hands shown)."""
    assert isinstance(game, GinRummyGame)
    assert isinstance(state, GinRummyState)
    voice = StoryVoice(names)
    who = [voice.who(p) for p in range(2)]
    click.echo(f"Gin Rummy, dealer {who[state.dealer]}; rules: {describe_options(game)}")
    for p in range(2):
        click.echo(f"  {who[p]}: {symbols(state.hand(p))}")
    up = state.upcard
    click.echo(f"  upcard {up.symbol() if up is not None else '-'}, knock card {state.knock_card}")
    actions = record.get("actions")
    if not isinstance(actions, list):
        raise click.ClickException('the record has no "actions" list')
    for i, action in enumerate(actions, 1):
        seat = state.current_player()
        if seat is None:
            raise click.ClickException(f"action {i} comes after the end of the game")
        try:
            info = state.describe_action(action)
            phase = state.phase
            before = set(state.hand(seat))
            state.apply_action(action)
        except (ValueError, TypeError, OverflowError) as e:
            raise click.ClickException(f"action {i} ({action}): {e}") from e
        drawn = [c for c in state.hand(seat) if c not in before] if info.kind == "draw" else []
        line = narrate(voice, seat, info, phase, drawn[0] if drawn else None)
        click.echo(f"  {i:>4}. {line}")
    if state.is_terminal():
        click.echo()
        dead = state.final_deadwood
        if dead is not None:
            click.echo("Deadwood: " + ", ".join(f"{who[p]} {d}" for p, d in enumerate(dead)))
        click.echo(
            f"Ended {state.ending_category}; returns "
            + ", ".join(f"Player {p} {signed(r)}" for p, r in enumerate(state.returns()))
        )
