"""Build tests/corpus/benign_real_8.json: the real side of the held-out part ``held-out-7``.

HELD OUT. Never tune the injection scan (rules, weights, thresholds, the learned scorer) on this file or on
anything it prints. It was built in round 11 (2026-12-03) by helper ``heldout7``, who did not read the scan's
rules, its lexicons or its scorer. See docs/security.md, "held-out-7".

Not run by CI (it needs the npm registry). Run it by hand to rebuild the file:

    python -m tests.corpus.build_benign_8 --scratch /tmp/heldout7/build [--jobs 3] [--only NAME ...]

npm packages only (the part before, held-out-6, was PyPI only). It reuses the installer and the stdio lister
of :mod:`tests.corpus.build_benign` (each package in its own directory under ``--scratch``, ``npm install
--ignore-scripts``, placeholder credentials only, a throw-away ``HOME``, ``initialize`` then ``tools/list``
following ``nextCursor``, bounded time to install and to list, the server's process group and escaped
descendants ended afterwards) on candidates that no earlier part listed, tried or recorded as failed, under
any registry (``benign_real*.json``, ``benign_tools.json``, ``benign_seen_packages.txt`` and the candidate
lists of the earlier builders); the format test (``tests/unit/test_corpus_held_out_7.py``) holds that line.
They were picked for spread among the npm packages named ``*mcp*`` that are servers rather than SDKs:
cloud consoles and DevOps (Azure, Alibaba Cloud, Azure DevOps, Render, Datadog), databases (SQL Server,
libSQL, Dataiku), design systems and editors (Figma, Miro, Godot, Ant Design, shadcn), browsers, scraping
and test automation, CRMs and commerce (Attio, Salesforce, WooCommerce, Shopify), identity checks, mail,
task managers, media generation and home cameras; the candidates that failed are recorded with the reason
(most need a running service, a real credential or the network to list anything).

One candidate (``0nmcp``) lists 1,083 generated definitions, more than the other packages together; at
most :data:`MAX_PER_PACKAGE` definitions of one package are kept (:func:`capped`), so that the part's
false-positive rate is not mostly one package's phrasing.

A definition identical (name, description, input schema) to one in an earlier benign corpus, or to one listed
earlier in this build, is kept once or not at all: the part must not repeat a definition tuned on.
"""

from __future__ import annotations

import hashlib
import time
from pathlib import Path
from typing import Any

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
OUT = CORPUS / "benign_real_8.json"
EARLIER = (
    "benign_real.json",
    "benign_real_3.json",
    "benign_real_4.json",
    "benign_real_5.json",
    "benign_real_6.json",
    "benign_real_7.json",
    "benign_tools.json",
)

# (package, extra command-line arguments). MCP servers on npm in none of the earlier builds. A candidate that
# needs a real credential, a running service or a network to list its tools fails and is recorded so.
NPM: list[tuple[str, list[str]]] = [
    ("@azure/mcp", ["server", "start"]),
    ("@storybook/mcp", []),
    ("@mseep/linear-mcp", []),
    ("figma-mcp", []),
    ("@shinzolabs/gmail-mcp", []),
    ("omnifocus-mcp", []),
    ("hyperbrowser-mcp", []),
    ("gasoline-mcp", []),
    ("reactbits-dev-mcp-server", []),
    ("search-console-mcp", []),
    ("mcp-figma", []),
    ("unofficial-ravensburger-playhub-mcp", []),
    ("nano-banana-mcp", []),
    ("agent-browser-mcp", []),
    ("@dotzero.ai/work-order-mcp", []),
    ("@mcp-consultant-tools/powerplatform-data", []),
    ("moltbook-http-mcp", []),
    ("containerization-assist-mcp", []),
    ("alibabacloud-devops-mcp-server", []),
    ("mcp-echarts", []),
    ("openapi-mcp-server", []),
    ("mysql-mcp", []),
    ("@uidbai/mcp-server", []),
    ("mcp-google-drive", []),
    ("fetch-mcp", []),
    ("@workos/mcp-docs-server", []),
    ("@bycrawl/mcp", []),
    ("tmall-design-wiki-mcp-server", []),
    ("@seleniumbox/sbox-mcp", []),
    ("@mcp-consultant-tools/powerplatform-customization", []),
    ("@voltagent/docs-mcp", []),
    ("@flightbox/mcp-server", []),
    ("0nmcp", []),
    ("mcp-server-sqlite-npx", ["{sandbox}/db.sqlite"]),
    ("google-workspace-mcp", []),
    ("greptile-mcp-server", []),
    ("puppeteer-mcp-claude", []),
    ("@mcp-consultant-tools/powerplatform", []),
    ("spritecook-mcp", []),
    ("proliferate-sandbox-mcp", []),
    ("coderabbitai-mcp", []),
    ("@mcp-consultant-tools/azure-sql", []),
    ("@nunchiai/nexus-mcp", []),
    ("mcp-server-linear", []),
    ("mcp-server-fetch-typescript", []),
    ("mcp-google-calendar", []),
    ("openclaw-mcp", []),
    ("@falconer/mcp", []),
    ("accessflow-mcp-server", []),
    ("@provenonce/mcp", []),
    ("@mzxrai/mcp-webresearch", []),
    ("@stevestomp/ohno-mcp", []),
    ("@houtini/gemini-mcp", []),
    ("comfyui-mcp", []),
    ("@satelliteoflove/godot-mcp", []),
    ("autotel-mcp", []),
    ("figma-context-mcp", []),
    ("@ohah/react-native-mcp-server", []),
    ("unified-sf-docs-mcp", []),
    ("@himanshusinghs/mongodb-mcp-server", []),
    ("sonance-brand-mcp", []),
    ("humanagent-mcp", []),
    ("@commercetools-demo/contenttools-mcp", []),
    ("@mcp-consultant-tools/azure-devops-admin", []),
    ("@monoharada/wcf-mcp", []),
    ("mobile-device-farm-mcp", []),
    ("cookunity-mcp-server", []),
    ("@mcp-consultant-tools/github-enterprise", []),
    ("ocr-provenance-mcp", []),
    ("mcpfirestoredb", []),
    ("@jsondb-cloud/mcp", []),
    ("mcp-server-google-analytics", []),
    ("@lockon0927/woocommerce-mcp", []),
    ("pabal-store-api-mcp", []),
    ("@mcp-consultant-tools/azure-management", []),
    ("clawnch-mcp-server", []),
    ("pencil-mcp", []),
    ("pulsemcp-cms-admin-mcp-server", []),
    ("@vapi-ai/mcp-server", []),
    ("@llmindset/hf-mcp", []),
    ("@coolver/home-assistant-mcp", []),
    ("@easybits.cloud/mcp", []),
    ("github-enterprise-mcp-server", ["--endpoint", "https://127.0.0.1:9/api/v3"]),
    ("shadcn-studio-mcp", []),
    ("@mcp-consultant-tools/azure-data-factory", []),
    ("dataiku-mcp", []),
    ("webflow-mcp-server", []),
    ("mcp-ssh-manager", []),
    ("drawio-mcp", []),
    ("@agllama/mcp", []),
    ("godot-mcp-server", []),
    ("@jzone-mcp/antd-components-mcp", []),
    ("@astrotask/mcp", []),
    ("vercel-mcp-server", []),
    ("@tosspayments/integration-guide-mcp", []),
    ("@slope-dev/mcp-tools", []),
    ("icloud-mcp", []),
    ("attio-mcp", []),
    ("@mcptoolshop/ai-jam-sessions", []),
    ("@mcptoolshop/polyglot-mcp", []),
    ("docker-mcp", []),
    ("mssql-mcp-node", []),
    ("caldav-mcp", []),
    ("@niyogi/render-mcp", ["start"]),
    ("@k-jarzyna/mcp-miro", []),
    ("oe-sonar-mcp", []),
    ("@i524/datadog-mcp-server", []),
    ("mcp-fetch", []),
    ("@neverinfamous/mysql-mcp", []),
    ("@cloudinary/asset-management-mcp", []),
    ("spider-cloud-mcp", []),
    ("shopify-admin-mcp", []),
    ("minimax-mcp-js", []),
    ("llm-advisor-mcp", []),
    ("domain-search-mcp", []),
    ("@jambonz/mcp-schema-server", []),
    ("@felores/kie-ai-mcp-server", []),
    ("mcp-memory-libsql", []),
    ("@adobe/spectrum-design-data-mcp", []),
    ("@dataflint/mcp-server", []),
    ("azure-devops-mcp", []),
    ("dkmaker-mcp-rest-api", []),
    ("@seed-ship/duckdb-mcp-native", []),
    ("@trueclicks/google-ads-mcp-js", []),
    ("@agent-relay/mcp", []),
    ("@rawveg/ollama-mcp", []),
    ("@headless-commerce/mcp-server", []),
    ("@owine/unifi-protect-mcp", []),
    ("@didit-protocol/mcp-server", []),
    ("appstore-connect-mcp-server", []),
    ("@starwind-ui/mcp", []),
    ("deepseek-mcp-server", []),
    ("@tosin2013/mcp-shrimp-task-manager", []),
    ("powerplatform-mcp", []),
    ("grep-mcp", []),
    ("@answerai/salesforce-mcp", []),
]

# More variables these candidates ask for before they list anything: placeholders only, and every URL points
# at a closed port of this machine (the build machine reaches no network but the package registries).
CLOSED = "http://127.0.0.1:9"
EXTRA_ENV = {
    name: PLACEHOLDER
    for name in [
        "LINEAR_API_KEY",
        "FIGMA_ACCESS_TOKEN",
        "FIGMA_TOKEN",
        "HYPERBROWSER_API_KEY",
        "GEMINI_API_KEY",
        "GOOGLE_API_KEY",
        "ALIBABA_CLOUD_DEVOPS_TOKEN",
        "YUNXIAO_ACCESS_TOKEN",
        "GREPTILE_API_KEY",
        "SPRITECOOK_API_KEY",
        "PROLIFERATE_API_KEY",
        "CODERABBIT_API_KEY",
        "FALCONER_API_KEY",
        "ACCESSFLOW_API_KEY",
        "HUMANAGENT_API_KEY",
        "MOLTBOOK_API_KEY",
        "BYCRAWL_API_KEY",
        "JSONDB_API_KEY",
        "VAPI_TOKEN",
        "VAPI_API_KEY",
        "EASYBITS_API_KEY",
        "WEBFLOW_TOKEN",
        "DATAIKU_API_KEY",
        "ATTIO_API_KEY",
        "ATTIO_ACCESS_TOKEN",
        "MIRO_ACCESS_TOKEN",
        "RENDER_API_KEY",
        "VERCEL_API_TOKEN",
        "VERCEL_TOKEN",
        "SONARQUBE_TOKEN",
        "SPIDER_API_KEY",
        "SHOPIFY_ACCESS_TOKEN",
        "MINIMAX_API_KEY",
        "KIE_AI_API_KEY",
        "CLOUDINARY_API_KEY",
        "CLOUDINARY_API_SECRET",
        "DIDIT_API_KEY",
        "WOOCOMMERCE_CONSUMER_KEY",
        "WOOCOMMERCE_CONSUMER_SECRET",
        "AZURE_DEVOPS_TOKEN",
        "AZURE_DEVOPS_PAT",
        "HOME_ASSISTANT_TOKEN",
        "HA_TOKEN",
        "UNIFI_PROTECT_API_KEY",
        "CLAWNCH_API_KEY",
        "PENCIL_API_KEY",
        "PULSEMCP_ADMIN_API_KEY",
        "HEADLESS_COMMERCE_API_KEY",
        "AGENT_RELAY_API_KEY",
        "TRUECLICKS_API_KEY",
        "ICLOUD_APP_PASSWORD",
        "CALDAV_PASSWORD",
        "APP_STORE_CONNECT_KEY_ID",
        "APP_STORE_CONNECT_ISSUER_ID",
        "COMFYUI_API_KEY",
        "PROVENONCE_API_KEY",
        "SBOX_API_KEY",
        "FLIGHTBOX_API_KEY",
        "CTP_CLIENT_ID",
        "CTP_CLIENT_SECRET",
        "MSSQL_PASSWORD",
        "DB_PASSWORD",
        "MYSQL_PASSWORD",
        "POWERPLATFORM_CLIENT_ID",
        "POWERPLATFORM_CLIENT_SECRET",
        "POWERPLATFORM_TENANT_ID",
        "AZURE_CLIENT_ID",
        "AZURE_CLIENT_SECRET",
        "AZURE_TENANT_ID",
        "LLAMA_API_KEY",
        "COOKUNITY_PASSWORD",
        "IMAP_PASSWORD",
        "WORDPRESS_APP_PASSWORD",
        "WORDPRESS_PASSWORD",
    ]
} | {
    "PIP_DISABLE_PIP_VERSION_CHECK": "1",
    "AZURE_MCP_COLLECT_TELEMETRY": "false",
    "POWERPLATFORM_URL": CLOSED,
    "HOME_ASSISTANT_URL": CLOSED,
    "HA_URL": CLOSED,
    "COMFYUI_URL": CLOSED,
    "CALDAV_URL": CLOSED,
    "CALDAV_USERNAME": "placeholder",
    "ICLOUD_EMAIL": "placeholder@example.invalid",
    "SONARQUBE_URL": CLOSED,
    "DATAIKU_URL": CLOSED,
    "WOOCOMMERCE_URL": CLOSED,
    "WOOCOMMERCE_SITE_URL": CLOSED,
    "UNIFI_PROTECT_HOST": "127.0.0.1",
    "SHOPIFY_STORE_DOMAIN": "placeholder.example.invalid",
    "SHOPIFY_SHOP_DOMAIN": "placeholder.example.invalid",
    "AZURE_DEVOPS_ORG_URL": CLOSED,
    "AZURE_DEVOPS_URL": CLOSED,
    "GITHUB_ENTERPRISE_URL": CLOSED,
    "GITHUB_ENTERPRISE_TOKEN": PLACEHOLDER,
    "GITHUB_API_URL": CLOSED,
    "MYSQL_USER": "placeholder",
    "MYSQL_DATABASE": "placeholder",
    "MSSQL_SERVER": "127.0.0.1",
    "MSSQL_USER": "placeholder",
    "MSSQL_DATABASE": "placeholder",
    "DB_HOST": "127.0.0.1",
    "DB_USER": "placeholder",
    "DB_NAME": "placeholder",
    "MONGODB_URI": "mongodb://127.0.0.1:9",
    "MDB_MCP_CONNECTION_STRING": "mongodb://127.0.0.1:9",
    "OLLAMA_HOST": CLOSED,
    "CTP_PROJECT_KEY": "placeholder",
    "CTP_AUTH_URL": CLOSED,
    "CTP_API_URL": CLOSED,
    "LLAMA_API_URL": CLOSED,
    "COOKUNITY_EMAIL": "placeholder@example.invalid",
    "IMAP_USER": "placeholder@example.invalid",
    "IMAP_HOST": "127.0.0.1",
    "WORDPRESS_SITE_URL": CLOSED,
    "WORDPRESS_USERNAME": "placeholder",
    "DOMAIN": "placeholder.example.invalid",
}


# At most this many definitions of one package are kept. One candidate lists 1,083 generated definitions
# (an orchestrator of a hundred APIs), more than the other packages together: uncapped, the part's
# false-positive rate would mostly measure that one package's phrasing.
MAX_PER_PACKAGE = 150


def _rank(tool: dict[str, Any]) -> bytes:
    return hashlib.sha256(f"{tool['package']}/{tool['name']}".encode()).digest()


def capped(
    packages: dict[str, Any], tools: list[dict[str, Any]], limit: int = MAX_PER_PACKAGE
) -> list[dict[str, Any]]:
    """``tools`` with at most ``limit`` definitions of each package, chosen by a hash of package and name
    (deterministic, and not the first ones alphabetically); a capped package's entry in ``packages``
    records how many it listed and how many were kept."""
    by_package: dict[str, list[dict[str, Any]]] = {}
    for tool in tools:
        by_package.setdefault(f"{tool['registry']}:{tool['package']}", []).append(tool)
    dropped: set[int] = set()
    for key, own in by_package.items():
        if len(own) > limit:
            dropped |= {id(tool) for tool in sorted(own, key=_rank)[limit:]}
            packages[key]["listed"] = len(own)
            packages[key]["tools"] = limit
    return [tool for tool in tools if id(tool) not in dropped]


def write(outcomes: dict[tuple[str, str], Outcome], out: Path) -> None:
    """Write the part from every package's outcome: sorted, deduplicated, capped per package, one tool a
    line."""
    packages, failed, tools = kept_definitions(outcomes, identities(EARLIER))
    tools = capped(packages, tools)
    document = {
        "about": (
            "HELD OUT (part held-out-7): never tune the injection scan on this file. Real MCP tool "
            "definitions listed with tools/list by tests/corpus/build_benign_8.py from npm packages that no "
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
        scratch=Path("/tmp/heldout7/build"),
        workers=3,
        extra_env=EXTRA_ENV,
        install_timeout=300.0,
    )


if __name__ == "__main__":
    main()
