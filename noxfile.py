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
    """Side-by-side benchmarks against the official SDK client and a raw pipe."""
    session.install("-e", ".[dev]")
    session.run("python", "benchmarks/bench_stdio.py", *session.posargs)
