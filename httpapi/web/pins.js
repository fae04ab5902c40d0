// The session's pinned messages (docs/compaction.md#pinned-messages):
// setPin, which the message's menu (menu.js) calls, sets the session's
// "pinned" list (PATCH …/settings), and a mark on each message a compaction
// would keep verbatim after its summary: the pinned ones, and the rest of a
// pinned message's tool exchange.

import { $, h, showError } from "./dom.js";
import { view } from "./state.js";
import { on } from "./events.js";
import { updateSettings } from "./sessions.js";
import { reloadSession } from "./conversation.js";
import { sparseMessages } from "./window.js";

// exchangeOf returns the ids a compaction keeps with the pinned ones: a
// pinned message of a tool exchange pins the assistant message with the
// calls and every result answering them. messages may be sparse (the
// messages read around the screen: an exchange is drawn together).
function exchangeOf(messages, pinned) {
  const callAt = new Map(); // tool call id -> the index of the message making it
  messages.forEach((m, i) => (m.tool_calls || []).forEach((c) => callAt.set(c.id, i)));
  const calling = new Set();
  messages.forEach((m, i) => {
    if (!pinned.has(m.id)) return;
    if ((m.tool_calls || []).length) calling.add(i);
    if (m.role === "tool" && callAt.has(m.tool_call_id)) calling.add(callAt.get(m.tool_call_id));
  });
  const kept = new Set();
  messages.forEach((m, i) => {
    if (calling.has(i) || (m.role === "tool" && calling.has(callAt.get(m.tool_call_id)))) kept.add(m.id);
  });
  return kept;
}

// isPinned reports whether the session on screen pins message id.
export function isPinned(id) {
  return !!view.session && (view.session.pinned || []).includes(id);
}

// markPins marks each message of the session on screen that a compaction
// would keep verbatim (the message's menu, menu.js, pins and unpins).
function markPins() {
  const s = view.session;
  if (!s) return;
  const pinned = new Set(s.pinned || []);
  const withExchange = exchangeOf(sparseMessages(), pinned);
  for (const art of document.querySelectorAll("#messages article.msg")) {
    const id = art.dataset.id;
    const head = art.querySelector(".msg-head");
    if (!id || !head) continue;
    head.querySelector(".pin-mark")?.remove();
    const kept = pinned.has(id) || withExchange.has(id);
    art.classList.toggle("msg-pinned", kept);
    if (!kept) continue;
    const mark = h(
      "span",
      { class: "badge pin-mark", "data-testid": "pin-mark", title: "Every compaction keeps this message verbatim, right after its summary" },
      pinned.has(id) ? "pinned" : "pinned with its tool exchange",
    );
    head.insertBefore(mark, head.querySelector(".spacer"));
  }
}

// setPin pins (or unpins) message id of the session on screen and loads
// the session again (its version went up, and the plan may differ); the
// server's refusal shows under the session's title.
export async function setPin(id, pin) {
  const sid = view.id;
  const s = view.session;
  if (!s) return;
  const pinned = (s.pinned || []).filter((p) => p !== id);
  if (pin) pinned.push(id);
  try {
    await updateSettings(sid, { pinned });
    if (sid === view.id) reloadSession();
  } catch (e) {
    if (sid === view.id) showError($("session-status"), e, "pin-error");
  }
}

// initPins marks the messages each time they are drawn.
export function initPins() {
  on("messages rendered", markPins);
}
