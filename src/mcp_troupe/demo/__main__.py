"""Run the demo server: ``python -m mcp_troupe.demo [flags]``."""

from mcp_troupe.demo.server import main

if __name__ == "__main__":
    raise SystemExit(main())
