"""``python -m bridgescore``: the ``bridgescore`` command, where the scripts directory of
the Python it is installed in is not on the PATH (a Windows install, a notebook's kernel)."""

from bridgescore.cli import main

if __name__ == "__main__":
    main()
