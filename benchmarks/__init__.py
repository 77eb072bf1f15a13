"""Side-by-side benchmarks of mcp-troupe, the official MCP Python SDK client and a raw-pipe floor.

``python benchmarks/run_all.py [--quick]`` (or ``nox -s bench``) runs every figure; see docs/performance.md.
Modules: ``stats`` (figures, medians, percentiles, ratios, the JSON report), ``servers`` (the servers and
their launchers), ``clients`` (the clients behind one interface), and one module per figure group:
``bench_stdio``, ``bench_http``, ``bench_connect``, ``bench_scale``.
"""
