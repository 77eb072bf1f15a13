"""Build tests/corpus/benign_real_4.json: the real side of the held-out part ``held-out-4``.

HELD OUT. Never tune the injection scan (rules, weights, thresholds, the learned scorer) on this file or on
anything it prints. It was built in round 7 (2026-12-02) by helper ``heldout4``, who did not read the scan's
rules, its lexicons or its scorer. See docs/security.md, "held-out-4".

Not run by CI (it needs PyPI). Run it by hand to rebuild the file:

    python -m tests.corpus.build_benign_4 --scratch /tmp/corpus-build-4 [--jobs 2] [--only NAME ...]

PyPI packages only (npm was another helper's this round). It reuses the installer and the stdio lister of
:mod:`tests.corpus.build_benign` (each package in its own virtual environment under ``--scratch``,
placeholder credentials only, a throw-away ``HOME``, ``initialize`` then ``tools/list`` following
``nextCursor``, bounded time to install and to list, the server's whole process group killed afterwards) on
candidates that no earlier build listed, tried or recorded as failed (``benign_real.json``,
``benign_real_3.json``, ``benign_seen_packages.txt`` and the candidate lists of ``build_benign.py`` and
``build_benign_3.py``); the format test (``tests/unit/test_corpus_held_out_4.py``) holds that line.

A definition identical (name, description, input schema) to one in an earlier benign corpus, or to one listed
earlier in this build, is kept once or not at all: the part must not repeat a tuning definition.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

from tests.corpus.build_benign import (
    PLACEHOLDER,
    PLACEHOLDER_ENV,
    Outcome,
    build_pypi,
    identities,
    kept_definitions,
    run_builds,
    write_document,
)

CORPUS = Path(__file__).resolve().parent
OUT = CORPUS / "benign_real_4.json"
EARLIER = ("benign_real.json", "benign_real_3.json", "benign_tools.json")

# (package, extra command-line arguments). MCP servers on PyPI, published or updated since mid-2025, in none
# of the earlier builds; chosen for spread (databases, clouds, office, finance, science, chat, devices,
# games) rather than for the chance of listing without a service. SDKs, frameworks and proxies were left
# out. A candidate that needs a real credential or service to list its tools fails and is recorded.
PYPI: list[tuple[str, list[str]]] = [
    ("elasticsearch-mcp-server", []),
    ("hass-mcp", []),
    ("things-mcp", []),
    ("kubectl-mcp-server", []),
    ("mcp-alchemy", []),
    ("mssql-mcp-server", []),
    ("mcp-server-reddit", []),
    ("semantic-scholar-mcp", []),
    ("awslabs-amazon-sns-sqs-mcp-server", []),
    ("awslabs-amazon-mq-mcp-server", []),
    ("awslabs-aurora-dsql-mcp-server", []),
    ("awslabs-amazon-keyspaces-mcp-server", []),
    ("awslabs-aws-healthomics-mcp-server", []),
    ("awslabs-finch-mcp-server", []),
    ("awslabs-aws-appsync-mcp-server", []),
    ("awslabs-aws-iot-sitewise-mcp-server", []),
    ("notion-mcp", []),
    ("mcp-server-splunk", []),
    ("datadog-mcp", []),
    ("mcp-server-youtube", []),
    ("mcp-server-spotify", []),
    ("kafka-mcp", []),
    ("mcp-server-ssh", []),
    ("mcp-scholar", []),
    ("ticktick-mcp", []),
    ("github-mcp", []),
    ("mcp-gitlab", []),
    ("mcp-server-bitbucket", []),
    ("ansible-mcp", []),
    ("mcp-proxmox", []),
    ("sonarqube-mcp", []),
    ("s3-mcp", []),
    ("mcp-server-digitalocean", []),
    ("mcp-server-trello", []),
    ("trello-mcp", []),
    ("mcp-server-outlook", []),
    ("sharepoint-mcp", []),
    ("anki-mcp", []),
    ("yfinance-mcp", []),
    ("fred-mcp", []),
    ("sec-edgar-mcp", []),
    ("edgar-mcp", []),
    ("maps-mcp", []),
    ("garmin-mcp", []),
    ("chess-mcp", []),
    ("steam-mcp", []),
    ("matrix-mcp", []),
    ("apple-mcp", []),
    ("toggl-mcp", []),
    ("email-mcp", []),
    ("mailchimp-mcp", []),
    ("ghost-mcp", []),
    ("mcp-server-odoo", []),
    ("odoo-mcp", []),
    ("quickbooks-mcp", []),
    ("dagster-mcp", []),
    ("trino-mcp", []),
    ("couchbase-mcp-server", []),
    ("mcp-server-starrocks", []),
    ("searxng-mcp", []),
    ("crossref-mcp", []),
    ("fda-mcp", []),
    ("clinicaltrials-mcp", []),
    ("mcp-server-toggl", []),
    ("mcp-memgraph", []),
    ("influxdb-mcp", []),
    ("mcp-server-plaid", []),
    ("fhir-mcp", []),
    # The second tranche, tried after the first showed that about half fail on this machine (Python 3.11,
    # and many servers already require 3.12 or 3.13).
    ("mcp-weather", []),
    ("mongo-mcp", []),
    ("ssh-mcp", []),
    ("oracle-mcp", []),
    ("twitter-mcp", []),
    ("hackernews-mcp", []),
    ("mcp-server-pubmed", []),
    ("obsidian-mcp", []),
    ("mcp-server-nmap", []),
    ("shodan-mcp", []),
    ("semgrep-mcp", []),
    ("weaviate-mcp", []),
    ("qdrant-mcp", []),
    ("mcp-server-openai", []),
    ("mcp-server-whisper", []),
    ("godot-mcp", []),
    ("clickup-mcp", []),
    ("mcp-server-monday", []),
    ("slack-mcp", []),
    ("outlook-mcp", []),
    ("mcp-server-sharepoint", []),
    ("mcp-server-anki", []),
    ("mcp-server-rss", []),
    ("stock-mcp", []),
    ("binance-mcp", []),
    ("mcp-server-yfinance", []),
    ("alphavantage-mcp", []),
    ("geo-mcp", []),
    ("mcp-server-steam", []),
    ("mcp-server-matrix", []),
    ("n8n-mcp-server", []),
    ("mcp-server-make", []),
    ("google-search-mcp", []),
    ("serper-mcp-server", []),
    ("mcp-tavily", []),
    ("mcp-server-notion", []),
    ("mcp-server-jira", []),
    ("newrelic-mcp", []),
    ("proxmox-mcp", []),
    ("mcp-server-sms", []),
]

# More variables these candidates ask for before they list anything: placeholders only, and every URL points
# at a closed port of this machine (the build machine reaches no network but the package registries).
CLOSED = "http://127.0.0.1:9"
EXTRA_ENV = {
    name: PLACEHOLDER
    for name in [
        "HA_TOKEN",
        "HASS_TOKEN",
        "SPLUNK_TOKEN",
        "SPLUNK_PASSWORD",
        "SPOTIFY_CLIENT_ID",
        "SPOTIFY_CLIENT_SECRET",
        "YOUTUBE_API_KEY",
        "TICKTICK_CLIENT_ID",
        "TICKTICK_CLIENT_SECRET",
        "SONARQUBE_TOKEN",
        "DIGITALOCEAN_API_TOKEN",
        "DIGITALOCEAN_TOKEN",
        "PROXMOX_TOKEN_NAME",
        "PROXMOX_TOKEN_VALUE",
        "PROXMOX_PASSWORD",
        "TOGGL_API_TOKEN",
        "TOGGL_API_KEY",
        "MAILCHIMP_API_KEY",
        "GHOST_ADMIN_API_KEY",
        "GHOST_API_KEY",
        "ODOO_API_KEY",
        "ODOO_PASSWORD",
        "QUICKBOOKS_CLIENT_ID",
        "QUICKBOOKS_CLIENT_SECRET",
        "FRED_API_KEY",
        "GOOGLE_MAPS_API_KEY",
        "SEMANTIC_SCHOLAR_API_KEY",
        "STEAM_API_KEY",
        "MATRIX_ACCESS_TOKEN",
        "PLAID_CLIENT_ID",
        "PLAID_SECRET",
        "DAGSTER_API_TOKEN",
        "NOTION_API_TOKEN",
        "GARMIN_PASSWORD",
        "EMAIL_PASSWORD",
        "SHAREPOINT_CLIENT_SECRET",
        "AZURE_CLIENT_SECRET",
        "AWS_ACCESS_KEY_ID",
        "AWS_SECRET_ACCESS_KEY",
        "ELASTICSEARCH_PASSWORD",
        "MSSQL_PASSWORD",
        "COUCHBASE_PASSWORD",
        "CB_PASSWORD",
        "STARROCKS_PASSWORD",
        "TRINO_PASSWORD",
        "INFLUXDB_TOKEN",
        "MEMGRAPH_PASSWORD",
        "ANKI_API_KEY",
        "SEC_EDGAR_USER_AGENT",
        "TRELLO_API_SECRET",
        "BITBUCKET_API_TOKEN",
        "GITLAB_API_TOKEN",
        "DATADOG_SITE_KEY",
    ]
} | {
    "AWS_REGION": "us-east-1",
    "AWS_DEFAULT_REGION": "us-east-1",
    "HA_URL": CLOSED,
    "HASS_URL": CLOSED,
    "ELASTICSEARCH_HOSTS": CLOSED,
    "ELASTICSEARCH_USERNAME": "placeholder",
    "OPENSEARCH_HOSTS": CLOSED,
    "SPLUNK_HOST": "127.0.0.1",
    "SPLUNK_URL": CLOSED,
    "DB_URL": "sqlite:///:memory:",
    "MSSQL_HOST": "127.0.0.1",
    "MSSQL_USER": "placeholder",
    "MSSQL_DATABASE": "placeholder",
    "KAFKA_BOOTSTRAP_SERVERS": "127.0.0.1:9",
    "PROXMOX_HOST": "127.0.0.1",
    "PROXMOX_URL": CLOSED,
    "PROXMOX_USER": "placeholder@pve",
    "SONARQUBE_URL": CLOSED,
    "ODOO_URL": CLOSED,
    "ODOO_DB": "placeholder",
    "ODOO_USER": "placeholder",
    "ODOO_USERNAME": "placeholder",
    "GHOST_API_URL": CLOSED,
    "GHOST_URL": CLOSED,
    "DAGSTER_URL": CLOSED,
    "DAGSTER_GRAPHQL_URL": CLOSED,
    "TRINO_HOST": "127.0.0.1",
    "TRINO_PORT": "9",
    "TRINO_USER": "placeholder",
    "CB_CONNECTION_STRING": "couchbase://127.0.0.1",
    "CB_USERNAME": "placeholder",
    "CB_BUCKET_NAME": "placeholder",
    "STARROCKS_HOST": "127.0.0.1",
    "STARROCKS_PORT": "9",
    "STARROCKS_USER": "placeholder",
    "SEARXNG_INSTANCE_URL": CLOSED,
    "SEARXNG_URL": CLOSED,
    "INFLUXDB_URL": CLOSED,
    "INFLUXDB_ORG": "placeholder",
    "MEMGRAPH_URL": "bolt://127.0.0.1:9",
    "MATRIX_HOMESERVER_URL": CLOSED,
    "MATRIX_USER_ID": "@placeholder:example.invalid",
    "EMAIL_ADDRESS": "placeholder@example.invalid",
    "EMAIL_USERNAME": "placeholder@example.invalid",
    "IMAP_HOST": "127.0.0.1",
    "SMTP_HOST": "127.0.0.1",
    "GARMIN_EMAIL": "placeholder@example.invalid",
    "GITLAB_URL": CLOSED,
    "BITBUCKET_WORKSPACE": "placeholder",
    "BITBUCKET_EMAIL": "placeholder@example.invalid",
    "FHIR_BASE_URL": CLOSED,
    "FHIR_SERVER_URL": CLOSED,
    "PLAID_ENV": "sandbox",
    "ANKI_CONNECT_URL": CLOSED,
    "SHAREPOINT_SITE_URL": CLOSED,
    "AZURE_TENANT_ID": "00000000-0000-0000-0000-000000000000",
    "AZURE_CLIENT_ID": "00000000-0000-0000-0000-000000000000",
    "SEC_EDGAR_USER_AGENT": "placeholder placeholder@example.invalid",
}


def write(
    outcomes: dict[tuple[str, str], Outcome], out: Path, constrained: frozenset[str] = frozenset()
) -> None:
    """Write the part from every package's outcome: sorted, deduplicated, one tool a line. A package in
    ``constrained`` was installed with ``mcp<2`` (recorded with it, so the build can be repeated)."""
    packages, failed, tools = kept_definitions(outcomes, identities(EARLIER), constrained)
    document = {
        "about": (
            "HELD OUT (part held-out-4): never tune the injection scan on this file. Real MCP tool "
            "definitions listed with tools/list by tests/corpus/build_benign_4.py from PyPI packages that no "
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
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--scratch", type=Path, default=Path("/tmp/corpus-build-4"))
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--only", nargs="*", help="build only these packages")
    parser.add_argument("--out", type=Path, default=OUT)
    parser.add_argument(
        "--constraint",
        type=Path,
        help="a pip/uv constraints file for the installs (the second pass used one line, 'mcp<2': many "
        "servers import mcp.server.fastmcp, which the mcp 2.x SDK renamed, and do not pin mcp)",
    )
    parser.add_argument(
        "--merge",
        nargs="*",
        type=Path,
        help="write --out from these progress files (progress.jsonl in a scratch folder) instead of building",
    )
    parser.add_argument(
        "--merge-constrained",
        nargs="*",
        type=Path,
        default=[],
        help="more progress files, of builds run with --constraint; merged after --merge, so a package that "
        "failed there and listed its tools here is kept, marked with its constraint",
    )
    options = parser.parse_args()
    PLACEHOLDER_ENV.update(EXTRA_ENV)
    if options.constraint:
        # Read by the installer (uv or pip) only; the servers ignore it.
        constraint = str(options.constraint.resolve())
        PLACEHOLDER_ENV.update({"UV_CONSTRAINT": constraint, "PIP_CONSTRAINT": constraint})
    outcomes: dict[tuple[str, str], Outcome] = {}
    if options.merge is not None:
        constrained: set[str] = set()
        for progress in [*options.merge, *options.merge_constrained]:
            for line in progress.read_text(encoding="utf-8").splitlines():
                outcome = Outcome(**json.loads(line))
                if (outcome.registry, outcome.package) in outcomes and not outcome.tools:
                    continue  # a retry that failed again does not hide a first outcome's reason
                outcomes[(outcome.registry, outcome.package)] = outcome
                if progress in options.merge_constrained:
                    constrained.add(outcome.package)
                else:
                    constrained.discard(outcome.package)
        write(outcomes, options.out, frozenset(constrained))
        return
    scratch = options.scratch.resolve()
    if scratch.is_relative_to(CORPUS.parents[1]):
        parser.error("--scratch must be outside the repository")
    jobs = [(package, extra) for package, extra in PYPI if not options.only or package in options.only]
    # Each outcome is appended to a progress file as it comes, so a long build can be inspected or merged.
    outcomes.update(
        run_builds([(build_pypi, package, extra) for package, extra in jobs], scratch, options.jobs)
    )
    write(outcomes, options.out)


if __name__ == "__main__":
    main()
