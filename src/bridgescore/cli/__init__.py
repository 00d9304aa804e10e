"""The ``bridgescore`` command line.

Each subcommand lives in its own module of this package and is registered on
:data:`app` here; the modules stay thin: parse arguments, call one library
function, format the answer (text by default, ``--json`` for scripts).
"""

from __future__ import annotations

import sys

__all__ = ["main"]


def main() -> None:
    """Entry point of the ``bridgescore`` command."""
    try:
        from bridgescore.cli.commands import COMMANDS, GROUPS, build_app

        # Only the subcommand asked for is imported (none for --version); --help and
        # errors get them all.
        asked = sys.argv[1] if len(sys.argv) > 1 else ""
        if asked in COMMANDS or asked in GROUPS:
            app = build_app([asked])
        else:
            app = build_app([] if asked == "--version" else None)
    except ImportError as error:  # pragma: no cover - depends on what is installed
        missing = getattr(error, "name", None) or str(error)
        print(
            f"bridgescore: the command line needs {missing!r}; "
            "install it with: pip install 'bridgescore[cli]'",
            file=sys.stderr,
        )
        raise SystemExit(2) from None
    app()
