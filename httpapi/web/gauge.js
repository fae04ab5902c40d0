// The context gauge: how much of the model's context window a session
// uses (GET …/context), with a line where compaction becomes due. For a
// model whose window is no larger than reserved_context_size, compaction
// is always due: the gauge says so once, with the value to set, rather
// than "compaction due" as news.

import { h, plural } from "./dom.js";
import { call } from "./api.js";
import { approx } from "./estimate.js";

// MAX_GAUGES bounds the context calls the session list makes.
const MAX_GAUGES = 30;

// triggerAt is the token count at which compaction is due: kimi-cli's
// trigger ratio or its reserved room, whichever comes first.
function triggerAt(c) {
  const byRatio = c.trigger_ratio * c.max_context_size;
  const byReserve = c.max_context_size - c.reserved_context_size;
  return Math.max(0, Math.floor(Math.min(byRatio, byReserve)));
}

// smallWindowNote: why compaction is always due with c's model, and the
// reserved_context_size to set (the server's suggestion).
export function smallWindowNote(c) {
  const n = c.suggested_reserved_context_size;
  const why = `This model's window (${c.max_context_size.toLocaleString()} tokens) is no larger than reserved_context_size (${c.reserved_context_size.toLocaleString()}), so compaction is always due`;
  if (n && n < c.max_context_size) return `${why}; set compaction.auto.reserved_context_size to ${n} in the agent's configuration.`;
  return `${why}; no reserved_context_size avoids it: use a model with a larger window, or turn compaction.auto off.`;
}

// gauge builds the gauge of a context answer; compact for the session list.
export function gauge(c, compact = false) {
  const used = c.token_count + c.pending_tokens;
  if (!c.max_context_size) {
    return h("span", { class: "gauge-unknown", "data-testid": "context-gauge", "data-known": "false", title: `${plural(used, "token")} recorded; the model's context size is unknown (set llm.max_context_size)` }, "context window unknown");
  }
  const pct = (n) => Math.min(100, (100 * n) / c.max_context_size);
  const at = triggerAt(c);
  const always = !!c.reserved_exceeds_window;
  const share = `${used.toLocaleString()} of ${c.max_context_size.toLocaleString()} tokens (${Math.round(100 * c.usage_ratio)}%)`;
  const label = always ? `${share}; ${smallWindowNote(c)}` : `${share}; compaction is due at ${at.toLocaleString()}`;
  const due = c.should_compact && !always;
  return h(
    "span",
    {
      class: "gauge" + (compact ? " gauge-small" : "") + (due ? " is-due" : "") + (always ? " is-always-due" : ""),
      role: "meter",
      "aria-valuemin": 0,
      "aria-valuemax": c.max_context_size,
      "aria-valuenow": used,
      "aria-label": label,
      title: label,
      "data-testid": "context-gauge",
      "data-known": "true",
      "data-due": c.should_compact ? "true" : "false",
      "data-always-due": always ? "true" : null,
    },
    h("span", { class: "gauge-track" }, h("span", { class: "gauge-fill", "data-pct": pct(used).toFixed(1) }), always ? null : h("span", { class: "gauge-trigger", "data-pct": pct(at).toFixed(1) })),
    compact ? null : h("span", { class: "gauge-text", "data-testid": "context-gauge-text" }, `${Math.round(100 * c.usage_ratio)}% of ${c.max_context_size.toLocaleString()}`, due ? " · compaction due" : "", c.auto_paused ? " · automatic compaction paused" : c.auto_compaction ? " · compacts automatically" : ""),
  );
}

// UNKNOWN_WINDOW_NOTE says why automatic compaction, which is on, cannot
// run: without the model's window, kimi-cli's trigger never fires.
const UNKNOWN_WINDOW_NOTE = "Automatic compaction is on but cannot run: the model's context size is unknown (llm.max_context_size is not set, and the provider's model list gives none). Set llm.max_context_size in the agent's configuration.";

// gaugeNote is the gauge's note under the session's header (the text of
// smallWindowNote or UNKNOWN_WINDOW_NOTE, its settings as code), or null.
function gaugeNote(c) {
  if (!c) return null;
  let text = null;
  if (!c.max_context_size && c.auto_compaction) text = UNKNOWN_WINDOW_NOTE;
  else if (c.max_context_size && c.reserved_exceeds_window) text = smallWindowNote(c);
  if (!text) return null;
  const parts = text.split(/(compaction\.auto\.reserved_context_size|reserved_context_size|compaction\.auto|llm\.max_context_size)/);
  return h("span", { class: "gauge-note", "data-testid": "context-gauge-note" }, parts.map((p, i) => (i % 2 ? h("code", null, p) : p)));
}

// pausedNote says why automatic compaction of the session is paused and
// what resumes it, or is null when it is not paused.
function pausedNote(c) {
  if (!c || !c.auto_paused) return null;
  return h("span", { class: "gauge-note", "data-testid": "context-paused-note" },
    `Automatic compaction is paused: it failed ${c.auto_failures} times in a row (the server's log has each error). A manual compaction that succeeds resumes it.`);
}

// place sets the widths from data-pct (the page's CSP allows no inline
// style attributes, but setting style properties from script is allowed).
export function placeGauges(root) {
  for (const el of root.querySelectorAll(".gauge-fill, .gauge-trigger")) {
    const v = el.dataset.pct + "%";
    if (el.classList.contains("gauge-fill")) el.style.width = v;
    else el.style.left = v;
  }
}

const cache = new Map(); // session id -> {version, context}

// loadContext asks the server how full session id is at version (the
// answer is kept until the version changes); null on failure.
export async function loadContext(id, version) {
  const hit = cache.get(id);
  if (hit && hit.version === version) return hit.context;
  try {
    const c = await call("GET", `sessions/${encodeURIComponent(id)}/context`);
    cache.set(id, { version, context: c });
    return c;
  } catch {
    return null;
  }
}

// fillGauge puts the gauge of session id at version into slot, and its
// note (the full gauge only) into noteSlot.
export async function fillGauge(slot, id, version, compact, noteSlot = null) {
  const c = await loadContext(id, version);
  if (!c || !slot.isConnected) return;
  slot.replaceChildren(gauge(c, compact));
  placeGauges(slot);
  if (noteSlot && noteSlot.isConnected) noteSlot.replaceChildren(...[gaugeNote(c), pausedNote(c)].filter(Boolean));
}

// fillListGauges puts a small gauge into each listed session's slot.
export function fillListGauges(slots) {
  return Promise.all(slots.slice(0, MAX_GAUGES).map((slot) => fillGauge(slot, slot.dataset.gaugeFor, Number(slot.dataset.version), true)));
}

// fillTokens puts the token figure of session id at version into slot:
// the last recorded count and the estimate of the messages since
// (token_count + pending_tokens of GET …/context), read without a message.
export async function fillTokens(slot, id, version, testid) {
  const c = await loadContext(id, version);
  if (!c || !slot.isConnected) return;
  const title = "The server's figures: the token count last recorded (a provider's usage, a compaction's estimate) and its estimate of the messages since (text characters / 4)";
  slot.replaceChildren(h("span", { "data-testid": testid, title }, approx(c.token_count + c.pending_tokens)));
}
