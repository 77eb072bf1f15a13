"""Build tests/corpus/benign_real_7.json: the real side of the held-out part ``held-out-6``.

HELD OUT. Never tune the injection scan (rules, weights, thresholds, the learned scorer) on this file or on
anything it prints. It was built in round 10 (2026-12-02) by helper ``heldout6``, who did not read the scan's
rules, its lexicons or its scorer. See docs/security.md, "held-out-6".

Not run by CI (it needs PyPI). Run it by hand to rebuild the file:

    python -m tests.corpus.build_benign_7 --scratch /tmp/heldout6/build [--jobs 2] [--only NAME ...]

PyPI packages only (the part before, held-out-5, was npm only). It reuses the installer and the stdio lister
of :mod:`tests.corpus.build_benign` (each package in its own virtual environment under ``--scratch``,
placeholder credentials only, a throw-away ``HOME``, ``initialize`` then ``tools/list`` following
``nextCursor``, bounded time to install and to list, the server's process group and escaped descendants
ended afterwards) on candidates that no earlier part listed, tried or recorded as failed, under any registry
(``benign_real*.json``, ``benign_tools.json``, ``benign_seen_packages.txt`` and the candidate lists of the
earlier builders); the format test (``tests/unit/test_corpus_held_out_6.py``) holds that line. They were
picked for spread from the PyPI packages named ``*-mcp``/``*-mcp-server`` released in 2026: ERP and law-firm
practice software, statistics offices, energy markets, ham radio, music and 3D tools, Kubernetes, CI,
payments in Kenya, an Indonesian ISP billing system, Chinese and Korean finance and identity services.

A definition identical (name, description, input schema) to one in an earlier benign corpus, or to one listed
earlier in this build, is kept once or not at all: the part must not repeat a definition tuned on.
"""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

from tests.corpus.build_benign import (
    PLACEHOLDER,
    Outcome,
    _safe,
    build_pypi,
    builder_main,
    identities,
    kept_definitions,
    write_document,
)

CORPUS = Path(__file__).resolve().parent
OUT = CORPUS / "benign_real_7.json"
EARLIER = (
    "benign_real.json",
    "benign_real_3.json",
    "benign_real_4.json",
    "benign_real_5.json",
    "benign_real_6.json",
    "benign_tools.json",
)

# (package, extra command-line arguments). MCP servers on PyPI in none of the earlier builds. A candidate that
# needs a real credential, a running service or a network to list its tools fails and is recorded so.
PYPI: list[tuple[str, list[str]]] = [
    ("acumatica-mcp", []),
    ("aipaygent-mcp", []),
    ("ags-mcp-server", []),
    ("activecollab-mcp", []),
    ("actionstep-mcp", []),
    ("abs-mcp", []),
    ("aemo-mcp", []),
    ("aihw-mcp", []),
    ("adif-mcp", []),
    ("aha-mcp", []),
    ("airbyte-mcp", []),
    ("alertmanager-mcp-server", []),
    ("albumentationsx-mcp", []),
    ("aapanel-mcp", []),
    ("accelo-mcp", []),
    ("addy-mcp", []),
    ("affinity-mcp", []),
    ("abraflexi-mcp-server", []),
    ("adb-mcp", []),
    ("ableton-mcp", []),
    ("aerospace-mcp", []),
    ("afya-mcp", []),
    ("agentsumo-mcp", []),
    ("aikount-mcp", []),
    ("almanac-mcp", []),
    ("akfund-mcp", []),
    ("alphakey-mcp-server", []),
    ("agushuju-mcp", []),
    ("accessibility-mcp-server", []),
    ("calcnook-mcp", []),
    ("cloudprice-mcp", []),
    ("connectwise-mcp", []),
    ("failures-mcp", []),
    ("gfa-mcp", []),
    ("golem-3dmcp", []),
    ("graforest-mcp", []),
    ("jenkins-mcp-tools", []),
    ("k8s-mcp-bilbilmyc", []),
    ("lightbill-mcp-server", []),
    ("mastodon-mcp-server", []),
    ("mcp-ambari-api", []),
    ("mcp-tmux", []),
    ("mpesa-mcp", []),
    ("mycase-mcp", []),
    ("overleaf-mcp-plus", []),
    ("patent-intelligence-mcp-server", []),
    ("pptx-mcp", []),
    ("s2-mcp-server", []),
    ("servicenow-platform-mcp", []),
    ("skdev-websearch-mcp", []),
    ("spss-mcp-extended", []),
    ("virtuals-tweepy-mcp", []),
    ("instamcp", []),
    ("nova-data-mcp", []),
    ("30book-mcp", []),
    ("adins-prd-mcp", []),
    ("agentladle-mcp-dart", []),
    ("ai-dictionary-mcp", []),
    ("airflow-mcp-ponder", []),
    ("anyvar-mcp", []),
    ("arr-mcp", []),
    ("asterdex-mcp", []),
    ("audacity-mcp", []),
    ("aws-health-mcp-server", []),
    ("azure-utils-mcp", []),
    ("base2-mcp", []),
    ("blink-camera-mcp", []),
    ("calcing-mcp", []),
    ("cargoeffe-mcp", []),
    ("cerebrohq-mcp", []),
    ("chinese-corpus-mcp", []),
    ("codex-kicad-mcp", []),
    ("core-web-vitals-mcp", []),
    ("cursor-proxmox-mcp", []),
    ("database-mcp-postgres", []),
    ("defistream-mcp", []),
    ("docker-hub-mcp", []),
    ("drheaderplus-mcp", []),
    ("econewsapi-mcp", []),
    ("ersilia-mcp", []),
    ("falsifylab-alpha-mcp", []),
    ("fastocr-mcp", []),
    ("fidibo-mcp", []),
    ("fiverr-mcp-server", []),
    ("freebox-mcp", []),
    ("g2b-mcp-server", []),
    ("gi-mcp", []),
    ("go2rtc-mcp", []),
    ("google-play-vitals-mcp", []),
    ("graphics-mcp", []),
    ("harvest-mcp", []),
    ("holoviz-mcp", []),
    ("ics-calendar-mcp", []),
]

# More variables these candidates ask for before they list anything: placeholders only, and every URL points
# at a closed port of this machine (the build machine reaches no network but the package registries).
CLOSED = "http://127.0.0.1:9"
EXTRA_ENV = {
    name: PLACEHOLDER
    for name in [
        "ACUMATICA_PASSWORD",
        "ACUMATICA_USERNAME",
        "ACTIVECOLLAB_TOKEN",
        "ACTIONSTEP_CLIENT_ID",
        "ACTIONSTEP_CLIENT_SECRET",
        "AHA_API_KEY",
        "AHA_API_TOKEN",
        "AIRBYTE_CLIENT_ID",
        "AIRBYTE_CLIENT_SECRET",
        "AAPANEL_API_KEY",
        "ACCELO_CLIENT_ID",
        "ACCELO_CLIENT_SECRET",
        "ADDY_API_KEY",
        "ANONADDY_API_KEY",
        "AFFINITY_API_KEY",
        "ABRAFLEXI_PASSWORD",
        "AIKOUNT_API_KEY",
        "ALMANAC_API_KEY",
        "ALPHAKEY_API_KEY",
        "AGUSHUJU_TOKEN",
        "CONNECTWISE_PUBLIC_KEY",
        "CONNECTWISE_PRIVATE_KEY",
        "CONNECTWISE_CLIENT_ID",
        "JENKINS_TOKEN",
        "JENKINS_API_TOKEN",
        "LIGHTBILL_API_KEY",
        "MASTODON_ACCESS_TOKEN",
        "AMBARI_PASSWORD",
        "MPESA_CONSUMER_KEY",
        "MPESA_CONSUMER_SECRET",
        "MYCASE_API_KEY",
        "OVERLEAF_TOKEN",
        "S2_API_KEY",
        "SEMANTIC_SCHOLAR_API_KEY",
        "SERVICENOW_PASSWORD",
        "GAME_API_KEY",
        "TWITTER_API_KEY",
        "INSTAGRAM_PASSWORD",
        "GRAFOREST_API_KEY",
        "GFA_API_KEY",
        "CLOUDPRICE_API_KEY",
        "PATENT_API_KEY",
        "AIPAYGENT_API_KEY",
    ]
} | {
    "PIP_DISABLE_PIP_VERSION_CHECK": "1",
    "ACUMATICA_URL": CLOSED,
    "ACUMATICA_BASE_URL": CLOSED,
    "ACTIVECOLLAB_URL": CLOSED,
    "AHA_DOMAIN": "placeholder.example.invalid",
    "AHA_SUBDOMAIN": "placeholder",
    "AAPANEL_URL": CLOSED,
    "ACCELO_DEPLOYMENT": "placeholder",
    "ABRAFLEXI_URL": CLOSED,
    "ABRAFLEXI_USERNAME": "placeholder",
    "ABRAFLEXI_COMPANY": "placeholder",
    "ALERTMANAGER_URL": CLOSED,
    "CONNECTWISE_SITE": "placeholder.example.invalid",
    "CONNECTWISE_COMPANY_ID": "placeholder",
    "JENKINS_URL": CLOSED,
    "JENKINS_USER": "placeholder",
    "JENKINS_USERNAME": "placeholder",
    "LIGHTBILL_BASE_URL": CLOSED,
    "MASTODON_INSTANCE_URL": CLOSED,
    "MASTODON_API_BASE_URL": CLOSED,
    "AMBARI_HOST": "127.0.0.1",
    "AMBARI_PORT": "9",
    "AMBARI_USER": "placeholder",
    "MPESA_ENVIRONMENT": "sandbox",
    "SERVICENOW_INSTANCE_URL": CLOSED,
    "SERVICENOW_INSTANCE": "placeholder.example.invalid",
    "SERVICENOW_USERNAME": "placeholder",
    "INSTAGRAM_USERNAME": "placeholder",
}


# Installs are constrained to ``mcp<2``: many of these servers import ``mcp.server.fastmcp``, which the SDK's
# 2.x line renamed, and pin no upper bound. The constraint sits in each package's own virtual environment
# (its ``pip.conf``), so builds running side by side do not share it. The packages of :data:`MCP2` need the
# 2.x line (the constrained install found no solution) and are installed without it. Each package is recorded
# with its constraint, so a rebuild installs what this one did.
CONSTRAINT = "mcp<2\n"
MCP2: frozenset[str] = frozenset(
    {
        "30book-mcp",
        "accelo-mcp",
        "addy-mcp",
        "adif-mcp",
        "agushuju-mcp",
        "blink-camera-mcp",
        "chinese-corpus-mcp",
        "core-web-vitals-mcp",
        "failures-mcp",
        "fastocr-mcp",
        "fidibo-mcp",
        "skdev-websearch-mcp",
    }
)


def build_constrained(package: str, extra: list[str], scratch: Path) -> Outcome:
    """:func:`build_pypi` with ``mcp<2`` in the package's virtual environment's pip configuration."""
    venv = scratch / "pypi" / _safe(package) / "venv"
    if not (venv / "bin" / "python").exists():
        venv.parent.mkdir(parents=True, exist_ok=True)
        subprocess.run(
            [sys.executable, "-m", "venv", str(venv)], check=True, timeout=120, capture_output=True
        )
    constraints = venv / "constraints.txt"
    constraints.write_text(CONSTRAINT, encoding="utf-8")
    (venv / "pip.conf").write_text(f"[install]\nconstraint = {constraints}\n", encoding="utf-8")
    return build_pypi(package, extra, scratch)


def write(outcomes: dict[tuple[str, str], Outcome], out: Path) -> None:
    """Write the part from every package's outcome: sorted, deduplicated, one tool a line."""
    constrained = frozenset(package for _, package in outcomes if package not in MCP2)
    packages, failed, tools = kept_definitions(outcomes, identities(EARLIER), constrained)
    document = {
        "about": (
            "HELD OUT (part held-out-6): never tune the injection scan on this file. Real MCP tool "
            "definitions listed with tools/list by tests/corpus/build_benign_7.py from PyPI packages that no "
            "earlier corpus used (started over stdio with placeholder credentials). The text is quoted as "
            "test data and belongs to the packages' authors. Do not edit entries."
        ),
        "built": time.strftime("%Y-%m-%d"),
        "packages": packages,
        "failed": failed,
        "tools": tools,
    }
    write_document(document, out)


def main() -> None:
    builder_main(
        __doc__.split("\n\n")[0],
        [(build_pypi if package in MCP2 else build_constrained, package, extra) for package, extra in PYPI],
        write,
        out=OUT,
        scratch=Path("/tmp/heldout6/build"),
        workers=2,
        extra_env=EXTRA_ENV,
        install_timeout=300.0,
    )


if __name__ == "__main__":
    main()
