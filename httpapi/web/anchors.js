// Where "Compact up to here" may anchor. The server decides (the root
// package's Prepare, prepare.go): this module mirrors its rules so that a
// message's menu offers only what the server accepts, and
// TestBrowserUpToHereMatchesServer compares the two on every message of a
// session with tool calls.
//
// Compacting up to message i replaces messages 1..i (a leading system
// message stays). The server answers a no-op when that leaves nothing but
// the leading system message, or only one earlier summary; and it refuses
// a cut that keeps a tool call's result without its call
// (checkToolPairs). msgs may be sparse (the windowed page reads only the
// messages near the screen, and the first): a message not read counts as
// no tool result, and no anchor. At such a message the menu offers the nearest message
// after it where the cut is whole, so the call keeps its results.

import { isSummary } from "./summary.js";

// separatedCall returns where a cut before msgs[cut] (msgs[0..cut-1]
// compacted) separates a tool call from its result: {call, result}, the
// indexes of the first result at or after the cut whose call is before it;
// null for none. Message ids and tool call ids are the server's.
export function separatedCall(msgs, cut) {
  if (cut <= 0 || cut >= msgs.length) return null;
  const callAt = new Map();
  msgs.forEach((m, i) => (m.tool_calls || []).forEach((c) => c.id && callAt.set(c.id, i)));
  for (let i = cut; i < msgs.length; i++) {
    if (!msgs[i] || msgs[i].role !== "tool") continue;
    const at = callAt.get(msgs[i].tool_call_id);
    if (at !== undefined && at < cut) return { call: at, result: i };
  }
  return null;
}

// firstReplaced is the index of the first message a compaction from the
// start replaces: 1 when a leading system message stays, else 0.
export function firstReplaced(msgs) {
  return msgs.length && msgs[0] && msgs[0].role === "system" ? 1 : 0;
}

// noopAt reports whether compacting up to msgs[i] is a no-op for the
// server: nothing but the leading system message, or a lone summary.
function noopAt(msgs, i) {
  const n = i + 1 - firstReplaced(msgs);
  return n <= 0 || (n === 1 && isSummary(msgs[i]));
}

// upToHere returns what the menu of msgs[i] offers for "Compact up to
// here": null for nothing, else {index, first, last, separated}: the anchor
// (i itself, or the nearest later message with an id where the cut keeps
// tool calls with their results), the 1-based numbers of the first and
// last messages it replaces, and, when the anchor moved, what compacting
// up to i would have separated ({call, result}).
export function upToHere(msgs, i) {
  if (i < 0 || i >= msgs.length || !msgs[i] || noopAt(msgs, i)) return null;
  const separated = separatedCall(msgs, i + 1);
  let j = i;
  if (separated) {
    j = i + 1;
    while (j < msgs.length && msgs[j] && (!msgs[j].id || separatedCall(msgs, j + 1))) j++;
    if (j >= msgs.length || !msgs[j] || noopAt(msgs, j)) return null;
  }
  if (!msgs[j].id) return null;
  return { index: j, first: firstReplaced(msgs) + 1, last: j + 1, separated };
}
