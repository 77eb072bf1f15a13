"""``echo_server.py`` whose every ``tools/list`` page is answered after a delay: a server slow to list.

Run it as ``python benchmarks/slow_pages_server.py SECONDS [echo_server options]``. A remote server's round
trip (or a server that builds each page when asked) leaves the client idle between pages; the benchmark's
own server answers each at once. ``ab_first_connect.py --page-delay`` uses it to time the first listing
judged while it is listed (``actors/prejudging.py``) against a server of the first kind.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import echo_server  # the sibling module, found through the path above


def main(argv: list[str]) -> None:
    """Serve like ``echo_server.main(argv[1:])``, each page ``float(argv[0])`` seconds late."""
    delay = float(argv[0])
    answer = echo_server.Catalog.answer

    def slow_answer(self: echo_server.Catalog, message: dict[str, Any]) -> bytes | None:
        time.sleep(delay)
        return answer(self, message)

    echo_server.Catalog.answer = slow_answer  # type: ignore[method-assign]
    echo_server.main(argv[1:])


if __name__ == "__main__":
    main(sys.argv[1:])
