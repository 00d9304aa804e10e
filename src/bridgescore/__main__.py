"""``python -m bridgescore``: the command line, as the ``bridgescore`` command."""

from bridgescore.cli import main

main()
