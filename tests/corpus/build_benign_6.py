"""Build tests/corpus/benign_real_6.json: the real side of the held-out part ``held-out-5``.

HELD OUT. Never tune the injection scan (rules, weights, thresholds, the learned scorer) on this file or on
anything it prints. It was built in round 8 (2026-12-02) by helper ``heldout5``, who did not read the scan's
rules, its lexicons or its scorer. See docs/security.md, "held-out-5".

Not run by CI (it needs the npm registry). Run it by hand to rebuild the file:

    python -m tests.corpus.build_benign_6 --scratch /tmp/heldout5/build [--jobs 2] [--only NAME ...]

npm packages only. It reuses the installer and the stdio lister of :mod:`tests.corpus.build_benign` (each
package in its own directory under ``--scratch``, placeholder credentials only, a throw-away ``HOME``,
``initialize`` then ``tools/list`` following ``nextCursor``, bounded time to install and to list, the
server's whole process group killed afterwards) on candidates that no earlier part listed, tried or recorded
as failed, under any registry (``benign_real*.json``, ``benign_tools.json``, ``benign_seen_packages.txt``
and the candidate lists of the earlier builders); the format test (``tests/unit/test_corpus_held_out_5.py``)
holds that line. They were picked for spread: commerce, ERP and CRM, design systems and editors, cloud
consoles, observability, media, science and hobby servers, with many tools each where the summary said so.

A definition identical (name, description, input schema) to one in an earlier benign corpus, or to one listed
earlier in this build, is kept once or not at all: the part must not repeat a definition tuned on.
"""

from __future__ import annotations

import time
from pathlib import Path

from tests.corpus.build_benign import (
    PLACEHOLDER,
    Outcome,
    build_npm,
    builder_main,
    identities,
    kept_definitions,
    write_document,
)

CORPUS = Path(__file__).resolve().parent
OUT = CORPUS / "benign_real_6.json"
EARLIER = (
    "benign_real.json",
    "benign_real_3.json",
    "benign_real_4.json",
    "benign_real_5.json",
    "benign_tools.json",
)

# (package, extra command-line arguments). MCP servers on npm in none of the earlier builds. A candidate that
# needs a real credential, a running service or a network to list its tools fails and is recorded so.
NPM: list[tuple[str, list[str]]] = [
    ("ebay-mcp", []),
    ("boondmanager-mcp-server", []),
    ("00bx-photoshop-mcp", []),
    ("@tejalgnrml/agent-orchestrator-mcp", []),
    ("recipe-mcp", []),
    ("x64dbg-mcp-server", []),
    ("@robinson_ai_systems/vercel-mcp", []),
    ("@rlabs-inc/gemini-mcp", []),
    ("mcp-github-project-manager", []),
    ("@n24q02m/better-godot-mcp", []),
    ("@pnp/cli-microsoft365-mcp-server", []),
    ("shopify-mcp", []),
    ("@paddle/paddle-mcp", []),
    ("@whop/mcp", []),
    ("@moralisweb3/api-mcp-server", []),
    ("@transloadit/mcp-server", []),
    ("@qase/mcp-server", []),
    ("@runpod/mcp-server", []),
    ("@node2flow/n8n-management-mcp", []),
    ("freee-mcp", []),
    ("@umbraco-cms/mcp-dev", []),
    ("mcp-arr-server", []),
    ("strapi-mcp", []),
    ("signoz-mcp-server", []),
    ("@dynatrace-oss/dynatrace-managed-mcp-server", []),
    ("@openzeppelin/contracts-mcp", []),
    ("terraform-mcp-server", []),
    ("mcp-discord", []),
    ("mcp-gsheets", []),
    ("shadcn-ui-mcp-server", []),
    ("@google-cloud/storage-mcp", []),
    ("linear-mcp-server", []),
    ("open-meteo-mcp-server", []),
    ("mcp-jira-cloud", []),
    ("@tsmztech/mcp-server-salesforce", []),
    ("discogs-mcp-server", []),
    ("@r-huijts/strava-mcp-server", []),
    ("deepl-mcp-server", []),
    ("hevy-mcp", []),
    ("@digitalocean/mcp", []),
    ("@neondatabase/mcp-server-neon", []),
    ("@supabase/mcp-server-postgrest", []),
    ("drawio-mcp-server", []),
    ("@ccusage/mcp", []),
    ("mcp-server-gsc", []),
    ("firefox-devtools-mcp", []),
    ("lighthouse-mcp", []),
    ("mcp-ripgrep", []),
    ("@casys/mcp-erpnext", []),
    ("@respira/wordpress-mcp-server", []),
    ("@serpstat/serpstat-mcp-server", []),
    ("ashby-mcp", []),
    ("@answerai/confluence-mcp", []),
    ("@answerai/jira-mcp", []),
    ("mcp-maven-deps", []),
    ("@douyinfe/semi-mcp", []),
    ("mobile-mcp", []),
    ("dbeaver-mcp-server", []),
    ("mcp-excalidraw-server", []),
    ("@mcp-z/mcp-pdf", []),
    ("just-bash-mcp", []),
    ("fast-filesystem-mcp", ["{sandbox}"]),
    ("code-auditor-mcp", []),
    ("@notprolands/ast-grep-mcp", []),
    ("ollama-mcp", []),
    ("prometheus-mcp", []),
    ("mcp-mail-server", []),
    ("@salesforce/mcp", []),
    ("@siemens/element-mcp", []),
    ("@ama-mcp/angular", []),
    ("@powerhousedao/reactor-mcp", []),
    ("stitch-mcp", []),
    ("@primevue/mcp", []),
    ("@daylight-labs/popdb-mcp", []),
    ("@turbot/powerpipe-mcp", []),
    ("@zencoderai/slack-mcp-server", []),
    ("coda-ticket-manager-mcp", []),
    ("@ng-primitives/mcp", []),
    ("mcp-postgres-server", []),
    ("storybook-mcp", []),
    ("@mizchi/lsmcp", []),
    ("@microsoft/fabric-mcp", []),
    ("@pipedream/mcp", []),
    ("ag-mcp", []),
    ("lucide-icons-mcp", []),
    ("astro-mcp", []),
    ("@synergy-design-system/mcp", []),
    ("ids-enterprise-mcp-server", []),
    ("mcp-server-apple-events", []),
    ("@opentofu/opentofu-mcp-server", []),
]

# More variables these candidates ask for before they list anything: placeholders only, and every URL points
# at a closed port of this machine (the build machine reaches no network but the package registries).
CLOSED = "http://127.0.0.1:9"
EXTRA_ENV = {
    name: PLACEHOLDER
    for name in [
        "EBAY_CLIENT_ID",
        "EBAY_CLIENT_SECRET",
        "BOOND_API_TOKEN",
        "BOONDMANAGER_API_TOKEN",
        "VERCEL_TOKEN",
        "VERCEL_API_TOKEN",
        "GEMINI_API_KEY",
        "GOOGLE_API_KEY",
        "SHOPIFY_ACCESS_TOKEN",
        "PADDLE_API_KEY",
        "WHOP_API_KEY",
        "MORALIS_API_KEY",
        "TRANSLOADIT_KEY",
        "TRANSLOADIT_SECRET",
        "QASE_API_TOKEN",
        "RUNPOD_API_KEY",
        "N8N_API_KEY",
        "FREEE_CLIENT_ID",
        "FREEE_CLIENT_SECRET",
        "UMBRACO_CLIENT_ID",
        "UMBRACO_CLIENT_SECRET",
        "SONARR_API_KEY",
        "RADARR_API_KEY",
        "STRAPI_API_TOKEN",
        "SIGNOZ_API_KEY",
        "DT_API_TOKEN",
        "DISCORD_TOKEN",
        "LINEAR_API_KEY",
        "JIRA_API_TOKEN",
        "SALESFORCE_PASSWORD",
        "SALESFORCE_TOKEN",
        "DISCOGS_PERSONAL_ACCESS_TOKEN",
        "STRAVA_CLIENT_ID",
        "STRAVA_CLIENT_SECRET",
        "STRAVA_ACCESS_TOKEN",
        "DEEPL_API_KEY",
        "HEVY_API_KEY",
        "DIGITALOCEAN_API_TOKEN",
        "NEON_API_KEY",
        "SERPSTAT_API_KEY",
        "ASHBY_API_KEY",
        "CONFLUENCE_API_TOKEN",
        "CODA_API_TOKEN",
        "SLACK_BOT_TOKEN",
        "POWERPIPE_TOKEN",
        "STITCH_API_KEY",
        "PIPEDREAM_CLIENT_SECRET",
        "ERPNEXT_API_KEY",
        "ERPNEXT_API_SECRET",
        "WORDPRESS_APP_PASSWORD",
        "EMAIL_PASSWORD",
        "POPDB_API_KEY",
    ]
} | {
    "SHOPIFY_DOMAIN": "placeholder.example.invalid",
    "SHOPIFY_SHOP": "placeholder.example.invalid",
    "N8N_BASE_URL": CLOSED,
    "N8N_URL": CLOSED,
    "STRAPI_URL": CLOSED,
    "SIGNOZ_URL": CLOSED,
    "DT_ENVIRONMENT": CLOSED,
    "SONARR_URL": CLOSED,
    "RADARR_URL": CLOSED,
    "JIRA_BASE_URL": CLOSED,
    "JIRA_EMAIL": "placeholder@example.invalid",
    "JIRA_HOST": "127.0.0.1",
    "CONFLUENCE_BASE_URL": CLOSED,
    "CONFLUENCE_URL": CLOSED,
    "CONFLUENCE_EMAIL": "placeholder@example.invalid",
    "SALESFORCE_USERNAME": "placeholder@example.invalid",
    "SALESFORCE_CONNECTION_TYPE": "User_Password",
    "PROMETHEUS_URL": CLOSED,
    "OLLAMA_HOST": CLOSED,
    "ERPNEXT_URL": CLOSED,
    "WORDPRESS_URL": CLOSED,
    "WORDPRESS_SITE_URL": CLOSED,
    "WORDPRESS_USERNAME": "placeholder",
    "IMAP_HOST": "127.0.0.1",
    "SMTP_HOST": "127.0.0.1",
    "EMAIL_USER": "placeholder@example.invalid",
    "DATABASE_URL": "postgres://placeholder:placeholder@127.0.0.1:9/placeholder",
    "POSTGREST_URL": CLOSED,
    "UMBRACO_BASE_URL": CLOSED,
    "AWS_REGION": "us-east-1",
}


def write(outcomes: dict[tuple[str, str], Outcome], out: Path) -> None:
    """Write the part from every package's outcome: sorted, deduplicated, one tool a line."""
    packages, failed, tools = kept_definitions(outcomes, identities(EARLIER))
    document = {
        "about": (
            "HELD OUT (part held-out-5): never tune the injection scan on this file. Real MCP tool "
            "definitions listed with tools/list by tests/corpus/build_benign_6.py from npm packages that no "
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
        [(build_npm, package, extra) for package, extra in NPM],
        write,
        out=OUT,
        scratch=Path("/tmp/heldout5/build"),
        workers=2,
        extra_env=EXTRA_ENV,
        install_timeout=240.0,
    )


if __name__ == "__main__":
    main()
