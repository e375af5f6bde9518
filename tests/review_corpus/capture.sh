#!/usr/bin/env bash
# Re-take the corpus snapshots (needs the package registries; the tests never run this).
#   bash tests/review_corpus/capture.sh /path/to/scratch
# Installs each published server into throwaway environments under the scratch folder, outside the repository,
# and writes each one's tools/list with `course snapshot`, run from the scratch folder so the recorded target is
# the command a user would type. Versions are pinned to those in corpus.toml; review the diff, then update
# the expected findings in tests/test_review_corpus.py by hand.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
course="$here/../../.venv/bin/course"
scratch="$(mkdir -p "$1" && cd "$1" && pwd)"
cd "$scratch"
python3 -m venv mcp2 && mcp2/bin/pip install -q mcp-server-time==2026.10.19 mcp-server-fetch==2026.10.24 \
    mcp-server-git==2026.10.19
# These three pin mcp<2 or need it (mcp-server-sqlite 2025.4.25 crashes at start-up on mcp 2.x).
python3 -m venv mcp1 && mcp1/bin/pip install -q "mcp<2" mcp-server-sqlite==2025.4.25 mcp-shell-server==1.1.14 \
    mcp-server-calculator==0.2.1
python3 -m venv gitold && gitold/bin/pip install -q mcp-server-git==2026.8.18
npm install --no-audit --no-fund @modelcontextprotocol/server-everything@2026.8.31 \
    @modelcontextprotocol/server-filesystem@2026.8.31 @modelcontextprotocol/server-memory@2026.8.31
export PATH="$scratch/mcp2/bin:$scratch/mcp1/bin:$PATH"
snap() { "$course" snapshot "$1" -o "$here/$2.json"; }
snap mcp-server-time mcp-server-time
snap mcp-server-fetch mcp-server-fetch
snap mcp-server-git mcp-server-git
snap "mcp-server-sqlite --db-path corpus.db" mcp-server-sqlite
snap "env ALLOW_COMMANDS=ls,cat,grep,wc mcp-shell-server" mcp-shell-server
snap mcp-server-calculator mcp-server-calculator
PATH="$scratch/gitold/bin:$PATH" snap mcp-server-git mcp-server-git-2026.8.18
for name in everything filesystem memory; do
    args=""; [ "$name" = filesystem ] && args=" ."
    snap "node node_modules/@modelcontextprotocol/server-$name/dist/index.js$args" "server-$name"
done

# --- issue 32's servers (versions as in corpus.toml); API keys are placeholders that no listing uses ---------------
npm install --no-audit --no-fund --ignore-scripts @playwright/mcp@0.0.83 chrome-devtools-mcp@1.11.0 \
    @modelcontextprotocol/server-sequential-thinking@2026.8.31 @modelcontextprotocol/server-github@2025.4.8 \
    @modelcontextprotocol/server-puppeteer@2025.5.12 mcp-server-kubernetes@4.1.7 @notionhq/notion-mcp-server@2.5.2 \
    @upstash/context7-mcp@4.1.1 firecrawl-mcp@3.26.0 @modelcontextprotocol/server-slack@2025.4.25 \
    @modelcontextprotocol/server-brave-search@0.6.2 @modelcontextprotocol/server-gitlab@2025.4.25 \
    @modelcontextprotocol/server-google-maps@0.6.2 @modelcontextprotocol/server-postgres@0.6.2 tavily-mcp@0.2.22 \
    @wonderwhy-er/desktop-commander@0.2.52 exa-mcp-server@3.4.1 @executeautomation/playwright-mcp-server@1.0.12
python3 -m venv atlassian && atlassian/bin/pip install -q mcp-atlassian==0.23.1
python3 -m venv ddg && ddg/bin/pip install -q duckduckgo-mcp-server==0.7.0
python3 -m venv excel && excel/bin/pip install -q excel-mcp-server==2.2.2
m=node_modules
snap "node $m/@playwright/mcp/cli.js --caps=vision,pdf,testing" playwright-mcp
snap "node $m/chrome-devtools-mcp/build/src/bin/chrome-devtools-mcp.js" chrome-devtools-mcp
snap "node $m/@modelcontextprotocol/server-sequential-thinking/dist/index.js" server-sequential-thinking
snap "env GITHUB_PERSONAL_ACCESS_TOKEN=unused node $m/@modelcontextprotocol/server-github/dist/index.js" server-github
snap "node $m/@modelcontextprotocol/server-puppeteer/dist/index.js" server-puppeteer
snap "node $m/mcp-server-kubernetes/dist/index.js" mcp-server-kubernetes
snap "node $m/@notionhq/notion-mcp-server/bin/cli.mjs" notion-mcp-server
snap "node $m/@upstash/context7-mcp/dist/index.js" context7-mcp
snap "env FIRECRAWL_API_KEY=unused node $m/firecrawl-mcp/dist/index.js" firecrawl-mcp
snap "env SLACK_BOT_TOKEN=unused SLACK_TEAM_ID=unused node $m/@modelcontextprotocol/server-slack/dist/index.js" server-slack
snap "env BRAVE_API_KEY=unused node $m/@modelcontextprotocol/server-brave-search/dist/index.js" server-brave-search
snap "env GITLAB_PERSONAL_ACCESS_TOKEN=unused node $m/@modelcontextprotocol/server-gitlab/dist/index.js" server-gitlab
snap "env GOOGLE_MAPS_API_KEY=unused node $m/@modelcontextprotocol/server-google-maps/dist/index.js" server-google-maps
snap "node $m/@modelcontextprotocol/server-postgres/dist/index.js postgresql://127.0.0.1/unused" server-postgres
snap "env TAVILY_API_KEY=unused node $m/tavily-mcp/build/index.js" tavily-mcp
snap "node $m/@wonderwhy-er/desktop-commander/dist/index.js" desktop-commander
snap "env EXA_API_KEY=unused node $m/exa-mcp-server/dist/stdio.cjs" exa-mcp-server
snap "node $m/@executeautomation/playwright-mcp-server/dist/index.js" ea-playwright-mcp-server
PATH="$scratch/atlassian/bin:$PATH" snap "env JIRA_URL=https://jira.invalid JIRA_USERNAME=u JIRA_API_TOKEN=t CONFLUENCE_URL=https://confluence.invalid CONFLUENCE_USERNAME=u CONFLUENCE_API_TOKEN=t mcp-atlassian" mcp-atlassian
PATH="$scratch/ddg/bin:$PATH" snap duckduckgo-mcp-server duckduckgo-mcp-server
PATH="$scratch/excel/bin:$PATH" snap "excel-mcp-server stdio" excel-mcp-server
