"""``python -m cardtable`` runs the CLI."""

from cardtable.cli import main

main()
