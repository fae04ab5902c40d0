// The server's token estimate (kimi-cli's): the code points of the text
// parts of the messages, divided by four, rounded down.

export function textChars(m) {
  let n = 0;
  for (const p of (m && m.content) || []) if (p.type === "text") n += codePoints(p.text);
  return n;
}

export function codePoints(s) {
  let n = 0;
  for (const _ of String(s ?? "")) n++;
  return n;
}

export function estimateTokens(msgs) {
  let chars = 0;
  for (const m of msgs || []) chars += textChars(m);
  return Math.floor(chars / 4);
}

// approx formats an estimate: "~1,591 tokens".
export function approx(tokens) {
  return `~${tokens.toLocaleString()} ${tokens === 1 ? "token" : "tokens"}`;
}
