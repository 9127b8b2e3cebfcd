"""``replay --show`` for real-time games: every commit with its virtual time,
who made it, what it was (with the card it moved, when the action names a
pile), and whether it landed or bounced (RT-5, RT-11)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import click

from cardtable.cli.terminal import signed
from cardtable.games import Game, State


def real_time_simulate_help(title: str) -> str:
    """``simulate`` help for a real-time game: the same words for each."""
    return f"""Play {title} bots against each other on the virtual clock.

    Each deal is played once per rotation of the seats, paired by deal: per
    bot the win rate and the return per game with 95% confidence intervals,
    the mean game length in virtual seconds, and how games ended (--bots
    says how bots are written). The same seed gives the same numbers for any
    --threads.
    """


def show_timed_record(
    game: Game, state: State, names: Sequence[str], record: dict[str, Any]
) -> None:
    """Tells a record of timed events (``state`` is its first state)."""
    events = record.get("events")
    if not isinstance(events, list):
        raise click.ClickException('the record has no "events" list')
    who = [f"Player {p} ({names[p]})" for p in range(game.players)]
    click.echo(f"{game.name}, seed {record.get('seed')}: {' against '.join(who)}")
    for i, event in enumerate(events, 1):
        try:
            at, seat, action, bounced = (int(event[0]), int(event[1]), int(event[2]), event[3])
            text = game.action_to_string(action)
        except (TypeError, ValueError, IndexError, OverflowError) as e:
            raise click.ClickException(f"event {i} is not [at, seat, action, bounced]: {e}") from e
        # Version 2 records name the card moved after the four (Spit's
        # actions name piles, not cards; Speed's name their cards already).
        moved = str(event[4]) if len(event) > 4 else ""
        card = f" [{moved}]" if moved and moved not in text.split() else ""
        outcome = "  (bounced)" if bounced else ""
        click.echo(
            f"  {at / 1000:8.3f} s  {who[seat] if seat < len(who) else seat}: {text}{card}{outcome}"
        )
    result = record.get("result")
    if isinstance(result, dict):
        returns = result.get("returns", [])
        click.echo(
            f"Ended {result.get('ending')}; returns "
            + ", ".join(f"Player {p} {signed(int(r))}" for p, r in enumerate(returns))
        )
