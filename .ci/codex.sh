#!/usr/bin/env bash
# Installs Codex CLI 0.171.0 (npm @openai/codex, the version pinned: its optional dependency
# @openai/codex-linux-x64 carries a static musl binary that needs no Node at run time) into a
# cache folder, reused when it holds that version, and prints the native codex binary's path
# (CODEX_BIN) on its last line. npm comes from Debian when absent, as for Claude Code.
#   CODEX_ENV: the cache folder (default /tmp/codex-env)
set -euo pipefail
E="${CODEX_ENV:-/tmp/codex-env}"
VER=0.171.0
mkdir -p "$E"
find_bin() { find "$E/node_modules/@openai" -path '*linux-musl*' -type f -name codex -perm -u+x 2>/dev/null | head -1 || true; }
B=$(find_bin)
if [ -z "$B" ] || ! "$B" --version 2>/dev/null | grep -q " $VER$"; then
  if ! command -v npm >/dev/null 2>&1; then
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq npm >/dev/null
  fi
  echo '{"name":"codex-env","private":true}' > "$E/package.json"
  (cd "$E" && npm install --silent --no-audit --no-fund "@openai/codex@$VER" >/dev/null)
  B=$(find_bin)
fi
if [ -z "$B" ]; then
  echo "codex.sh: no linux-musl codex binary under $E/node_modules/@openai (is this linux-x64?)" >&2
  exit 1
fi
"$B" --version | grep -q " $VER$"
echo "$B"
