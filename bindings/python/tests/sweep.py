"""The number of cases of a long sweep, as tests/tgame.h's tgame_count()
for the C suites: @n divided by the environment's GTS_TEST_DIVISOR (a
positive integer; scripts/sanitize sets it, where every node costs many
times more and what it looks for does not need every case), never below 1.
Unset, 1 or anything else: every case (the README's test command)."""
import os


def sweep_count(n):
    try:
        div = int(os.environ.get("GTS_TEST_DIVISOR", "1"))
    except ValueError:
        div = 1
    return n if div <= 1 else max(1, n // div)
