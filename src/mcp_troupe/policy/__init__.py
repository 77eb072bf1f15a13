"""Pure policy decisions: given tool definitions and config, what is allowed, under which name, at what risk.

Nothing here has a thread, a socket or a clock, and nothing imports the actors, the facade or the CLI.
"""
