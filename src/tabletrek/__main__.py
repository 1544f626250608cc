"""``python -m tabletrek`` is the ``tabletrek`` command."""

from tabletrek.cli import main

main()
