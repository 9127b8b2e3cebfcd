"""``replay --show`` of a Tonk record: the deal, every turn told by the
narrator of :mod:`.words` (omnisciently: a stock draw names its card), the
drop windows and the spades bet, the ending and the settlement."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import click

from cardtable._core import Card
from cardtable.cli.game_options import describe_options
from cardtable.cli.presenters.tonk.words import PASS, Tabletop, ending_sentence, narrate
from cardtable.cli.terminal import signed, sort_hand
from cardtable.errors import CardGameError
from cardtable.games.tonk import TonkEnding, TonkGame, TonkState


def sorted_cards(cards: Sequence[Card]) -> str:
    return " ".join(c.symbol() for c in sort_hand(cards)) if cards else "-"


class TonkRecordShow:
    """Prints one record turn by turn, omnisciently; every seat in the
    third person (the narrator's voice)."""

    def __init__(
        self, game: TonkGame, state: TonkState, names: Sequence[str], record: dict[str, Any]
    ) -> None:
        self.record = record
        self.game = game
        self.state = state
        self.players = game.players
        self.names = list(names)

    # --- the voice --------------------------------------------------------------

    def who(self, p: int) -> str:
        return f"Player {p} ({self.names[p]})"

    def says(self, p: int, you: str, other: str) -> str:
        """``Player 2 (greedy) draws``."""
        return f"{self.who(p)} {other}"

    def verb(self, p: int, you: str, other: str) -> str:
        return other

    def whose(self, p: int) -> str:
        return f"{self.who(p)}'s"

    def card(self, card: Card) -> str:
        return card.symbol()

    # --- the story --------------------------------------------------------------

    def run(self) -> None:
        s = self.state
        deal = f"seed {s.seed}" if "deck" not in self.record else "a stacked deck"
        click.echo(f"Tonk, {self.players} players, {deal}, dealer {self.who(s.dealer)}")
        click.echo(f"Rules: {describe_options(self.game)}")
        click.echo("Deal:")
        for p in range(self.players):
            click.echo(f"  {self.who(p)}: {sorted_cards(s.hand(p))}  (count {s.count(p)})")
        top = s.discard_pile[-1].symbol() if s.discard_pile else "none"
        click.echo(f"  upcard: {top}   stock: {s.stock_size} cards")
        actions = self.record.get("actions")
        if not isinstance(actions, list):
            raise click.ClickException('the record has no "actions" list')
        turn = 0
        passes: list[int] = []
        # Actions are numbered from 1, as in the errors of replay_record.
        total = len(actions)
        for i, action in enumerate(actions, start=1):
            actor = s.current_player()
            if actor is None:
                raise click.ClickException(
                    f"action {i} of {total} ({action}): the hand is already over"
                )
            try:
                info = s.describe_action(action)
            except (CardGameError, TypeError, OverflowError) as e:
                raise click.ClickException(f"action {i} of {total} ({action}): {e}") from e
            if passes and (action != PASS or s.phase != "drop_window"):
                self.flush_passes(passes)
            if s.phase == "turn_start" and actor == s.turn_player:
                turn += 1
                click.echo(
                    f"Turn {turn}: {self.who(actor)}  hand {sorted_cards(s.hand(actor))}"
                    f" (count {s.count(actor)})"
                )
            phase_before = s.phase
            hand_before = s.hand(actor)
            before = Tabletop.of(s)
            try:
                s.apply_action(action)
            except (CardGameError, TypeError, OverflowError) as e:
                raise click.ClickException(f"action {i} of {total} ({action}): {e}") from e
            if action == PASS and s.phase != "over":
                passes.append(actor)
                continue
            drawn = (
                [c for c in s.hand(actor) if c not in hand_before] if info.kind == "draw" else []
            )
            line = narrate(
                self,
                actor,
                info,
                before,
                Tabletop.of(s),
                drawn[0] if drawn and info.kind == "draw" else None,
                stock_count=True,
            )
            click.echo(f"  {line}")
            if phase_before == "spades" and s.phase != "spades":
                self.spades()
        self.flush_passes(passes)
        self.ending()

    def spades(self) -> None:
        view = self.state.view(0)
        if not view.spades_in:
            click.echo("  spades bet: nobody in")
        for p in view.spades_in:
            card = view.spades_shown[p]
            click.echo(f"  spades bet: {self.who(p)} shows {card.symbol() if card else 'no spade'}")

    def flush_passes(self, passes: list[int]) -> None:
        if passes:
            click.echo("  drop window: " + ", ".join(f"Player {p}" for p in passes) + " pass")
            passes.clear()

    def ending_text(self, ending: TonkEnding) -> str:
        return ending_sentence(ending, self, self.game.options())

    def ending(self) -> None:
        s = self.state
        ending = s.ending
        if ending is None:
            click.echo(f"The record stops before the end (phase {s.phase}).")
            return
        click.echo(f"Ending: {ending['category']} - {self.ending_text(ending)}")
        for p in range(self.players):
            click.echo(f"  {self.who(p)}: {sorted_cards(s.hand(p))}  (count {s.count(p)})")
        for title, transfers in (
            ("Settlement", s.settlement()),
            ("Spades bet", s.side_bet_settlement()),
        ):
            if transfers or title == "Settlement":
                click.echo(f"{title}:" + ("" if transfers else " nobody pays"))
            for payer, payee, units in transfers:
                money = self.game.money(units)
                click.echo(f"  Player {payer} pays Player {payee} {money} ({units}s)")
        click.echo(
            "Returns: " + ", ".join(f"Player {p} {signed(r)}" for p, r in enumerate(s.returns()))
        )
