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
