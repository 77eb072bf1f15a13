"""Developer sessions: `nox -s tests`, `lint`, `typecheck`, `demo`, `bench`.

Each session installs the project into its own virtualenv, so they work on a fresh machine.
"""

from __future__ import annotations

import nox

nox.options.sessions = ["tests", "lint", "typecheck"]
nox.options.reuse_existing_virtualenvs = True

SOURCES = ["src", "tests", "benchmarks", "noxfile.py"]


@nox.session
def tests(session: nox.Session) -> None:
    """Run the whole test suite (pass pytest options after --, e.g. `-- -m 'not interop'`)."""
    session.install("-e", ".[dev]")
    session.run("python", "-m", "pytest", *session.posargs)


@nox.session
def lint(session: nox.Session) -> None:
    """ruff: lint and formatting."""
    session.install("ruff")
    session.run("ruff", "check", *SOURCES)
    session.run("ruff", "format", "--check", *SOURCES)


@nox.session
def typecheck(session: nox.Session) -> None:
    """mypy --strict on src/."""
    session.install("-e", ".[dev]")
    session.run("mypy")


@nox.session
def demo(session: nox.Session) -> None:
    """`troupe demo` against the bundled demo server."""
    session.install("-e", ".")
    session.run("troupe", "demo", *session.posargs)


@nox.session
def bench(session: nox.Session) -> None:
    """Every benchmark figure side by side with the official SDK and a raw floor (`-- --quick`: CI size).

    Prints `name value unit` lines and writes benchmarks/results/latest.json; see docs/performance.md.
    """
    session.install("-e", ".[dev]")
    session.run("python", "benchmarks/run_all.py", *session.posargs)


@nox.session
def conformance(session: nox.Session) -> None:
    """The official MCP conformance suite's client scenarios, each run in a private network namespace.

    Installs Node.js 22 and the pinned npm packages into `.cache/` first (see `tests/interop/npm.py`).
    """
    session.install("-e", ".[dev]")
    session.run("python", "-m", "tests.interop.npm")
    session.run("python", "-m", "pytest", "-m", "conformance", "tests/conformance", *session.posargs)
