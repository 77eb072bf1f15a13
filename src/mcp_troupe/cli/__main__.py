"""``python -m mcp_troupe.cli``: the same as the ``troupe`` script."""

from mcp_troupe.cli import main

raise SystemExit(main())
