"""``httpx``, imported without its command-line client.

``httpx/__init__.py`` imports ``httpx._main`` for its ``httpx`` command, and that module imports ``click``,
``rich`` and ``pygments`` whenever they are installed, as they often are beside an agent: about 50 ms of CPU
and 6 MB of memory in every process that connects an HTTP server, for a command that never runs in it
(issue 18: a gateway's start and memory). When this is the process's first import of httpx, ``httpx._main``
is marked absent for that one import, so httpx binds the ``main`` it defines for a missing client, and the
mark is removed at once: a later ``import httpx._main`` loads the real one. When httpx is imported already,
this changes nothing. The ``httpx`` command itself runs in a process of its own, untouched.

Every module of mcp-troupe takes httpx from here (``from mcp_troupe._httpx import httpx``).
"""

from __future__ import annotations

import sys

__all__ = ["httpx"]

_CLIENT = "httpx._main"

if "httpx" not in sys.modules and _CLIENT not in sys.modules:
    sys.modules[_CLIENT] = None  # type: ignore[assignment]  # (an import of it raises ImportError)
    try:
        import httpx
    finally:
        if sys.modules.get(_CLIENT, _CLIENT) is None:
            del sys.modules[_CLIENT]
else:
    import httpx
