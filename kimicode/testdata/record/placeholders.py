#!/usr/bin/env python3
"""Replaces, in every file under VECTORS, the texts of Kimi Code (TEXTS = ../shared/kimi-code/texts)
by placeholders, so that the project never holds them (they are third-party text).

Each text is cut at its template variables (${name}); piece i of FILE becomes
{{kimi-code:FILE#i}}, and the same piece with its trailing white space removed (JavaScript's
trimEnd, as Kimi Code renders some of them) {{kimi-code:FILE#i~}}. Pieces are replaced as they
appear inside JSON strings (escaped as JSON.stringify does); pieces shorter than 16 characters
stay. Tests fill the placeholders from the same files (kimicode.FillPlaceholders).
usage: placeholders.py TEXTS VECTORS"""
import json, os, re, sys

VAR = re.compile(r"\$\{[a-z_]+\}")


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


def main():
    texts, root = sys.argv[1], sys.argv[2]
    ps = pieces(texts)
    for d, _, files in os.walk(root):
        for f in files:
            path = os.path.join(d, f)
            s = open(path, encoding="utf-8").read()
            t = s
            for ph, esc in ps:
                t = t.replace(esc, ph)
            if t != s:
                open(path, "w", encoding="utf-8").write(t)


if __name__ == "__main__":
    main()
