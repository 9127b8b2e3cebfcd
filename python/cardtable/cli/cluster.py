"""``--ray [ADDRESS]`` and ``--shards``: running ``simulate`` and ``score``
on a Ray cluster (``cardtable.distributed``)."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any, TypeVar

import click

F = TypeVar("F", bound=Callable[..., Any])

#: What ``--ray`` with no address stands for: the cluster Ray finds
#: (RAY_ADDRESS, a running local one) or a new local one.
LOCAL = ""

_ADDRESS = re.compile(r"^(auto|local|ray://\S+|\S+:\d+)$")


def _check_address(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
    if value is None or value == LOCAL or _ADDRESS.match(value):
        return value
    raise click.BadParameter(
        f"{value!r} is not a Ray address (HOST:PORT, ray://HOST:PORT, auto or local); "
        "give it as --ray=ADDRESS, or put a bare --ray after the other arguments"
    )


def ray_options(shards_of: str | None) -> Callable[[F], F]:
    """``--ray [ADDRESS]``, and ``--shards N`` for a command that cuts
    ``shards_of`` into that many tasks."""

    def wrap(f: F) -> F:
        if shards_of is not None:
            f = click.option(
                "--shards",
                type=click.IntRange(min=1),
                help=f"With --ray: how many Ray tasks to cut the {shards_of} into "
                "(default: four per CPU of the cluster).",
            )(f)
        return click.option(
            "--ray",
            "ray_address",
            is_flag=False,
            flag_value=LOCAL,
            default=None,
            metavar="[ADDRESS]",
            callback=_check_address,
            help="Run on the Ray cluster at ADDRESS (ray.init(address=...)), or with no "
            "address on the one Ray finds or a new local one. Needs "
            "pip install 'cardtable[ray]'.",
        )(f)

    return wrap


def require() -> None:
    """A usage error if Ray is not installed (checked before any output is opened)."""
    from cardtable import distributed  # imported for --ray only, not at every start

    try:
        distributed.require_ray()
    except ImportError as e:
        raise click.UsageError(f"--ray: {e}") from e


def connect(address: str) -> None:
    """Connects to the cluster of ``--ray``; a usage error if Ray is missing."""
    import logging

    from cardtable import distributed

    require()
    try:
        distributed.connect(address or None, log_to_driver=False, logging_level=logging.WARNING)
    except ConnectionError as e:
        raise click.UsageError(f"--ray: cannot reach the Ray cluster at {address!r}: {e}") from e
