"""Type stubs of the compiled core (cardtable._core). The public API is in cardtable."""

from collections.abc import Iterable, Iterator, Sequence
from typing import Any, TypeAlias, final, overload

__version__: str
__all__ = [
    "Card",
    "Deadwood",
    "DeadwoodBatch",
    "DeadwoodBatchIterator",
    "Meld",
    "MeldRules",
    "__version__",
    "_meld_rules",
    "all_melds",
    "best_discard",
    "can_go_out",
    "check_meld",
    "deal",
    "derive_seed",
    "format_hand",
    "legal_hits",
    "min_deadwood",
    "min_deadwood_many",
    "parse_hand",
    "score_chunk",
    "score_header",
    "shuffle_many_into",
    "shuffled_deck",
]

@final
class Card:
    def __new__(cls, text: str) -> Card: ...
    @staticmethod
    def from_code(code: int) -> Card: ...
    @property
    def code(self) -> int: ...
    @property
    def rank(self) -> int: ...
    @property
    def suit(self) -> str | None: ...
    @property
    def is_joker(self) -> bool: ...
    @property
    def is_red(self) -> bool: ...
    def symbol(self) -> str: ...
    def __reduce__(self) -> tuple[type[Card], tuple[str]]: ...
    def __lt__(self, value: Card, /) -> bool: ...
    def __le__(self, value: Card, /) -> bool: ...
    def __gt__(self, value: Card, /) -> bool: ...
    def __ge__(self, value: Card, /) -> bool: ...
    def __hash__(self) -> int: ...

_CardLike: TypeAlias = Card | str | int
_HandLike: TypeAlias = str | Iterable[Card | str | int]

@final
class MeldRules:
    def __new__(cls, game: str = "gin", **options: Any) -> MeldRules:
        """Meld rules of a game with options (keyword-only): aces, wild, round,
        max_wilds, all_wild_melds, jokers, face_values, decks. An option set to
        None keeps the game's value; an unknown one raises InvalidConfigError."""
    @property
    def game(self) -> str: ...
    @property
    def decks(self) -> int: ...
    @property
    def jokers(self) -> int: ...
    @property
    def aces(self) -> str: ...
    @property
    def wild(self) -> int | None: ...
    @property
    def wild_by_hand_size(self) -> bool: ...
    @property
    def max_wilds(self) -> int | None: ...
    @property
    def all_wild_melds(self) -> bool: ...
    @property
    def face_values(self) -> str: ...
    @property
    def ace_value(self) -> int: ...
    @property
    def wild_value(self) -> int: ...
    @property
    def joker_value(self) -> int: ...
    def wild_rank_for(self, hand_size: int) -> int | None: ...
    def value(self, card: _CardLike, hand_size: int | None = None) -> int: ...
    def options(self) -> dict[str, Any]: ...
    def __reduce__(self) -> tuple[Any, tuple[str, dict[str, Any]]]: ...
    def __hash__(self) -> int: ...

@final
class Meld:
    def __new__(cls, kind: str, cards: _HandLike, substitutes: Sequence[int] = ...) -> Meld: ...
    @property
    def kind(self) -> str: ...
    @property
    def cards(self) -> tuple[Card, ...]: ...
    @property
    def substitutes(self) -> list[int]: ...
    @property
    def naturals(self) -> tuple[Card, ...]: ...
    @property
    def rank(self) -> int | None: ...
    @property
    def suit(self) -> str | None: ...
    def represents(self, i: int) -> Card | None: ...
    def symbols(self) -> str: ...
    def __len__(self) -> int: ...
    def __iter__(self) -> Iterator[Card]: ...
    def __reduce__(self) -> tuple[type[Meld], tuple[str, str, list[int]]]: ...
    def __hash__(self) -> int: ...

@final
class Deadwood:
    def __new__(
        cls,
        deadwood: int,
        melds: Sequence[Meld],
        unmatched: _HandLike,
        discard: _CardLike | None = None,
    ) -> Deadwood: ...
    @property
    def deadwood(self) -> int: ...
    @property
    def melds(self) -> list[Meld]: ...
    @property
    def unmatched(self) -> tuple[Card, ...]: ...
    @property
    def discard(self) -> Card | None: ...
    def to_dict(self) -> dict[str, Any]: ...
    def __reduce__(
        self,
    ) -> tuple[type[Deadwood], tuple[int, list[Meld], list[Card], Card | None]]: ...

@final
class DeadwoodBatch:
    def __len__(self) -> int: ...
    @overload
    def __getitem__(self, key: int, /) -> Deadwood | None: ...
    @overload
    def __getitem__(self, key: slice, /) -> list[Deadwood | None]: ...
    def __iter__(self) -> Iterator[Deadwood | None]: ...
    @property
    def deadwoods(self) -> list[int | None]: ...
    @property
    def errors(self) -> dict[int, str]: ...

@final
class DeadwoodBatchIterator:
    def __iter__(self) -> DeadwoodBatchIterator: ...
    def __next__(self) -> Deadwood | None: ...

def _meld_rules(game: str, options: dict[str, Any]) -> MeldRules: ...
def parse_hand(text: str) -> list[Card]: ...
def format_hand(hand: _HandLike) -> str: ...
def min_deadwood(
    hand: _HandLike, game: str | None = None, *, rules: MeldRules | None = None, **options: Any
) -> Deadwood:
    """Minimum deadwood of a hand and one optimal arrangement.

    Rules: ``game`` ("gin" by default, "tonk", "three_thirteen") with options,
    or a prepared ``rules=MeldRules(...)``. Ties between optimal arrangements
    follow the documented search order.
    """

def best_discard(
    hand: _HandLike, game: str | None = None, *, rules: MeldRules | None = None, **options: Any
) -> Deadwood:
    """Best discard of a hand holding one card more than its size.

    The discard is part of the search (a minimum over every discard), never
    "best arrangement, then drop the biggest leftover"; ``.discard`` names it.
    With Three Thirteen's wild rank by hand size, the rank follows the hand
    size after the discard.
    """

def can_go_out(
    hand: _HandLike, game: str | None = None, *, rules: MeldRules | None = None, **options: Any
) -> bool:
    """True when some discard leaves every other card in melds (TT-6.1)."""

def all_melds(
    hand: _HandLike, game: str | None = None, *, rules: MeldRules | None = None, **options: Any
) -> list[Meld]:
    """Every distinct meld that can be formed from the hand's cards."""

def check_meld(
    cards: _HandLike,
    game: str | None = None,
    *,
    rules: MeldRules | None = None,
    hand_size: int | None = None,
    **options: Any,
) -> Meld | None:
    """The cards read as one meld (fewest substitutes), or None."""

def legal_hits(
    hand: _HandLike,
    melds: Sequence[Meld],
    game: str | None = None,
    *,
    rules: MeldRules | None = None,
    hand_size: int | None = None,
    **options: Any,
) -> list[tuple[Card, int]]:
    """Cards of the hand that may hit the table melds (TK-8.1), as (card, meld index)."""

def min_deadwood_many(
    hands: Any,
    game: str | None = None,
    *,
    rules: MeldRules | None = None,
    threads: int | None = None,
    errors: str = "raise",
    discard: bool = False,
    **options: Any,
) -> DeadwoodBatch:
    """Minimum deadwood of many hands, in parallel, with the GIL released.

    ``hands`` is a sequence of hands or a 2-D integer array of card codes
    (negative entries are padding). Results come back in input order and
    equal those of :func:`min_deadwood` on each hand, whatever ``threads`` is.
    With ``errors="collect"`` bad hands become None and are listed in
    ``.errors``; with ``"raise"`` the first one raises, naming its index.
    """

def score_chunk(
    data: bytes,
    first_line: int,
    rules: MeldRules,
    format: str,
    file: str | None = None,
    threads: int | None = None,
) -> tuple[bytes, int, int, int]: ...
def score_header(format: str, with_file: bool = False) -> str: ...
def shuffled_deck(seed: int, decks: int = 1, jokers: bool = False) -> list[Card]: ...
def deal(
    seed: int,
    players: int,
    hand_size: int,
    decks: int = 1,
    jokers: bool = False,
    upcard: bool = True,
) -> tuple[list[list[Card]], Card | None, list[Card]]: ...
def shuffle_many_into(
    out: Any, seed: int, decks: int = 1, jokers: bool = False, threads: int | None = None
) -> None: ...
def derive_seed(seed: int, index: int) -> int: ...
