#!/usr/bin/env bash
# Installs Claude Code 2.1.332 (npm @anthropic-ai/claude-code, the version pinned: its postinstall
# links the native binary of @anthropic-ai/claude-code-linux-x64, which needs no Node at run time)
# into a cache folder, reused when it holds that version, and prints the claude binary's path
# (CLAUDE_CODE_BIN) on its last line.
#   CLAUDE_CODE_ENV: the cache folder (default /tmp/claude-code-env)
set -euo pipefail
E="${CLAUDE_CODE_ENV:-/tmp/claude-code-env}"
VER=2.1.332
B="$E/node_modules/.bin/claude"
mkdir -p "$E"
if ! "$B" --version 2>/dev/null | grep -q "^$VER "; then
  if ! command -v npm >/dev/null 2>&1; then
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq npm >/dev/null
  fi
  echo '{"name":"claude-code-env","private":true}' > "$E/package.json"
  (cd "$E" && npm install --silent --no-audit --no-fund "@anthropic-ai/claude-code@$VER" >/dev/null)
fi
"$B" --version | grep -q "^$VER "
echo "$B"
