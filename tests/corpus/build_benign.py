"""Build tests/corpus/benign_real.json: real tool definitions listed by running real MCP servers.

Not run by CI (it needs the npm registry and PyPI). Run it by hand to rebuild the corpus:

    python tests/corpus/build_benign.py --scratch /tmp/corpus-build [--jobs 3] [--only NAME ...]

For every candidate package below it installs the package into its own directory under ``--scratch`` (never
into the repository), starts the server over stdio with harmless placeholder environment variables (no real
credential is ever passed: every value is ``placeholder-...``) and a throw-away ``HOME``, runs
``initialize`` and ``tools/list`` (following ``nextCursor``), and records every tool with the package, the
registry and the installed version. Servers that need a real credential or service to list their tools fail
and are listed under ``failed`` with the reason; that is expected for a good share of the candidates.

The output is deterministic for a given set of installed versions: packages and tools are sorted, and a
definition that two packages list identically (forks, re-publications) is kept once, under the first.
"""

from __future__ import annotations

import argparse
import concurrent.futures
import json
import os
import re
import select
import shutil
import subprocess
import sys
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from mcp_troupe.actors import descendants

OUT = Path(__file__).resolve().parent / "benign_real.json"

# (package, extra command-line arguments). Chosen from the most downloaded MCP server packages of each
# registry; libraries, SDKs, proxies and clients were left out, but a package that turns out not to be a
# stdio server simply fails and is recorded as such.
NPM: list[tuple[str, list[str]]] = [
    ("@playwright/mcp", []),
    ("chrome-devtools-mcp", []),
    ("@upstash/context7-mcp", []),
    ("@modelcontextprotocol/server-filesystem", ["{sandbox}"]),
    ("@modelcontextprotocol/server-everything", []),
    ("@modelcontextprotocol/server-memory", []),
    ("@modelcontextprotocol/server-sequential-thinking", []),
    ("@modelcontextprotocol/server-github", []),
    ("@modelcontextprotocol/server-gitlab", []),
    ("@modelcontextprotocol/server-slack", []),
    ("@modelcontextprotocol/server-brave-search", []),
    ("@modelcontextprotocol/server-puppeteer", []),
    ("@modelcontextprotocol/server-google-maps", []),
    ("@modelcontextprotocol/server-postgres", ["postgresql://placeholder@127.0.0.1:1/db"]),
    ("@modelcontextprotocol/server-aws-kb-retrieval", []),
    ("@modelcontextprotocol/server-redis", []),
    ("@modelcontextprotocol/server-everart", []),
    ("@modelcontextprotocol/server-gdrive", []),
    ("@azure-devops/mcp", ["placeholder-org"]),
    ("@supabase/mcp-server-supabase", []),
    ("@notionhq/notion-mcp-server", []),
    ("@gongrzhe/server-gmail-autoauth-mcp", []),
    ("nx-mcp", []),
    ("@circleci/mcp-server-circleci", []),
    ("n8n-mcp", []),
    ("next-devtools-mcp", []),
    ("mongodb-mcp-server", []),
    ("@stripe/mcp", ["--tools=all"]),
    ("tavily-mcp", []),
    ("@zereight/mcp-gitlab", []),
    ("firecrawl-mcp", []),
    ("@wonderwhy-er/desktop-commander", []),
    ("@sentry/mcp-server", []),
    ("@launchdarkly/mcp-server", ["start"]),
    ("mcp-hello-world", []),
    ("figma-developer-mcp", ["--stdio"]),
    ("@executeautomation/playwright-mcp-server", []),
    ("@eslint/mcp", []),
    ("@mastra/mcp-docs-server", []),
    ("@winor30/mcp-server-datadog", []),
    ("@antv/mcp-server-chart", []),
    ("@dynatrace-oss/dynatrace-mcp-server", []),
    ("@cocal/google-calendar-mcp", []),
    ("@bytebase/dbhub", ["--transport", "stdio", "--dsn", "sqlite:///:memory:"]),
    ("@hubspot/mcp-server", []),
    ("@perplexity-ai/mcp-server", []),
    ("@shortcut/mcp", []),
    ("@apify/actors-mcp-server", []),
    ("xcodebuildmcp", []),
    ("@drawio/mcp", []),
    ("@mobilenext/mobile-mcp", []),
    ("@currents/mcp", []),
    ("@google-cloud/cloud-run-mcp", []),
    ("@brave/brave-search-mcp-server", []),
    ("@larksuiteoapi/lark-mcp", ["mcp", "-a", "placeholder", "-s", "placeholder"]),
    ("slack-mcp-server", []),
    ("@z_ai/mcp-server", []),
    ("mcp-server-code-runner", []),
    ("@aashari/mcp-server-atlassian-jira", []),
    ("@aashari/mcp-server-atlassian-bitbucket", []),
    ("@aashari/mcp-server-atlassian-confluence", []),
    ("@morphllm/morphmcp", []),
    ("@browsermcp/mcp", []),
    ("exa-mcp-server", []),
    ("@21st-dev/magic", []),
    ("@agent-infra/mcp-server-browser", []),
    ("@agent-infra/mcp-server-commands", []),
    ("@agent-infra/mcp-server-filesystem", ["--allowed-directories", "{sandbox}"]),
    ("@benborla29/mcp-server-mysql", []),
    ("@berthojoris/mcp-mysql-server", []),
    ("@cyanheads/git-mcp-server", []),
    ("@cyanheads/pubmed-mcp-server", []),
    ("@elastic/mcp-server-elasticsearch", []),
    ("@heroku/mcp-server", []),
    ("@kimtaeyoon83/mcp-server-youtube-transcript", []),
    ("@kazuph/mcp-taskmanager", []),
    ("@line/line-bot-mcp-server", []),
    ("@mapbox/mcp-server", []),
    ("@mapbox/mcp-devkit-server", []),
    ("@masonator/coolify-mcp", []),
    ("@makeplane/plane-mcp-server", []),
    ("@mako10k/mcp-shell-server", []),
    ("@delorenj/mcp-server-trello", []),
    ("@browserbasehq/mcp-server-browserbase", []),
    ("@amap/amap-maps-mcp-server", []),
    ("@baidumap/mcp-server-baidu-map", []),
    ("@auth0/auth0-mcp-server", ["run"]),
    ("@cloudflare/mcp-server-cloudflare", ["run", "placeholder-account"]),
    ("@dopplerhq/mcp-server", []),
    ("@infisical/mcp", []),
    ("@henkey/postgres-mcp-server", []),
    ("@executeautomation/database-server", ["{sandbox}/db.sqlite"]),
    ("@gongrzhe/server-redis-mcp", []),
    ("@jpisnice/shadcn-ui-mcp-server", []),
    ("@kubb/mcp", []),
    ("@knip/mcp", []),
    ("@jinzcdev/leetcode-mcp-server", []),
    ("@ivotoby/contentful-management-mcp-server", []),
    ("@iterable/mcp", []),
    ("@chakra-ui/react-mcp", []),
    ("@mantine/mcp-server", []),
    ("@heroui/react-mcp", []),
    ("@kimsungwhee/apple-docs-mcp", []),
    ("@angiejones/mcp-selenium", []),
    ("@hisma/server-puppeteer", []),
    ("@djankies/vitest-mcp", []),
    ("@danielsogl/lighthouse-mcp", []),
    ("@debugmcp/mcp-debugger", ["stdio"]),
    ("@coinbase/cds-mcp-server", []),
    ("@coingecko/coingecko-mcp", []),
    ("@codacy/codacy-mcp", []),
    ("@discourse/mcp", []),
    ("@karakeep/mcp", []),
    ("@leonardsellem/n8n-mcp-server", []),
    ("@liuyoshio/mcp-compass", []),
    ("@llmindset/hf-mcp-server", []),
    ("@merill/lokka", []),
    ("@microsoft/clarity-mcp-server", []),
    ("@missionsquad/mcp-github", []),
    ("@flightradar24/fr24api-mcp", []),
    ("@futurelab-studio/latest-science-mcp", []),
    ("@gannonh/firebase-mcp", []),
    ("@geobio/mcp-open-library", []),
    ("@h1deya/mcp-server-weather", []),
    ("@hypothesi/tauri-mcp-server", []),
    ("@mcp-get-community/server-curl", []),
    ("@accesslint/mcp", []),
    ("@adenot/mcp-google-search", []),
    ("@akutishevsky/lunchmoney-mcp", []),
    ("@allpepper/memory-bank-mcp", []),
    ("@arikusi/deepseek-mcp-server", []),
    ("@ashwinighuge/jenkins-mcp-server", []),
    ("@baruchiro/paperless-mcp", []),
    ("@bitwarden/mcp-server", []),
    ("@chatwork/mcp-server", []),
    ("@cmd233/mcp-database-server", []),
    ("@ericthered926/duckduckgo-mcp-server", []),
    ("@felixallistar/coolify-mcp", []),
    ("@gleanwork/local-mcp-server", []),
    ("@isaacphi/mcp-gdrive", []),
    ("@itseasy21/mcp-knowledge-graph", []),
    ("@jasontanswe/railway-mcp", []),
    ("@jerichosequitin/metabase-mcp", []),
    ("@kocierik/mcp-nomad", []),
    ("@mcpfun/mcp-server-ccxt", []),
    ("@0xshariq/docker-mcp-server", []),
    ("@a-bonus/google-docs-mcp", []),
    ("@aaronsb/jira-cloud-mcp", []),
    ("@abhaybabbar/retellai-mcp-server", []),
    ("@adamhancock/bullmq-mcp", []),
    ("@alvincrave/gtasks-mcp", []),
    ("@anaisbetts/mcp-installer", []),
    ("@ajpanada/mcp-azure-devops", []),
    ("@awesome-ai/elasticsearch-mcp", []),
    ("@bilims/mcp-sqlserver", []),
    ("@cablate/mcp-google-map", []),
    ("@chkp/quantum-management-mcp", []),
    ("@chkp/management-logs-mcp", []),
    ("@contextstream/mcp-server", []),
    ("@dangahagan/weather-mcp", []),
    ("@deventerprisesoftware/scrapi-mcp", []),
    ("@easecloudio/mcp-metabase-server", []),
    ("@ergut/mcp-bigquery-server", []),
    ("@f4ww4z/mcp-mysql-server", []),
    ("@fabriqa.ai/youtube-transcript-mcp", []),
    ("@falkordb/mcpserver", []),
    ("@fhirfly-io/mcp-server", []),
    ("@floriscornel/teams-mcp", []),
    ("@genwave/svgmaker-mcp", []),
    ("@getnao/metabase-mcp-server", []),
    ("@hovecapital/read-only-mysql-mcp-server", []),
    ("@hugeicons/mcp-server", []),
    ("@idachev/mcp-javadc", []),
    ("@illuminaresolutions/n8n-mcp-server", []),
    ("@instantdb/mcp", []),
    ("@j0hanz/filesystem-mcp", ["{sandbox}"]),
    ("@jungjaehoon/mama-server", []),
    ("@junis/shopify-mcp", []),
    ("@kentico/management-api-mcp", []),
    ("@kazuph/mcp-fetch", []),
    ("@leval/mcp-grafana", []),
    ("@liangshanli/mcp-server-mysql", []),
    ("@mieubrisse/notion-mcp-server", []),
    ("@mister-good-deal/host-mcp-jenkins", []),
    ("@mistertk/vercel-mcp", []),
    ("@ivotoby/openapi-mcp-server", []),
    ("@dguido/google-workspace-mcp", []),
    ("@cognitionai/metabase-mcp-server", []),
    ("@connorbritain/mssql-mcp-server", []),
    ("@datacore-one/mcp", []),
    ("@ahdev/dokploy-mcp", []),
    ("@aicoin/opendata-mcp", []),
    ("@automattic/mcp-wordpress-remote", []),
    ("@browserstack/mcp-server", []),
    ("@bnb-chain/mcp", []),
    ("@clerk/mcp-tools", []),
    ("@forestadmin/mcp-server", []),
    ("@gestell/zowe-mcp", []),
    ("@great-detail/support-mcp", []),
    ("@hanzo/mcp", []),
]

PYPI: list[tuple[str, list[str]]] = [
    ("mcp-server-fetch", []),
    ("mcp-server-git", []),
    ("mcp-server-time", []),
    ("mcp-server-qdrant", []),
    ("awslabs-aws-documentation-mcp-server", []),
    ("mcp-atlassian", []),
    ("office-word-mcp-server", []),
    ("excel-mcp-server", ["stdio"]),
    ("pdf-tools-mcp", []),
    ("cli-mcp-server", []),
    ("lean-lsp-mcp", []),
    ("awslabs-bedrock-kb-retrieval-mcp-server", []),
    ("awslabs-aws-api-mcp-server", []),
    ("mcp-server-duckdb", ["--db-path", "{sandbox}/duck.db"]),
    ("awslabs-aws-location-mcp-server", []),
    ("awslabs-memcached-mcp-server", []),
    ("office-powerpoint-mcp-server", []),
    ("yfmcp", []),
    ("awslabs-billing-cost-management-mcp-server", []),
    ("workspace-mcp", []),
    ("chroma-mcp", []),
    ("awslabs-cloudwatch-mcp-server", []),
    ("awslabs-aws-pricing-mcp-server", []),
    ("snowflake-labs-mcp", []),
    ("mcp-grafana", []),
    ("mcp-clickhouse", []),
    ("jcodemunch-mcp", []),
    ("awslabs-aws-iac-mcp-server", []),
    ("postgres-mcp", []),
    ("arxiv-mcp-server", []),
    ("opensearch-mcp-server-py", []),
    ("astro-airflow-mcp", []),
    ("minimax-coding-plan-mcp", []),
    ("duckduckgo-mcp-server", []),
    ("ha-mcp", []),
    ("dbt-mcp", []),
    ("awslabs-eks-mcp-server", []),
    ("markitdown-mcp", []),
    ("awslabs-amazon-bedrock-agentcore-mcp-server", []),
    ("mcp-server-motherduck", ["--db-path", ":memory:"]),
    ("mcp-scholarly", []),
    ("mcp-yahoo-finance", []),
    ("tilt-mcp", []),
    ("mfa-servicenow-mcp", []),
    ("awslabs-aws-dataprocessing-mcp-server", []),
    ("pymupdf4llm-mcp", []),
    ("mcp-ocr", []),
    ("rootly-mcp-server", []),
    ("mcp-stata", []),
    ("pagerduty-mcp", []),
    ("analytics-mcp", []),
    ("awslabs-redshift-mcp-server", []),
    ("mysql-mcp-server", []),
    ("mcp-server-sqlite", ["--db-path", "{sandbox}/test.db"]),
    ("zotero-mcp-server", []),
    ("zulipchat-mcp", []),
    ("zabbix-mcp", []),
    ("zendesk-mcp", []),
    ("awslabs-dynamodb-mcp-server", []),
    ("awslabs-cdk-mcp-server", []),
    ("awslabs-core-mcp-server", []),
    ("awslabs-cost-explorer-mcp-server", []),
    ("awslabs-ecs-mcp-server", []),
    ("awslabs-lambda-tool-mcp-server", []),
    ("awslabs-terraform-mcp-server", []),
    ("awslabs-s3-tables-mcp-server", []),
    ("awslabs-postgres-mcp-server", []),
    ("awslabs-stepfunctions-tool-mcp-server", []),
    ("awslabs-cloudtrail-mcp-server", []),
    ("awslabs-iam-mcp-server", []),
    ("awslabs-well-architected-security-mcp-server", []),
    ("kubernetes-mcp-server", []),
    ("mcp-server-kubernetes", []),
    ("blender-mcp", []),
    ("serena-agent", []),
    ("mcp-obsidian", []),
    ("mcp-neo4j-cypher", []),
    ("mcp-neo4j-memory", []),
    ("mcp-server-docker", []),
    ("iterm-mcp", []),
    ("wcgw", []),
    ("graphiti-mcp", []),
    ("mcp-server-elasticsearch", []),
    ("mcp-youtube-transcript", []),
    ("gitlab-mcp", []),
    ("jupyter-mcp-server", []),
    ("mcp-server-tree-sitter", []),
    ("mcp-searxng", []),
    ("todoist-mcp", []),
    ("mcp-server-calculator", []),
]

PLACEHOLDER = "placeholder-not-a-secret"

# Environment variables servers commonly insist on before they list anything. Every value is a placeholder;
# none reaches a real service (the build machine reaches no network but the package registries).
PLACEHOLDER_ENV = {
    name: PLACEHOLDER
    for name in [
        "API_KEY",
        "GITHUB_TOKEN",
        "GITHUB_PERSONAL_ACCESS_TOKEN",
        "GITLAB_PERSONAL_ACCESS_TOKEN",
        "GITLAB_TOKEN",
        "SLACK_BOT_TOKEN",
        "SLACK_TEAM_ID",
        "SLACK_MCP_XOXP_TOKEN",
        "BRAVE_API_KEY",
        "GOOGLE_MAPS_API_KEY",
        "TAVILY_API_KEY",
        "FIRECRAWL_API_KEY",
        "EXA_API_KEY",
        "PERPLEXITY_API_KEY",
        "OPENAI_API_KEY",
        "ANTHROPIC_API_KEY",
        "STRIPE_SECRET_KEY",
        "SUPABASE_ACCESS_TOKEN",
        "NOTION_TOKEN",
        "NOTION_API_KEY",
        "HUBSPOT_ACCESS_TOKEN",
        "PRIVATE_APP_ACCESS_TOKEN",
        "SHORTCUT_API_TOKEN",
        "APIFY_TOKEN",
        "SENTRY_ACCESS_TOKEN",
        "SENTRY_AUTH_TOKEN",
        "LAUNCHDARKLY_API_KEY",
        "DATADOG_API_KEY",
        "DATADOG_APP_KEY",
        "DD_API_KEY",
        "DD_APP_KEY",
        "DT_ENVIRONMENT",
        "FIGMA_API_KEY",
        "CIRCLECI_TOKEN",
        "HEROKU_API_KEY",
        "TRELLO_API_KEY",
        "TRELLO_TOKEN",
        "BROWSERBASE_API_KEY",
        "BROWSERBASE_PROJECT_ID",
        "AMAP_MAPS_API_KEY",
        "BAIDU_MAP_API_KEY",
        "DOPPLER_TOKEN",
        "INFISICAL_UNIVERSAL_AUTH_CLIENT_ID",
        "INFISICAL_UNIVERSAL_AUTH_CLIENT_SECRET",
        "CONTENTFUL_MANAGEMENT_ACCESS_TOKEN",
        "ITERABLE_API_KEY",
        "COINGECKO_PRO_API_KEY",
        "CODACY_ACCOUNT_TOKEN",
        "LINE_CHANNEL_ACCESS_TOKEN",
        "DESTINATION_USER_ID",
        "MAPBOX_ACCESS_TOKEN",
        "COOLIFY_ACCESS_TOKEN",
        "PLANE_API_KEY",
        "PLANE_WORKSPACE_SLUG",
        "ATLASSIAN_API_TOKEN",
        "ATLASSIAN_USER_EMAIL",
        "JIRA_API_TOKEN",
        "CONFLUENCE_API_TOKEN",
        "BITBUCKET_APP_PASSWORD",
        "ATLASSIAN_BITBUCKET_USERNAME",
        "ATLASSIAN_BITBUCKET_APP_PASSWORD",
        "MORPH_API_KEY",
        "TWENTY_FIRST_API_KEY",
        "ELASTICSEARCH_API_KEY",
        "AUTH0_DOMAIN",
        "KARAKEEP_API_KEY",
        "N8N_API_KEY",
        "HF_TOKEN",
        "CLARITY_API_TOKEN",
        "FR24_API_KEY",
        "LUNCHMONEY_API_KEY",
        "DEEPSEEK_API_KEY",
        "JENKINS_API_TOKEN",
        "PAPERLESS_API_KEY",
        "BW_CLIENT_ID",
        "BW_CLIENT_SECRET",
        "BW_SESSION",
        "CHATWORK_API_TOKEN",
        "GLEAN_API_TOKEN",
        "GLEAN_INSTANCE",
        "RAILWAY_API_TOKEN",
        "METABASE_API_KEY",
        "RETELL_API_KEY",
        "SVGMAKER_API_KEY",
        "SHOPIFY_ACCESS_TOKEN",
        "VERCEL_API_TOKEN",
        "DOKPLOY_API_KEY",
        "AICOIN_ACCESS_KEY_ID",
        "AICOIN_ACCESS_SECRET_KEY",
        "BROWSERSTACK_USERNAME",
        "BROWSERSTACK_ACCESS_KEY",
        "FOREST_ENV_SECRET",
        "FOREST_AUTH_SECRET",
        "AWS_ACCESS_KEY_ID",
        "AWS_SECRET_ACCESS_KEY",
        "QDRANT_API_KEY",
        "COLLECTION_NAME",
        "CONFLUENCE_USERNAME",
        "JIRA_USERNAME",
        "SNOWFLAKE_ACCOUNT",
        "SNOWFLAKE_USER",
        "SNOWFLAKE_PASSWORD",
        "GRAFANA_API_KEY",
        "CLICKHOUSE_USER",
        "CLICKHOUSE_PASSWORD",
        "OPENSEARCH_USERNAME",
        "OPENSEARCH_PASSWORD",
        "MINIMAX_API_KEY",
        "HOMEASSISTANT_TOKEN",
        "DBT_TOKEN",
        "DBT_PROD_ENV_ID",
        "MOTHERDUCK_TOKEN",
        "SERVICENOW_PASSWORD",
        "SERVICENOW_USERNAME",
        "ROOTLY_API_TOKEN",
        "PAGERDUTY_USER_API_KEY",
        "ZOTERO_API_KEY",
        "ZULIP_API_KEY",
        "ZULIP_EMAIL",
        "ZABBIX_TOKEN",
        "ZENDESK_API_KEY",
        "ZENDESK_EMAIL",
        "OBSIDIAN_API_KEY",
        "NEO4J_PASSWORD",
        "NEO4J_USERNAME",
        "TODOIST_API_TOKEN",
        "MYSQL_PASSWORD",
        "MYSQL_USER",
        "MYSQL_DATABASE",
        "PGPASSWORD",
        "REDIS_PASSWORD",
        "CONTEXTSTREAM_API_KEY",
        "KENTICO_API_KEY",
        "SHOPIFY_STORE_DOMAIN",
        "ACCESS_TOKEN",
        "AUTH_TOKEN",
        "TOKEN",
    ]
} | {
    "MDB_MCP_CONNECTION_STRING": "mongodb://127.0.0.1:1/placeholder",
    "DATABASE_URL": "postgresql://placeholder@127.0.0.1:1/db",
    "REDIS_URL": "redis://127.0.0.1:1",
    "ELASTICSEARCH_URL": "http://127.0.0.1:1",
    "ES_URL": "http://127.0.0.1:1",
    "QDRANT_URL": "http://127.0.0.1:1",
    "GRAFANA_URL": "http://127.0.0.1:1",
    "JIRA_URL": "http://127.0.0.1:1",
    "CONFLUENCE_URL": "http://127.0.0.1:1",
    "ATLASSIAN_SITE_NAME": "placeholder",
    "N8N_API_URL": "http://127.0.0.1:1",
    "N8N_HOST": "http://127.0.0.1:1",
    "METABASE_URL": "http://127.0.0.1:1",
    "COOLIFY_BASE_URL": "http://127.0.0.1:1",
    "JENKINS_URL": "http://127.0.0.1:1",
    "PAPERLESS_URL": "http://127.0.0.1:1",
    "HOMEASSISTANT_URL": "http://127.0.0.1:1",
    "SERVICENOW_INSTANCE_URL": "http://127.0.0.1:1",
    "ZABBIX_URL": "http://127.0.0.1:1",
    "ZULIP_SITE": "http://127.0.0.1:1",
    "OBSIDIAN_HOST": "127.0.0.1",
    "NEO4J_URI": "bolt://127.0.0.1:1",
    "MYSQL_HOST": "127.0.0.1",
    "MYSQL_PORT": "1",
    "CLICKHOUSE_HOST": "127.0.0.1",
    "OPENSEARCH_URL": "http://127.0.0.1:1",
    "AWS_REGION": "us-east-1",
    "AWS_DEFAULT_REGION": "us-east-1",
    "DT_ENVIRONMENT": "https://placeholder.invalid",
    "GITLAB_API_URL": "http://127.0.0.1:1/api/v4",
    "ZENDESK_SUBDOMAIN": "placeholder",
    "FASTMCP_LOG_LEVEL": "ERROR",
    "NO_COLOR": "1",
    "DO_NOT_TRACK": "1",
}

PROTOCOL_VERSION = "2025-06-18"
LIST_TIMEOUT = 45.0
INSTALL_TIMEOUT = 420.0
MAX_PAGES = 20


@dataclass
class Outcome:
    package: str
    registry: str
    version: str | None = None
    tools: list[dict[str, Any]] = field(default_factory=list)
    error: str | None = None


def _safe(package: str) -> str:
    return re.sub(r"[^A-Za-z0-9_.-]+", "_", package)


class _Server:
    """A child speaking newline-delimited JSON-RPC on stdio; non-JSON lines on stdout are skipped."""

    def __init__(self, argv: list[str], cwd: Path, env: dict[str, str]) -> None:
        # Tagged as mcp-troupe tags its own servers, so that a descendant that left the process group (a
        # server that calls setsid() for a child of its own) is found and ended too (actors/descendants.py).
        self._tag = descendants.new_tag()
        self.process = subprocess.Popen(
            argv,
            cwd=cwd,
            env={**env, descendants.TAG_VARIABLE: self._tag},
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            start_new_session=True,
        )
        self._buffer = b""
        self._stderr = b""

    def send(self, message: dict[str, Any]) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(json.dumps(message).encode() + b"\n")
        self.process.stdin.flush()

    def receive(self, request_id: int, deadline: float) -> dict[str, Any]:
        assert self.process.stdout is not None and self.process.stderr is not None
        out, err = self.process.stdout.fileno(), self.process.stderr.fileno()
        while True:
            while b"\n" in self._buffer:
                line, self._buffer = self._buffer.split(b"\n", 1)
                try:
                    message = json.loads(line)
                except ValueError:
                    continue
                if isinstance(message, dict) and message.get("id") == request_id:
                    return message
                if isinstance(message, dict) and "method" in message and "id" in message:
                    # A request from the server (roots/list, ping, ...): answer with an empty result.
                    result: dict[str, Any] = {"roots": []} if message["method"] == "roots/list" else {}
                    self.send({"jsonrpc": "2.0", "id": message["id"], "result": result})
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise TimeoutError("no answer in time; stderr: " + self.stderr_tail())
            ready, _, _ = select.select([out, err], [], [], remaining)
            for fd in ready:
                chunk = os.read(fd, 1 << 16)
                if fd == out:
                    if not chunk:
                        raise EOFError(
                            f"server exited ({self.process.poll()}); stderr: " + self.stderr_tail()
                        )
                    self._buffer += chunk
                else:
                    self._stderr = (self._stderr + chunk)[-4000:]

    def stderr_tail(self) -> str:
        return self._stderr.decode("utf-8", "replace").strip().replace("\n", " | ")[-300:]

    def close(self) -> None:
        try:
            os.killpg(self.process.pid, 15)
        except ProcessLookupError:
            pass
        try:
            self.process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            try:
                os.killpg(self.process.pid, 9)
            except ProcessLookupError:
                pass
            self.process.wait(timeout=5)
        survivors = descendants.end_descendants(self._tag)
        if survivors:
            print(f"  could not end processes {sorted(survivors)} of {self.process.args!r}", file=sys.stderr)


def list_tools(argv: list[str], cwd: Path, env: dict[str, str]) -> list[dict[str, Any]]:
    """Start a server, initialize it and list every tool (following nextCursor)."""
    server = _Server(argv, cwd, env)
    try:
        deadline = time.monotonic() + LIST_TIMEOUT
        server.send(
            {
                "jsonrpc": "2.0",
                "id": 1,
                "method": "initialize",
                "params": {
                    "protocolVersion": PROTOCOL_VERSION,
                    "capabilities": {"roots": {"listChanged": False}},
                    "clientInfo": {"name": "mcp-troupe-corpus-build", "version": "1"},
                },
            }
        )
        answer = server.receive(1, deadline)
        if "error" in answer:
            raise RuntimeError(f"initialize failed: {answer['error']}")
        server.send({"jsonrpc": "2.0", "method": "notifications/initialized"})
        tools: list[dict[str, Any]] = []
        cursor: str | None = None
        for page in range(MAX_PAGES):
            params = {"cursor": cursor} if cursor else {}
            server.send({"jsonrpc": "2.0", "id": 2 + page, "method": "tools/list", "params": params})
            answer = server.receive(2 + page, deadline)
            if "error" in answer:
                raise RuntimeError(f"tools/list failed: {answer['error']}")
            result = answer.get("result") or {}
            tools.extend(tool for tool in result.get("tools", []) if isinstance(tool, dict))
            cursor = result.get("nextCursor")
            if not cursor:
                break
        return tools
    finally:
        server.close()


def _env(home: Path) -> dict[str, str]:
    env = {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "HOME": str(home),
        "TMPDIR": str(home),
        "LANG": "C.UTF-8",
    }
    for name in ("SSL_CERT_FILE", "NODE_EXTRA_CA_CERTS"):
        if name in os.environ:
            env[name] = os.environ[name]
    env.update(PLACEHOLDER_ENV)
    return env


def _run(command: list[str], cwd: Path, env: dict[str, str], timeout: float) -> None:
    done = subprocess.run(command, cwd=cwd, env=env, capture_output=True, timeout=timeout, check=False)
    if done.returncode != 0:
        tail = (done.stderr or done.stdout).decode("utf-8", "replace").strip().splitlines()[-3:]
        raise RuntimeError(f"{command[0]} failed ({done.returncode}): " + " | ".join(tail))


def _args(extra: list[str], sandbox: Path) -> list[str]:
    return [arg.replace("{sandbox}", str(sandbox)) for arg in extra]


def _node() -> str:
    """Node.js 22 when the repository's .cache has it (several servers need it), else ``node`` on PATH."""
    pinned = (
        Path(__file__).resolve().parents[2] / ".cache" / "node22" / "node_modules" / "node" / "bin" / "node"
    )
    return str(pinned) if pinned.exists() else os.environ.get("NODE", "node")


def build_npm(package: str, extra: list[str], scratch: Path) -> Outcome:
    outcome = Outcome(package, "npm")
    root = scratch / "npm" / _safe(package)
    home, sandbox = root / "home", root / "sandbox"
    for folder in (home, sandbox):
        folder.mkdir(parents=True, exist_ok=True)
    env = _env(home)
    try:
        manifest = root / "node_modules" / package / "package.json"
        if not manifest.exists():
            (root / "package.json").write_text('{"private": true}')
            _run(
                [
                    "npm",
                    "install",
                    "--no-audit",
                    "--no-fund",
                    "--ignore-scripts",
                    "--loglevel=error",
                    package,
                ],
                root,
                env,
                INSTALL_TIMEOUT,
            )
        meta = json.loads(manifest.read_text())
        outcome.version = meta["version"]
        bins = meta.get("bin")
        if isinstance(bins, str):
            entry = bins
        elif isinstance(bins, dict) and bins:
            short = package.rsplit("/", 1)[-1]
            entry = bins.get(short) or bins.get(package) or sorted(bins.items())[0][1]
        elif meta.get("main"):
            entry = meta["main"]
        else:
            raise RuntimeError("package has no bin or main")
        outcome.tools = list_tools(
            [_node(), str(manifest.parent / entry), *_args(extra, sandbox)], sandbox, env
        )
    except Exception as exc:
        outcome.error = f"{type(exc).__name__}: {exc}"[:400]
    return outcome


def _scripts(venv: Path, package: str) -> list[Path]:
    """The console scripts the package installed, most likely server entry point first."""
    skip = re.compile(
        r"^(python[\d.]*|pip[\d.]*|activate.*|uv|uvx|deactivate|pydoc.*|.*\.(ps1|csh|fish|bat))$"
    )
    baseline = {"f2py", "normalizer", "httpx", "dotenv", "jsonschema", "markdown-it", "pygmentize", "uvicorn"}
    found = [
        path
        for path in sorted((venv / "bin").iterdir())
        if path.is_file() and not skip.match(path.name) and path.name not in baseline
    ]
    stem = package.lower().replace("_", "-")

    def rank(path: Path) -> tuple[int, str]:
        name = path.name.lower().replace("_", "-")
        return (0 if name == stem else 1 if "mcp" in name else 2, name)

    return sorted(found, key=rank)


def build_pypi(package: str, extra: list[str], scratch: Path) -> Outcome:
    outcome = Outcome(package, "pypi")
    root = scratch / "pypi" / _safe(package)
    home, sandbox, venv = root / "home", root / "sandbox", root / "venv"
    for folder in (home, sandbox):
        folder.mkdir(parents=True, exist_ok=True)
    env = _env(home)
    uv = shutil.which("uv")
    try:
        if not (venv / "bin" / "python").exists():
            if uv:
                _run([uv, "venv", "-q", "--python", sys.executable, str(venv)], root, env, 120)
            else:
                _run([sys.executable, "-m", "venv", str(venv)], root, env, 120)
        python = venv / "bin" / "python"
        marker = root / "installed"
        if not marker.exists():
            if uv:
                install_env = env | {"VIRTUAL_ENV": str(venv), "UV_NATIVE_TLS": "1"}
                _run(
                    [uv, "pip", "install", "-q", "--python", str(python), package],
                    root,
                    install_env,
                    INSTALL_TIMEOUT,
                )
            else:
                _run([str(python), "-m", "pip", "install", "-q", package], root, env, INSTALL_TIMEOUT)
            marker.write_text("")
        shown = subprocess.run(
            [str(python), "-c", f"import importlib.metadata as m; print(m.version({package!r}))"],
            capture_output=True,
            text=True,
            timeout=60,
            check=True,
        )
        outcome.version = shown.stdout.strip()
        errors = []
        for script in _scripts(venv, package)[:3]:
            try:
                outcome.tools = list_tools([str(script), *_args(extra, sandbox)], sandbox, env)
                break
            except Exception as exc:
                errors.append(f"{script.name}: {type(exc).__name__}: {exc}"[:200])
        else:
            raise RuntimeError("; ".join(errors) or "no console script")
    except Exception as exc:
        outcome.error = f"{type(exc).__name__}: {exc}"[:400]
    return outcome


def _definition(tool: dict[str, Any]) -> dict[str, Any] | None:
    """The parts of a listed tool the scan reads, or None when it is not a well-formed definition."""
    name, schema = tool.get("name"), tool.get("inputSchema")
    if not isinstance(name, str) or not isinstance(schema, dict):
        return None
    kept: dict[str, Any] = {"name": name, "description": tool.get("description") or ""}
    if isinstance(tool.get("title"), str):
        kept["title"] = tool["title"]
    kept["inputSchema"] = schema
    if isinstance(tool.get("outputSchema"), dict):
        kept["outputSchema"] = tool["outputSchema"]
    return kept


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--scratch", type=Path, default=Path("/tmp/corpus-build"))
    parser.add_argument("--jobs", type=int, default=3)
    parser.add_argument("--only", nargs="*", help="build only these packages (merged into the existing file)")
    parser.add_argument("--out", type=Path, default=OUT)
    parser.add_argument("--registry", choices=("npm", "pypi"), help="build only this registry's candidates")
    parser.add_argument(
        "--merge",
        nargs="*",
        type=Path,
        help="write --out from these progress files (*.jsonl, one outcome a line) instead of building",
    )
    options = parser.parse_args()
    if options.merge is not None:
        merged: dict[tuple[str, str], Outcome] = {}
        for progress in options.merge:
            for line in progress.read_text().splitlines():
                outcome = Outcome(**json.loads(line))
                merged[(outcome.registry, outcome.package)] = outcome
        _write(merged, options.out)
        return
    scratch = options.scratch.resolve()
    if scratch.is_relative_to(Path(__file__).resolve().parents[2]):
        parser.error("--scratch must be outside the repository")
    jobs = [(build_npm, package, extra) for package, extra in NPM] + [
        (build_pypi, package, extra) for package, extra in PYPI
    ]
    if options.only:
        jobs = [job for job in jobs if job[1] in options.only]
    if options.registry:
        jobs = [job for job in jobs if (job[0] is build_npm) == (options.registry == "npm")]
    # Every outcome is also appended to a progress file as it comes, so a long build can be inspected (and
    # merged with another registry's build: --merge) before it ends.
    progress = options.out.with_suffix(f".{options.registry or 'all'}.jsonl")
    outcomes: dict[tuple[str, str], Outcome] = {}
    if options.only and options.out.exists():
        previous = json.loads(options.out.read_text())
        for key, info in previous["packages"].items():
            registry, package = key.split(":", 1)
            outcomes[(registry, package)] = Outcome(package, registry, info["version"], [])
        for tool in previous["tools"]:
            outcomes[(tool["registry"], tool["package"])].tools.append(tool)
        for key, error in previous.get("failed", {}).items():
            registry, package = key.split(":", 1)
            outcomes[(registry, package)] = Outcome(package, registry, error=error)
    outcomes.update(run_builds(jobs, scratch, options.jobs, progress))
    _write(outcomes, options.out)


Build = Callable[[str, list[str], Path], Outcome]


def run_builds(
    jobs: list[tuple[Build, str, list[str]]], scratch: Path, workers: int, progress: Path | None = None
) -> dict[tuple[str, str], Outcome]:
    """Run every ``(build, package, extra)`` job in ``scratch``, ``workers`` at a time, and return their
    outcomes. Each outcome is appended to ``progress`` (``scratch/progress.jsonl`` unless given) as it comes,
    so a long build can be inspected or merged (:func:`read_progress`), and printed in a line."""
    outcomes: dict[tuple[str, str], Outcome] = {}
    scratch.mkdir(parents=True, exist_ok=True)
    progress = progress or scratch / "progress.jsonl"
    with concurrent.futures.ThreadPoolExecutor(workers) as pool:
        futures = [pool.submit(build, package, extra, scratch) for build, package, extra in jobs]
        for future in concurrent.futures.as_completed(futures):
            outcome = future.result()
            outcomes[(outcome.registry, outcome.package)] = outcome
            with progress.open("a", encoding="utf-8") as handle:
                handle.write(json.dumps(outcome.__dict__, ensure_ascii=False) + "\n")
            status = f"{len(outcome.tools)} tools" if not outcome.error else outcome.error[:150]
            print(f"{outcome.registry}:{outcome.package} {outcome.version}: {status}", flush=True)
    return outcomes


def builder_main(
    description: str,
    jobs: list[tuple[Build, str, list[str]]],
    write: Callable[[dict[tuple[str, str], Outcome], Path], None],
    *,
    out: Path,
    scratch: Path,
    workers: int,
    extra_env: Mapping[str, str],
    install_timeout: float = INSTALL_TIMEOUT,
) -> None:
    """The command line of a later real-tool builder: build ``jobs`` (``--only`` some of them) in a scratch
    folder outside the repository, or ``--merge`` progress files, and ``write`` the part to ``--out``."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--scratch", type=Path, default=scratch)
    parser.add_argument("--jobs", type=int, default=workers)
    parser.add_argument("--only", nargs="*", help="build only these packages")
    parser.add_argument("--out", type=Path, default=out)
    parser.add_argument("--install-timeout", type=float, default=install_timeout)
    parser.add_argument(
        "--merge",
        nargs="*",
        type=Path,
        help="write --out from these progress files (progress.jsonl in a scratch folder) instead of building",
    )
    options = parser.parse_args()
    PLACEHOLDER_ENV.update(extra_env)
    global INSTALL_TIMEOUT
    INSTALL_TIMEOUT = options.install_timeout
    if options.merge is not None:
        write(read_progress(options.merge), options.out)
        return
    folder = options.scratch.resolve()
    if folder.is_relative_to(Path(__file__).resolve().parents[2]):
        parser.error("--scratch must be outside the repository")
    chosen = [job for job in jobs if not options.only or job[1] in options.only]
    # Each outcome is appended to a progress file as it comes, so a long build can be inspected or merged.
    write(run_builds(chosen, folder, options.jobs), options.out)


def read_progress(paths: list[Path]) -> dict[tuple[str, str], Outcome]:
    """The outcomes recorded in progress files (:func:`run_builds`), a later one of a package winning."""
    outcomes: dict[tuple[str, str], Outcome] = {}
    for path in paths:
        for line in path.read_text(encoding="utf-8").splitlines():
            outcome = Outcome(**json.loads(line))
            outcomes[(outcome.registry, outcome.package)] = outcome
    return outcomes


def identity(definition: dict[str, Any]) -> str:
    """What makes two definitions the same one: name, description and input schema."""
    return json.dumps(
        {key: definition.get(key) for key in ("name", "description", "inputSchema")}, sort_keys=True
    )


def identities(names: tuple[str, ...]) -> set[str]:
    """The :func:`identity` of every definition of the corpus files ``names`` (a later part must not repeat
    an earlier one's)."""
    found: set[str] = set()
    for name in names:
        document = json.loads((Path(__file__).resolve().parent / name).read_text(encoding="utf-8"))
        found.update(identity(tool) for tool in document["tools"])
    return found


def kept_definitions(
    outcomes: dict[tuple[str, str], Outcome], seen: set[str], constrained: frozenset[str] = frozenset()
) -> tuple[dict[str, Any], dict[str, str], list[dict[str, Any]]]:
    """A corpus file's ``packages``, ``failed`` and ``tools`` from every package's outcome: sorted, and each
    definition kept once, unless its identity is in ``seen`` (which grows with what is kept). A package in
    ``constrained`` was installed with ``mcp<2``, and is recorded so, for the build to be repeated."""
    packages: dict[str, Any] = {}
    failed: dict[str, str] = {}
    tools: list[dict[str, Any]] = []
    for (registry, package), outcome in sorted(outcomes.items()):
        key = f"{registry}:{package}"
        if outcome.error or not outcome.tools:
            failed[key] = outcome.error or "listed no tools"
            continue
        kept = 0
        for tool in sorted(outcome.tools, key=lambda tool: str(tool.get("name"))):
            definition = _definition(tool)
            if definition is None or identity(definition) in seen:
                continue
            seen.add(identity(definition))
            tools.append({"package": package, "registry": registry, "version": outcome.version, **definition})
            kept += 1
        if kept:
            packages[key] = {"version": outcome.version, "tools": kept}
            if package in constrained:
                packages[key]["constraint"] = "mcp<2"
    return packages, failed, tools


def _write(outcomes: dict[tuple[str, str], Outcome], out: Path) -> None:
    """Write the corpus file from every package's outcome."""
    packages, failed, tools = kept_definitions(outcomes, set())
    document = {
        "about": (
            "Real MCP tool definitions, listed with tools/list by tests/corpus/build_benign.py from the npm "
            "and PyPI packages in 'packages' (started over stdio with placeholder credentials). They measure "
            "the false-positive rate of mcp_troupe.policy.injection (tests/unit/test_injection_corpus.py). "
            "The text is quoted as test data and belongs to the packages' authors. Do not edit entries to "
            "make a test pass: tune the rules."
        ),
        "built": time.strftime("%Y-%m-%d"),
        "packages": packages,
        "failed": failed,
        "tools": tools,
    }
    write_document(document, out)


def write_document(document: dict[str, Any], out: Path) -> None:
    """Write a corpus document with one tool a line, so that a rebuild's diff stays readable."""
    tools, packages, failed = document["tools"], document["packages"], document["failed"]
    with out.open("w", encoding="utf-8") as handle:
        handle.write("{\n")
        for key in ("about", "built", "packages", "failed"):
            handle.write(
                f"{json.dumps(key)}: {json.dumps(document[key], sort_keys=True, ensure_ascii=False)},\n"
            )
        handle.write('"tools": [\n')
        handle.write(",\n".join(json.dumps(tool, ensure_ascii=False, sort_keys=True) for tool in tools))
        handle.write("\n]}\n")
    print(f"{len(packages)} packages, {len(tools)} tools, {len(failed)} failed -> {out}")


if __name__ == "__main__":
    main()
