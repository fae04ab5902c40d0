#!/usr/bin/env python3
"""Replaces, in every file under VECTORS, the texts of Kimi Code (TEXTS = ../shared/kimi-code/texts)
and the system prompts and tools its sessions record (RECORDED = ../shared/kimi-code/recorded)
by placeholders, so that the project never holds them (they are third-party text).

First each file of RECORDED: a system prompt (system-prompt-*.txt) as it appears inside a JSON
string becomes {{kimi-code-recorded:FILE}}, a tools array (tools-*.json) as its bytes stand
{{kimi-code-recorded:FILE}} too. A system prompt (profile.bind's systemPrompt) or a tools array
(llm.tools_snapshot's tools) left over is not listed in RECORDED: the script names its SHA-256
and exits 1, and that text must be added to RECORDED (never to the project) before the
recording is committed.

Each text is cut at its template variables (${name}); piece i of FILE becomes
{{kimi-code:FILE#i}}, and the same piece with its trailing white space removed (JavaScript's
trimEnd, as Kimi Code renders some of them) {{kimi-code:FILE#i~}}. Pieces are replaced as they
appear inside JSON strings (escaped as JSON.stringify does); pieces shorter than 16 characters
stay. Tests fill the placeholders from the same files (kimicode.FillPlaceholders).
usage: placeholders.py TEXTS VECTORS [RECORDED]"""
import hashlib, json, os, re, sys

VAR = re.compile(r"\$\{[a-z_]+\}")
PLACEHOLDER = re.compile(r"\{\{kimi-code-recorded:[a-z0-9.-]+\}\}")


def pieces(texts):
    out = []
    for name in sorted(os.listdir(texts)):
        body = open(os.path.join(texts, name), encoding="utf-8").read()
        for i, piece in enumerate(VAR.split(body)):
            for suffix, p in (("", piece), ("~", piece.rstrip())):
                if len(p) >= 16:
                    out.append(("{{kimi-code:%s#%d%s}}" % (name, i, suffix), json.dumps(p, ensure_ascii=False)[1:-1]))
    out.sort(key=lambda x: -len(x[1]))
    return out


def recorded(folder):
    out = []
    for name in sorted(os.listdir(folder)):
        body = open(os.path.join(folder, name), encoding="utf-8").read()
        if name.startswith("system-prompt-") and name.endswith(".txt"):
            out.append(("{{kimi-code-recorded:%s}}" % name, json.dumps(body, ensure_ascii=False)[1:-1]))
        elif name.startswith("tools-") and name.endswith(".json"):
            out.append(("{{kimi-code-recorded:%s}}" % name, body))
    out.sort(key=lambda x: -len(x[1]))
    return out


def unlisted(path, s):
    """The system prompts and tools arrays of a wire.jsonl that no placeholder replaced."""
    out = []
    for line in s.splitlines():
        try:
            r = json.loads(line)
        except ValueError:
            continue
        # A line whose tools were replaced no longer parses; a replaced prompt is a placeholder.
        if r.get("type") == "profile.bind" and isinstance(r.get("systemPrompt"), str) and not PLACEHOLDER.fullmatch(r["systemPrompt"]):
            out.append(("system prompt", r["systemPrompt"].encode("utf-8")))
        if r.get("type") == "llm.tools_snapshot" and isinstance(r.get("tools"), list):
            out.append(("tools", json.dumps(r["tools"], ensure_ascii=False, separators=(",", ":")).encode("utf-8")))
    return ["%s: a %s not in RECORDED, SHA-256 %s" % (path, k, hashlib.sha256(b).hexdigest()) for k, b in out]


def main():
    texts, root = sys.argv[1], sys.argv[2]
    ps = (recorded(sys.argv[3]) if len(sys.argv) > 3 else []) + pieces(texts)
    missing = []
    for d, _, files in os.walk(root):
        for f in files:
            path = os.path.join(d, f)
            s = open(path, encoding="utf-8").read()
            t = s
            for ph, esc in ps:
                t = t.replace(esc, ph)
            if t != s:
                open(path, "w", encoding="utf-8").write(t)
            if len(sys.argv) > 3 and f == "wire.jsonl":
                missing += unlisted(path, t)
    for m in missing:
        print(m, file=sys.stderr)
    if missing:
        sys.exit(1)


if __name__ == "__main__":
    main()
