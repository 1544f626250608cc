"""``python -m tabletrek`` is the ``tabletrek`` command."""

from tabletrek.cli.command import main

main()
