"""How every script starts and ends: Ctrl-C or SIGTERM at any moment ends it with 130 or 143, without a traceback."""

from __future__ import annotations

import contextlib
import signal
import sys
from collections.abc import Callable, Iterator


class Terminated(KeyboardInterrupt):
    """SIGTERM (``timeout``, a job scheduler), raised where Ctrl-C would be so the same clean-up runs."""


@contextlib.contextmanager
def sigterm_as_interrupt() -> Iterator[None]:
    """In the block, SIGTERM raises :class:`Terminated` (a ``KeyboardInterrupt``); the old handler is restored."""

    def terminate(signum, frame):
        raise Terminated

    previous = signal.signal(signal.SIGTERM, terminate)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


def run_script(main: Callable[[], int | None]) -> None:
    """Run a script's ``main`` and exit with its status (``None``: 0).

    An interrupt (Ctrl-C, or SIGTERM as :class:`Terminated`) that reaches here prints one line and exits with 130
    or 143, as a shell reports a process killed by SIGINT or SIGTERM. Code that must finish what it started (a
    checkpoint) catches ``KeyboardInterrupt`` itself, finishes and raises it again.
    """
    try:
        with sigterm_as_interrupt():
            status = main()
    except KeyboardInterrupt as interrupt:
        signal.signal(signal.SIGINT, signal.SIG_IGN)  # a second Ctrl-C does not cut the exit short
        terminated = isinstance(interrupt, Terminated)
        print(f"[INFO] {'terminated' if terminated else 'interrupted'}", file=sys.stderr, flush=True)
        sys.exit(128 + (signal.SIGTERM if terminated else signal.SIGINT))
    sys.exit(status or 0)
