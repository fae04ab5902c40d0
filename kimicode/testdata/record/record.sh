#!/usr/bin/env bash
# Records the cases of casedefs.py with real Kimi Code 2.1.0 into ../vectors, using the harness of
# ../shared/kimi-code/harness (setup.sh installs Node 22 and Kimi Code from npm), then replaces the
# texts of ../shared/kimi-code/texts and the system prompts and tools of ../shared/kimi-code/recorded by
# placeholders (placeholders.py): the project never holds them. It fails, naming their SHA-256, on a
# system prompt or tools array that recorded/ does not list.
#   record.sh [CASE ...]   (from anywhere; KIMI_CODE_ENV as setup.sh reads it)
# Glob and Grep run ripgrep: put an `rg` on PATH (Debian's ripgrep package), else Kimi Code tries
# to download one and, offline, records their failure instead of their results.
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
SHARED="$HERE/../../../../shared/kimi-code"
OUT="$HERE/../vectors"
python3 - "$SHARED/harness" "$HERE" "$OUT" "$@" <<'PY'
import sys
harness, here, out, names = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]
sys.path.insert(0, harness)
import record  # noqa: E402  (the harness's recorder)
import importlib.util  # noqa: E402
spec = importlib.util.spec_from_file_location("kompact_casedefs", here + "/casedefs.py")
mine = importlib.util.module_from_spec(spec)
spec.loader.exec_module(mine)
record.casedefs = mine  # this folder's cases, not the harness's examples
sys.argv = ["record.py", "--out", out] + names
record.main()
PY
python3 "$HERE/placeholders.py" "$SHARED/texts" "$OUT" "$SHARED/recorded"
# The harness leaves the date reminders' disclosed day as recorded; Kimi Code compares it with
# today's on resume, so it is templated as $DATE like the reminder's text.
grep -rl '"localDate":"' "$OUT" | xargs -r sed -i -E 's/"localDate":"[0-9]{4}-[0-9]{2}-[0-9]{2}"/"localDate":"$DATE"/g'
