"""Build tests/corpus/benign_real_3.json: the real side of the held-out part ``held-out-3``.

HELD OUT. Never tune the injection scan (rules, weights, thresholds, the learned scorer) on this file or on
anything it prints. It was built in round 5 (2026-12-02) by helper ``corpusg``, who did not read the scan's
rules, and it was measured once, blind, on the scan of commit ce5c4fb. See docs/security.md, "held-out-3".

Not run by CI (it needs the npm registry and PyPI). Run it by hand to rebuild the file:

    python -m tests.corpus.build_benign_3 --scratch /tmp/corpus-build-3 [--jobs 3] [--only NAME ...]

It reuses the installer and the stdio lister of :mod:`tests.corpus.build_benign` (each package in its own
directory under ``--scratch``, placeholder credentials only, a throw-away ``HOME``, ``initialize`` then
``tools/list`` following ``nextCursor``, the server's whole process group killed afterwards) on a fresh list
of candidates: packages that are in none of the earlier benign corpora, neither listed nor failed there
(``benign_real.json``, ``benign_seen_packages.txt``, the candidates of ``build_benign.py``). The format test
(``tests/unit/test_corpus_held_out_3.py``) holds that line.

A definition that is identical (name, description, input schema) to one already in ``benign_real.json`` or
``benign_tools.json``, or to one listed earlier in this build, is kept once or not at all: the part must not
repeat a tuning definition.
"""

from __future__ import annotations

import time
from pathlib import Path

from tests.corpus.build_benign import (
    PLACEHOLDER,
    Outcome,
    build_npm,
    build_pypi,
    builder_main,
    identities,
    kept_definitions,
    write_document,
)

CORPUS = Path(__file__).resolve().parent
OUT = CORPUS / "benign_real_3.json"

# (package, extra command-line arguments). Chosen from the more downloaded MCP server packages of each
# registry that no earlier build tried; SDKs, frameworks, proxies and clients were left out. A candidate that
# needs a real credential or service to list its tools fails and is recorded under ``failed``.
NPM: list[tuple[str, list[str]]] = [
    ("@pandacss/mcp", []),
    ("@softeria/ms-365-mcp-server", []),
    ("@remotion/mcp", []),
    ("@piotr-agier/google-drive-mcp", []),
    ("@mondaydotcomorg/monday-api-mcp", ["--token", PLACEHOLDER]),
    ("argocd-mcp", ["stdio"]),
    ("@brightdata/mcp", []),
    ("mcp-mermaid", []),
    ("@openbnb/mcp-server-airbnb", []),
    ("@atlassian-dc-mcp/jira", []),
    ("@atlassian-dc-mcp/confluence", []),
    ("@atlassian-dc-mcp/bitbucket", []),
    ("@pinecone-database/mcp", []),
    ("@postman/postman-mcp-server", []),
    ("airtable-mcp-server", []),
    ("@roychri/mcp-server-asana", []),
    ("@agentdeskai/browser-tools-mcp", []),
    ("fetcher-mcp", []),
    ("@mui/mcp", []),
    ("@netlify/mcp", []),
    ("replicate-mcp", []),
    ("figma-console-mcp", []),
    ("mcp-deepwiki", []),
    ("reddit-mcp-buddy", []),
    ("@nexus2520/bitbucket-mcp-server", []),
    ("linear-mcp", []),
    ("@negokaz/excel-mcp-server", []),
    ("hostinger-api-mcp", []),
    ("@sylphx/pdf-reader-mcp", []),
    ("@primeuix/mcp", []),
    ("@tiberriver256/mcp-server-azure-devops", []),
    ("@primeng/mcp", []),
    ("@googlemaps/code-assist-mcp", []),
    ("backlog-mcp-server", []),
    ("@shopify/dev-mcp", []),
    ("@skanda-yutori/mcp-send-email", []),
    ("flightradar-mcp-server", []),
    ("@prmichaelsen/remember-mcp", []),
    ("supabase-mcp", []),
    ("@google-cloud/gcloud-mcp", []),
    ("@google-cloud/observability-mcp", []),
    ("@sveltejs/mcp", []),
    ("agentation-mcp", []),
    ("ios-simulator-mcp", []),
    ("mcpcosmosdb", []),
    ("@testsprite/testsprite-mcp", []),
]

# More variables this round's candidates insist on before they list anything; placeholders only, and none
# reaches a real service (the build machine reaches no network but the package registries).
EXTRA_ENV = {
    name: PLACEHOLDER
    for name in [
        "POSTMAN_API_KEY",
        "ASANA_ACCESS_TOKEN",
        "MONDAY_TOKEN",
        "AIRTABLE_API_KEY",
        "REPLICATE_API_TOKEN",
        "NETLIFY_PERSONAL_ACCESS_TOKEN",
        "LINEAR_API_KEY",
        "HOSTINGER_API_TOKEN",
        "API_TOKEN",
        "BACKLOG_API_KEY",
        "RESEND_API_KEY",
        "FIGMA_ACCESS_TOKEN",
        "SUPABASE_KEY",
        "PINECONE_API_KEY",
        "ELEVENLABS_API_KEY",
        "MINIMAX_API_KEY",
        "SENTRY_AUTH_TOKEN",
        "WOLFRAM_API_KEY",
        "WOLFRAM_APP_ID",
        "ALPACA_API_KEY",
        "ALPACA_SECRET_KEY",
        "MEM0_API_KEY",
        "OUTLINE_API_KEY",
        "AZURE_DEVOPS_PAT",
        "ARGOCD_API_TOKEN",
        "TESTSPRITE_API_KEY",
        "BITBUCKET_USERNAME",
        "BITBUCKET_APP_PASSWORD",
    ]
} | {
    "BACKLOG_DOMAIN": "placeholder.backlog.invalid",
    "SUPABASE_URL": "http://127.0.0.1:9",
    "PROMETHEUS_URL": "http://127.0.0.1:9",
    "OUTLINE_API_URL": "http://127.0.0.1:9",
    "ARGOCD_BASE_URL": "http://127.0.0.1:9",
    "AZURE_DEVOPS_ORG_URL": "http://127.0.0.1:9",
    "MINIMAX_API_HOST": "http://127.0.0.1:9",
    "AZURE_DEVOPS_AUTH_METHOD": "pat",
}

PYPI: list[tuple[str, list[str]]] = [
    ("mcp-pandoc", []),
    ("awslabs-aws-serverless-mcp-server", []),
    ("awslabs-prometheus-mcp-server", []),
    ("awslabs-aws-support-mcp-server", []),
    ("awslabs-mysql-mcp-server", []),
    ("awslabs-elasticache-mcp-server", []),
    ("awslabs-documentdb-mcp-server", []),
    ("mcp-text-editor", []),
    ("mcp-shell-server", []),
    ("wikipedia-mcp", []),
    ("elevenlabs-mcp", []),
    ("minimax-mcp", []),
    ("mcp-neo4j-data-modeling", []),
    ("mcp-snowflake-server", []),
    ("mcp-server-sentry", []),
    ("mcp-server-aidd", []),
    ("paper-search-mcp", []),
    ("mcp-simple-arxiv", []),
    ("mcp-google-sheets", []),
    ("mcp-server-rabbitmq", []),
    ("mcp-server-bigquery", []),
    ("alpaca-mcp-server", []),
    ("web-forager", []),
    ("mcp-wolfram-alpha", []),
    ("mcp-graphql", []),
    ("redis-mcp-server", []),
    ("mcp-email-server", []),
    ("mem0-mcp-server", []),
    ("mcp-outline", []),
    ("prometheus-mcp-server", []),
    ("mcp-gsuite", []),
    ("mcp-sentry", []),
    ("youtube-transcript-mcp", []),
]


def write(outcomes: dict[tuple[str, str], Outcome], out: Path) -> None:
    """Write the part from every package's outcome: sorted, deduplicated, one tool a line."""
    packages, failed, tools = kept_definitions(
        outcomes, identities(("benign_real.json", "benign_tools.json"))
    )
    document = {
        "about": (
            "HELD OUT (part held-out-3): never tune the injection scan on this file. Real MCP tool "
            "definitions listed with tools/list by tests/corpus/build_benign_3.py from npm and PyPI packages "
            "that no earlier corpus used (started over stdio with placeholder credentials). The text is "
            "quoted as test data and belongs to the packages' authors. Do not edit entries."
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
        [(build_npm, package, extra) for package, extra in NPM]
        + [(build_pypi, package, extra) for package, extra in PYPI],
        write,
        out=OUT,
        scratch=Path("/tmp/corpus-build-3"),
        workers=3,
        extra_env=EXTRA_ENV,
    )


if __name__ == "__main__":
    main()
