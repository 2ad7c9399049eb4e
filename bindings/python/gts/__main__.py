"""``python3 -m gts``: see gts.cli."""
import sys

from gts.cli import main

if __name__ == "__main__":
    sys.exit(main())
