"""Build tests/corpus/benign_real_9.json: the real side of the held-out part ``held-out-8``.

HELD OUT. Never tune the injection scan (rules, weights, thresholds, the learned scorer) on this file or on
anything it prints. It was built in stop 27 (2026-12-04) by helper ``heldout8``, who did not read the scan's
rules, its lexicons or its scorer. See docs/security.md, "held-out-8".

Not run by CI (it needs PyPI). Run it by hand to rebuild the file, with ``uv`` on ``PATH`` (``pip install
uv``; it was built so), the packages of :data:`MCP2` in a run of their own, then merge the runs' progress:

    python -m tests.corpus.build_benign_9 --scratch /tmp/heldout8/build --only $(all but MCP2)
    python -m tests.corpus.build_benign_9 --scratch /tmp/heldout8/build2 --only $(MCP2)
    python -m tests.corpus.build_benign_9 --merge /tmp/heldout8/build/progress.jsonl \
        /tmp/heldout8/build2/progress.jsonl

PyPI packages only (the part before, held-out-7, was npm only). It reuses the installer and the stdio lister
of :mod:`tests.corpus.build_benign` (each package in its own virtual environment under ``--scratch``,
placeholder credentials only, a throw-away ``HOME``, ``initialize`` then ``tools/list`` following
``nextCursor``, bounded time to install and to list, the server's process group and escaped descendants
ended afterwards), with the SDK held to ``mcp<2`` as in held-out-6 (:func:`build_constrained`), on
candidates that no earlier part listed, tried or recorded as failed, under any registry
(``benign_real*.json``, ``benign_tools.json``, ``benign_seen_packages.txt`` and the candidate lists of the
earlier builders); the format test (``tests/unit/test_corpus_held_out_8.py``) holds that line.

The candidates were drawn, by a hash of the name rather than by hand, from the PyPI packages named
``*-mcp``, ``*-mcp-server``, ``mcp-*`` or ``mcp-server-*`` released in 2026 whose summary calls them a
server (names and summaries that say SDK, client, proxy, gateway, framework, template or test were left
out, as were Windows-only servers and the ``iflow-mcp-*`` re-publications of other projects). Many of them
need Python 3.12 or later, a running service, a real credential or the network to list anything; they fail
and are recorded with the reason. The first draw's early results gave about five definitions a candidate, so
a second draw (the last part of :data:`PYPI`) was taken the same way from the packages whose summary names
ten or more tools.

At most :data:`MAX_PER_PACKAGE` definitions of one package are kept
(:func:`tests.corpus.build_benign_8.capped`), so that the part's false-positive rate is not mostly one
package's phrasing.

A definition identical (name, description, input schema) to one in an earlier benign corpus, or to one listed
earlier in this build, is kept once or not at all: the part must not repeat a definition tuned on.
"""

from __future__ import annotations

import shutil
import time
from pathlib import Path

from tests.corpus.build_benign import (
    PLACEHOLDER,
    PLACEHOLDER_ENV,
    Outcome,
    build_pypi,
    builder_main,
    identities,
    kept_definitions,
    write_document,
)
from tests.corpus.build_benign_7 import CONSTRAINT
from tests.corpus.build_benign_7 import build_constrained as build_pip_constrained
from tests.corpus.build_benign_8 import capped

CORPUS = Path(__file__).resolve().parent
OUT = CORPUS / "benign_real_9.json"
EARLIER = (
    "benign_real.json",
    "benign_real_3.json",
    "benign_real_4.json",
    "benign_real_5.json",
    "benign_real_6.json",
    "benign_real_7.json",
    "benign_real_8.json",
    "benign_tools.json",
)

# (package, extra command-line arguments). MCP servers on PyPI in none of the earlier builds. A candidate that
# needs a real credential, a running service or a network to list its tools fails and is recorded so.
PYPI: list[tuple[str, list[str]]] = [
    ("rvce-report-mcp", []),
    ("awslabs-amazon-qbusiness-anonymous-mcp-server", []),
    ("refcheck-mcp", []),
    ("forrt-research-mcp", []),
    ("atlassian-confluence-mcp", []),
    ("smarter-mcp", []),
    ("ogmem-rag-mcp", []),
    ("nautobot-mcp", []),
    ("openshock-mcp", []),
    ("mcp-code-intel", []),
    ("mcp-tool-web-search", []),
    ("anumana-mcp", []),
    ("frame-mcp", []),
    ("waikay-mcp", []),
    ("leadgreen-mcp", []),
    ("list-smith-mcp", []),
    ("vibe-sunsang-mcp", []),
    ("mcp-bcrp", []),
    ("mcp-k8s-deployer", []),
    ("obot-card-verify-mcp", []),
    ("basecamp-mcp", []),
    ("unesco-mcp", []),
    ("thoughtspot-mcp", []),
    ("tw-patent-mcp", []),
    ("fca-mcp", []),
    ("memoraeu-mcp", []),
    ("bharatpay-mcp", []),
    ("finviz-market-mcp", []),
    ("instagram-data-mcp", []),
    ("dataxplan-mcp", []),
    ("invoice-rpa-mcp", []),
    ("mcp-odoo-jsonrpc", []),
    ("odoo-sh-mcp", []),
    ("kk-mcp", []),
    ("wave-mcp", []),
    ("iso20022-evidence-pack-mcp", []),
    ("aws-mcp", []),
    ("pycli-mcp", []),
    ("cellartracker-mcp", []),
    ("bls-oews-mcp", []),
    ("redmine-mcp-server", []),
    ("zotero-mcp", []),
    ("jdatamunch-mcp", []),
    ("nextcloud-organizer-mcp", []),
    ("csv-token-counter-mcp", []),
    ("memory-nexus-mcp", []),
    ("hotkv-mcp", []),
    ("degiro-mcp", []),
    ("molcompose-mcp", []),
    ("tibet-triage-mcp", []),
    ("mistral-ocr-mcp", []),
    ("mcp-server-apache-airflow", []),
    ("substack-api-mcp", []),
    ("clr-arista-mcp", []),
    ("openclaw-skill-vetter-mcp", []),
    ("firefly-iii-mcp", []),
    ("astron-toutiao-mcp", []),
    ("openbusdata-mcp", []),
    ("harvest-forecast-mcp", []),
    ("mcp-ros2-logs", []),
    ("mcp-hotel-smart-recommend", []),
    ("tappy-mcp", []),
    ("mcp-aktools", []),
    ("mcp-minimax", []),
    ("jira-service-desk-mcp", []),
    ("awslabs-oracle-mcp-server", []),
    ("web-retrieval-mcp", []),
    ("legalis-mcp", []),
    ("grp-kb-mcp", []),
    ("openscad-mcp-server", []),
    ("code-editor-mcp", []),
    ("modelchoice-mcp", []),
    ("mlops-mcp-server", []),
    ("bear-mcp", []),
    ("fpl-mcp-server", []),
    ("redfox-kuaishou-mcp", []),
    ("mcp-feedback-webui", []),
    ("mcp-people-finder", []),
    ("dg-mcp", []),
    ("clickup-rest-mcp", []),
    ("decimalai-mcp", []),
    ("regulationsgov-mcp", []),
    ("elephantasm-mcp", []),
    ("tickerrisk-mcp", []),
    ("netdiag-mcp", []),
    ("mnemo-mcp", []),
    ("ableton-auto-mix-mcp", []),
    ("paperdaily-mcp", []),
    ("tokymaker-mcp", []),
    ("mcp-server-logseq", []),
    ("remote-debug-mcp", []),
    ("wmilvus-mcp", []),
    ("dma-mcp", []),
    ("adcirc-mcp", []),
    ("jaimenbell-discord-mcp", []),
    ("ragnet-mcp", []),
    ("patreon-mcp-server", []),
    ("mineru-converter-mcp-server", []),
    ("colabhive-mcp", []),
    ("aurastream-mcp", []),
    ("remoteshell-mcp", []),
    ("mcp-mysql-query", []),
    ("google-news-trends-mcp", []),
    ("youtube-complete-mcp", []),
    ("mqtt-mcp", []),
    ("couchdb-mcp-server", []),
    ("nano-easm-mcp", []),
    ("langgraph-context-mcp", []),
    ("axiome-mcp", []),
    ("adiffy-meta-ads-mcp", []),
    ("obsidian2vector-mcp", []),
    ("apple-messages-mcp", []),
    ("xiaohongshu-mcp-server", []),
    ("colab-cli-mcp", []),
    ("verify-atom-mcp", []),
    ("mcp-base64", []),
    ("pve-mcp", []),
    ("discrete-structures-mcp", []),
    ("otel-analyzer-mcp", []),
    ("sitepulsar-mcp", []),
    ("dreadster3-youtube-mcp", []),
    ("ai-self-audit-mcp", []),
    ("ai2human-mcp", []),
    ("abap-adt-mcp", []),
    ("langobs-mcp", []),
    ("ifeedback-mcp", []),
    ("conductor-graph-mcp", []),
    ("vin-decode-mcp", []),
    ("searxng-http-mcp", []),
    ("mcp-vm-blackbox", []),
    ("opentelemetry-mcp", []),
    ("cura-mcp", []),
    ("torob-mcp", []),
    ("mcp-server-mikrotik", []),
    ("cheongyak-rag-mcp", []),
    ("mcp-trove-crunchtools", []),
    ("copilot-image-gen-mcp", []),
    ("msrashed-prometheus-mcp-server", []),
    ("au-eli-mcp", []),
    ("storesignal-mcp", []),
    ("mcp-serve", []),
    ("easyship-mcp", []),
    ("kimai-mcp", []),
    ("pythonparts-mcp", []),
    ("nutrition-mcp-server", []),
    ("hermes-prime-mcp", []),
    ("mcp-appstore-server", []),
    ("confluence-rag-mcp", []),
    ("blender-studio-pro-mcp", []),
    ("open-greenhouse-mcp", []),
    ("typleaf-mcp", []),
    ("nr-mcp", []),
    ("diptrace-mcp", []),
    ("open-assembly-mcp", []),
    ("tell-mcp", []),
    ("ct-databricks-mcp-server", []),
    ("mcp-ssh-session", []),
    ("amazon-orders-mcp", []),
    ("sparkplug-b-mcp-server", []),
    ("mcp-server-wxa4z", []),
    ("avanza-mcp", []),
    ("morfiade-mcp", []),
    ("mcp-abacus", []),
    ("lazy-mcp", []),
    ("mcp-server-for-powershell", []),
    ("mcpcn-video-cover-mcp", []),
    ("mcp-pdf-vision", []),
    ("gridpane-mcp", []),
    ("cli-wrap-mcp", []),
    ("bearnotes-mcp", []),
    ("ai-tool-call-integrity-cost-receipt-mcp", []),
    ("laogu-mcp", []),
    ("tbcontracts-mcp", []),
    ("mcp-server-zefix", []),
    ("sceptre-mcp-server", []),
    ("sentisift-mcp", []),
    ("modbus-connector-mcp", []),
    ("searchconsole-mcp", []),
    ("openfda-mcp", []),
    ("mcp-proto-okn", []),
    ("sports-betting-mcp", []),
    ("acsearch-mcp", []),
    ("crypto-tracker-ai-mcp", []),
    ("familysearch-mcp", []),
    ("dmc-mcp-server", []),
    ("academic-assistant-mcp", []),
    ("mcp-filesystem-encoding", []),
    ("linkup-company-research-mcp", []),
    ("mcp-office-excel", []),
    ("muawyiya-math-mcp-server", []),
    # The second batch: the first gave fewer definitions a package than the earlier PyPI part, so these were
    # drawn (by a hash of the name) from the same kind of packages whose summary names ten or more tools.
    ("msty-admin-mcp", []),
    ("bitcoin-mcp", []),
    ("vectrade-mcp", []),
    ("ue5rc-mcp", []),
    ("influenceflow-mcp", []),
    ("tapetide-mcp", []),
    ("gobox-mcp", []),
    ("connectwise-sell-mcp", []),
    ("python-gitlab-mcp", []),
    ("wb-mcp-server", []),
    ("sap-bdc-mcp-server", []),
    ("nexus-mods-mcp", []),
    ("portainer-mcp", []),
    ("jira-admin-mcp", []),
    ("wiki-js-mcp-server", []),
    ("sdv-mcp", []),
    ("pawangunjkar-jenkins-mcp", []),
    ("mcp-freshbooks", []),
    ("topease-mcp", []),
    ("ru-legal-skills-mcp", []),
    ("fd-daas-mcp", []),
    ("trading212-mcp-server", []),
    ("mcp-woocommerce", []),
    ("server-guardian-mcp", []),
    ("donetick-mcp", []),
    ("shopline-mcp", []),
    ("telethon-mcp", []),
    ("mcp-stealth-chrome", []),
    ("ms-graph-mcp", []),
    ("zurich-opendata-mcp", []),
    ("gmc-mcp", []),
    ("hebbianvault-mcp", []),
    ("mcp-cwa", []),
    ("mcp-mailchimp", []),
    ("kaggle-mcp-server", []),
    ("atlassian-mcp", []),
    ("sumo-logic-mcp", []),
    ("resolve-mcp", []),
    ("oxford-ledge-mcp", []),
    ("meta-ads-mcp-server", []),
    ("zra-mcp", []),
    ("openproject-mcp-server", []),
    ("gwas-mcp", []),
    ("uipath-orchestrator-mcp", []),
    ("signal-mcp", []),
    ("mcp-f1", []),
    ("mcp-defectdojo", []),
    ("ozon-mcp-server", []),
    ("amazing-marvin-complete-mcp", []),
    ("crowdsentinel-mcp-server", []),
    ("mcp-server-unipile", []),
    ("finstatement-mcp", []),
    ("mcp-nettools", []),
    ("fyipedia-mcp", []),
    ("localthink-mcp", []),
    ("instagram-mcp-server", []),
    ("mythic-index-mcp", []),
    ("rug-munch-mcp", []),
    ("seleniumboot-mcp", []),
    ("mcp-server-codetree", []),
    ("k8s-mcp", []),
    ("mcp-activecampaign", []),
    ("pawangunjkar-linux-ssh-mcp", []),
    ("nnsay-qweather-mcp", []),
    ("google-play-console-mcp", []),
    ("mcp-server-ecommerce", []),
    ("sn-patterns-mcp", []),
    ("homebrew-mcp", []),
    ("ai-crypto-sniper-mcp", []),
]

# More variables these candidates ask for before they list anything: placeholders only, and every URL points
# at a closed port of this machine (the build machine reaches no network but the package registries).
CLOSED = "http://127.0.0.1:9"
EXTRA_ENV = {
    name: PLACEHOLDER
    for name in [
        "CONFLUENCE_TOKEN",
        "CONFLUENCE_PAT",
        "NAUTOBOT_TOKEN",
        "THOUGHTSPOT_TOKEN",
        "BASECAMP_ACCESS_TOKEN",
        "FCA_API_KEY",
        "FCA_EMAIL",
        "INSTAGRAM_API_KEY",
        "FASTSOCIAL_API_KEY",
        "ODOO_API_KEY",
        "ODOO_PASSWORD",
        "REDMINE_API_KEY",
        "HARVEST_ACCESS_TOKEN",
        "HARVEST_ACCOUNT_ID",
        "FORECAST_ACCOUNT_ID",
        "MISTRAL_API_KEY",
        "FIREFLY_TOKEN",
        "FIREFLY_III_TOKEN",
        "FIREFLY_III_PAT",
        "JIRA_EMAIL",
        "CLICKUP_API_TOKEN",
        "CLICKUP_API_KEY",
        "REGULATIONS_GOV_API_KEY",
        "ELEPHANTASM_API_KEY",
        "PAPERDAILY_API_KEY",
        "LOGSEQ_API_TOKEN",
        "PATREON_ACCESS_TOKEN",
        "YOUTUBE_API_KEY",
        "DISCORD_TOKEN",
        "DISCORD_BOT_TOKEN",
        "KIMAI_API_TOKEN",
        "EASYSHIP_API_KEY",
        "EASYSHIP_ACCESS_TOKEN",
        "GREENHOUSE_API_KEY",
        "USDA_API_KEY",
        "PROXMOX_TOKEN_ID",
        "PROXMOX_TOKEN_SECRET",
        "PVE_TOKEN_ID",
        "PVE_TOKEN_SECRET",
        "MIKROTIK_PASSWORD",
        "MIKROTIK_USER",
        "GRIDPANE_API_TOKEN",
        "SENTISIFT_API_KEY",
        "STORESIGNAL_API_KEY",
        "WAIKAY_API_KEY",
        "MEMORAEU_API_KEY",
        "OGMEM_API_KEY",
        "DEGIRO_USERNAME",
        "DEGIRO_PASSWORD",
        "NEWS_API_KEY",
        "NEWSAPI_KEY",
        "OPENWEATHER_API_KEY",
        "SEARXNG_URL",
        "TYPLEAF_API_KEY",
        "SUBSTACK_API_KEY",
        "AVANZA_API_KEY",
        "TELL_API_KEY",
        "COLABHIVE_API_KEY",
        "AURASTREAM_API_KEY",
        "DECIMALAI_API_KEY",
        "LANGOBS_API_KEY",
        "AI2HUMAN_API_KEY",
        "AXIOME_API_KEY",
        "META_ACCESS_TOKEN",
        "XHS_COOKIE",
        "COUCHDB_PASSWORD",
        "MQTT_PASSWORD",
        "PROMETHEUS_TOKEN",
        "DATABRICKS_TOKEN",
        "SAP_PASSWORD",
        "ABAP_PASSWORD",
        "CELLARTRACKER_PASSWORD",
        "AMAZON_PASSWORD",
        "FAMILYSEARCH_TOKEN",
        "ACSEARCH_API_KEY",
        "OPENSHOCK_API_TOKEN",
        "EXA_API_KEY",
        "BLS_API_KEY",
    ]
} | {
    "PIP_DISABLE_PIP_VERSION_CHECK": "1",
    "CONFLUENCE_BASE_URL": CLOSED,
    "NAUTOBOT_URL": CLOSED,
    "THOUGHTSPOT_URL": CLOSED,
    "THOUGHTSPOT_HOST": CLOSED,
    "ODOO_URL": CLOSED,
    "ODOO_DB": "placeholder",
    "ODOO_USERNAME": "placeholder",
    "REDMINE_URL": CLOSED,
    "FIREFLY_URL": CLOSED,
    "FIREFLY_III_URL": CLOSED,
    "FIREFLY_III_BASE_URL": CLOSED,
    "JIRA_BASE_URL": CLOSED,
    "KIMAI_URL": CLOSED,
    "KIMAI_BASE_URL": CLOSED,
    "PROXMOX_HOST": "127.0.0.1",
    "PVE_HOST": "127.0.0.1",
    "MIKROTIK_HOST": "127.0.0.1",
    "NODE_RED_URL": CLOSED,
    "COUCHDB_URL": CLOSED,
    "COUCHDB_USER": "placeholder",
    "MQTT_HOST": "127.0.0.1",
    "MQTT_BROKER": "127.0.0.1",
    "MQTT_PORT": "9",
    "PROMETHEUS_URL": CLOSED,
    "DATABRICKS_HOST": CLOSED,
    "SAP_URL": CLOSED,
    "SAP_USER": "placeholder",
    "MILVUS_URI": CLOSED,
    "AIRFLOW_HOST": CLOSED,
    "AIRFLOW_USERNAME": "placeholder",
    "AIRFLOW_PASSWORD": PLACEHOLDER,
    "KAFKA_BOOTSTRAP_SERVERS": "127.0.0.1:9",
    "HOTKV_URL": "redis://127.0.0.1:9",
    "LOGSEQ_API_URL": CLOSED,
    "OLLAMA_HOST": CLOSED,
    "SEARXNG_BASE_URL": CLOSED,
    "DEGIRO_TOTP_SECRET": "placeholder",
    "MYSQL_HOST": "127.0.0.1",
    "MYSQL_PORT": "9",
}

# At most this many definitions of one package are kept, as in held-out-7: uncapped, one generated catalog
# could make the part's false-positive rate mostly that package's phrasing.
MAX_PER_PACKAGE = 150

# The packages installed without the ``mcp<2`` constraint: they need the SDK's 2.x line (the constrained
# install found no solution). Every other package is installed with it, and recorded so.
MCP2: frozenset[str] = frozenset(
    {
        "abap-adt-mcp",
        "ai-tool-call-integrity-cost-receipt-mcp",
        "amazon-orders-mcp",
        "apple-messages-mcp",
        "aurastream-mcp",
        "degiro-mcp",
        "familysearch-mcp",
        "google-play-console-mcp",
        "langgraph-context-mcp",
        "molcompose-mcp",
        "tbcontracts-mcp",
        "torob-mcp",
        "typleaf-mcp",
        "zurich-opendata-mcp",
    }
)


def build_constrained(package: str, extra: list[str], scratch: Path) -> Outcome:
    """:func:`build_pypi` with the SDK held to ``mcp<2``.

    With ``uv`` on ``PATH`` (``build_pypi`` then installs with it) the constraint is a file in ``scratch``
    named by ``UV_CONSTRAINT``, and uv's cache is shared by the packages in ``scratch/uv-cache``: the build
    machine is shared, and pip's resolution and byte-compiling of the same SDK and its dependencies in every
    package's own environment took minutes a package. Without ``uv``, held-out-6's way: ``pip`` with the
    constraint in each environment's ``pip.conf``."""
    if shutil.which("uv") is None:
        return build_pip_constrained(package, extra, scratch)
    constraints = scratch / "constraints.txt"
    if not constraints.exists():
        scratch.mkdir(parents=True, exist_ok=True)
        constraints.write_text(CONSTRAINT, encoding="utf-8")
    # The same values for every package of a build, so setting them from several threads is harmless.
    PLACEHOLDER_ENV.update({"UV_CONSTRAINT": str(constraints), "UV_CACHE_DIR": str(scratch / "uv-cache")})
    return build_pypi(package, extra, scratch)


def build_unconstrained(package: str, extra: list[str], scratch: Path) -> Outcome:
    """:func:`build_pypi` for a package of :data:`MCP2`, which needs the SDK's 2.x line.

    uv's constraint is process-wide (:func:`build_constrained`), so these are built in a run of their own
    (``--only`` them); one that would install after a constrained build of the same run fails instead,
    saying so, rather than being installed under a constraint its record does not name."""
    if "UV_CONSTRAINT" in PLACEHOLDER_ENV:
        return Outcome(package, "pypi", error="build the MCP2 packages in a run of their own (--only them)")
    return build_pypi(package, extra, scratch)


def write(outcomes: dict[tuple[str, str], Outcome], out: Path) -> None:
    """Write the part from every package's outcome: sorted, deduplicated, capped per package, one tool a
    line."""
    constrained = frozenset(package for _, package in outcomes if package not in MCP2)
    packages, failed, tools = kept_definitions(outcomes, identities(EARLIER), constrained)
    tools = capped(packages, tools, MAX_PER_PACKAGE)
    document = {
        "about": (
            "HELD OUT (part held-out-8): never tune the injection scan on this file. Real MCP tool "
            "definitions listed with tools/list by tests/corpus/build_benign_9.py from PyPI packages that no "
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
        [
            (build_unconstrained if package in MCP2 else build_constrained, package, extra)
            for package, extra in PYPI
        ],
        write,
        out=OUT,
        scratch=Path("/tmp/heldout8/build"),
        workers=4,
        extra_env=EXTRA_ENV,
        install_timeout=240.0,
    )


if __name__ == "__main__":
    main()
