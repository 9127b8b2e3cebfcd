"""``cardtable deal``: print a reproducible deal."""

from __future__ import annotations

import json

import click

from cardtable._core import meld_game_names, meld_option_schema
from cardtable.cli.game_options import WordChoice, param_type
from cardtable.cli.io import EXIT_STATUS_HELP, guarded
from cardtable.deck import deal
from cardtable.errors import CardGameError

# The ranges of --round and --decks are the meld rules' (the engine's schema).
_MELD = {spec.name: spec for spec in meld_option_schema()}


@click.command("deal", epilog=EXIT_STATUS_HELP)
@click.option(
    "--game",
    type=WordChoice(meld_game_names()),
    default="tonk",
    show_default=True,
)
# How many players a deal holds is the engine's to say (at least one, and
# no more than the deck holds hands for).
@click.option("--players", type=int, default=2, show_default=True)
@click.option("--seed", type=click.IntRange(0, 2**64 - 1), help="Seed (default: a fresh one).")
@click.option("--round", "round_", type=param_type(_MELD["round"]), help="Three Thirteen round.")
@click.option("--hand-size", type=click.IntRange(min=1), help="Cards per player.")
@click.option("--decks", type=param_type(_MELD["decks"]), help="Decks (three-thirteen).")
@click.option("--jokers", is_flag=True, help="Two jokers per deck (three-thirteen).")
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["text", "json"]),
    default="text",
    show_default=True,
)
@guarded("deal")
def deal_command(
    game: str,
    players: int,
    seed: int | None,
    round_: int | None,
    hand_size: int | None,
    decks: int | None,
    jokers: bool,
    fmt: str,
) -> None:
    """Shuffle with a seed and deal: the same seed always gives the same deal.

    Seats count from 0, as in the API and in game records: player 0 is the
    first to receive cards (the player left of the dealer).
    """
    try:
        d = deal(
            game,
            players,
            seed,
            round=round_,
            hand_size=hand_size,
            decks=decks,
            jokers=jokers,
        )
    except CardGameError as e:
        raise click.UsageError(str(e)) from e
    if fmt == "json":
        click.echo(json.dumps(d.to_dict()))
        return
    n = len(d.hands[0]) if d.hands else 0
    click.echo(f"{d.game}, {players} players, {n} cards each, seed {d.seed}")
    for i, h in enumerate(d.hands):
        click.echo(f"player {i}: " + " ".join(c.symbol() for c in h))
    if d.upcard is not None:
        click.echo(f"upcard:   {d.upcard.symbol()}")
    click.echo(f"stock:    {len(d.stock)} cards")
