"""``replay --show`` of a Three Thirteen record: each round's hands, every
action told by the narrator of :mod:`.words` (from the actor's own view:
a stock draw names its card), each round's melds and points, the totals."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import click

from cardtable._core import Card
from cardtable.cli.game_options import describe_options
from cardtable.cli.presenters.three_thirteen.words import meld_text, narrate, rank_name, wild_text
from cardtable.cli.terminal import signed
from cardtable.games import Game, State
from cardtable.games.three_thirteen import ThreeThirteenGame, ThreeThirteenState


class StoryVoice:
    """Every seat in the third person, with its bot: ``Player 1 (greedy)``."""

    def __init__(self, names: Sequence[str]) -> None:
        self.names = list(names)

    def who(self, seat: int) -> str:
        return f"Player {seat} ({self.names[seat]})"

    def subject(self, seat: int) -> str:
        return self.who(seat)

    def says(self, seat: int, you: str, other: str) -> str:
        return f"{self.who(seat)} {other}"

    def card(self, card: Card) -> str:
        return card.symbol()


def show_record(game: Game, state: State, names: Sequence[str], record: dict[str, Any]) -> None:
    """A recorded game turn by turn, omnisciently (every hand shown)."""
    assert isinstance(game, ThreeThirteenGame)
    assert isinstance(state, ThreeThirteenState)
    voice = StoryVoice(names)
    who = [voice.who(p) for p in range(game.players)]
    click.echo(
        f"Three Thirteen, {game.players} players, seed {state.seed},"
        f" first dealer {who[state.dealer]}"
    )
    click.echo(f"Rules: {describe_options(game)}")
    actions = record.get("actions")
    if not isinstance(actions, list):
        raise click.ClickException('the record has no "actions" list')
    shown = -1
    for i, action in enumerate(actions, 1):
        if state.round != shown:
            shown = state.round
            click.echo()
            click.echo(
                f"Round {state.round + 1}: {state.cards_dealt} cards, "
                f"{rank_name(state.wild_rank)}s wild, dealer {who[state.round_dealer]}"
            )
            for p in range(game.players):
                view = state.view(p)
                hand = " ".join(wild_text(c, view) for c in view.hand)
                click.echo(f"  {who[p]}: {hand}")
        seat = state.current_player()
        if seat is None:
            raise click.ClickException(f"action {i} comes after the end of the game")
        try:
            info = state.describe_action(action)
            before = state.view(seat)
            state.apply_action(action)
        except (ValueError, TypeError, OverflowError) as e:
            raise click.ClickException(f"action {i} ({action}): {e}") from e
        after = state.view(seat)
        drawn = None
        if info.kind == "draw" and after.round == before.round:
            got = [c for c in after.hand if after.hand.count(c) > before.hand.count(c)]
            drawn = got[0] if got else None
        click.echo(f"  {i:>4}. {narrate(voice, seat, info, before, after, drawn)}")
        result = state.last_round
        if result is not None and (state.round != shown or state.is_terminal()):
            for p, seat_result in enumerate(result.seats):
                melds = "  ".join(f"[{meld_text(m, result)}]" for m in seat_result.melds)
                click.echo(f"      {who[p]}: {melds or '-'} -> {seat_result.points} points")
    click.echo()
    click.echo("Totals: " + ", ".join(f"{who[p]} {t}" for p, t in enumerate(state.totals)))
    if state.is_terminal():
        click.echo(
            f"Ended {state.ending_category}; returns "
            + ", ".join(f"Player {p} {signed(r)}" for p, r in enumerate(state.returns()))
        )
