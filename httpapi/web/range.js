// The range marks: the start and end messages of compact_conversation.
// A mark is a message id (view.range); its index is kept here, since the
// message may be far from the screen, out of the document.

import { $, clear, h } from "./dom.js";
import { view } from "./state.js";
import { emit, on } from "./events.js";
import { isSummary } from "./summary.js";
import { drawnMessages, indexOfId, locate } from "./window.js";

// at holds the indexes of the marks (-1 for none).
const at = { start: -1, end: -1 };

// setRange sets (or clears, when it is already) the mark which at message
// id, the i-th.
export function setRange(which, id, i = indexOfId(id)) {
  view.range[which] = view.range[which] === id ? "" : id;
  at[which] = view.range[which] ? i : -1;
  syncRangeSelects();
  markRange();
  emit("range changed");
}

function indexOfMark(which) {
  const id = view.range[which];
  if (!view.session || !id) return -1;
  const i = indexOfId(id);
  if (i >= 0) at[which] = i;
  return at[which];
}

// resolveRange finds the marks in the session as it is now (a reload may
// have moved them), and drops those that no longer name a message.
export async function resolveRange() {
  for (const which of ["start", "end"]) {
    const id = view.range[which];
    if (!id) {
      at[which] = -1;
      continue;
    }
    const i = await locate(id);
    if (view.range[which] !== id) continue;
    at[which] = i;
    if (i < 0) view.range[which] = "";
  }
}

export function markRange() {
  const s = view.session;
  if (!s) return;
  const si = indexOfMark("start");
  const ei = indexOfMark("end");
  const active = si >= 0 || ei >= 0;
  const lo = si >= 0 ? si : 0;
  const hi = ei >= 0 ? ei : view.total - 1;
  for (const art of document.querySelectorAll("#messages article.msg")) {
    const i = Number(art.dataset.index);
    art.classList.toggle("in-range", active && ei >= 0 && i >= lo && i <= hi);
    art.classList.toggle("range-start", i === si);
    art.classList.toggle("range-end", i === ei);
    const tag = art.querySelector("[data-range-tag]");
    if (tag) tag.textContent = [i === si ? "range start" : "", i === ei ? "range end" : ""].filter(Boolean).join(" · ");
  }
  const summary = $("range-summary");
  if (summary) {
    summary.textContent = !active ? "automatic (the recent messages stay)" : `#${si >= 0 ? si + 1 : 1} to ${ei >= 0 ? "#" + (ei + 1) : "automatic end"}`;
    if (active) $("range-controls").open = true;
  }
  const problem = $("range-problem");
  problem.textContent = si >= 0 && ei >= 0 && si > ei ? "The start comes after the end: pick an end at or after the start." : "";
}

// fillRangeSelects offers the messages drawn around the screen (and the
// marks, wherever they are): the lists stay short at any length; any other
// message is marked from its menu, or by scrolling to it.
export function fillRangeSelects() {
  if (!view.session) return;
  const start = clear($("range-start"));
  const end = clear($("range-end"));
  start.append(h("option", { value: "" }, "From the first message"));
  end.append(h("option", { value: "" }, "Automatic (keep recent messages)"));
  const drawn = drawnMessages().filter(({ m }) => m.id);
  for (const which of ["start", "end"]) {
    const id = view.range[which];
    if (id && !drawn.some(({ m }) => m.id === id)) drawn.push({ i: at[which], m: { id, role: "", content: [] }, far: true });
  }
  drawn.sort((x, y) => x.i - y.i);
  for (const { i, m, far } of drawn) {
    const label = far ? `#${i + 1} (${m.id})` : `#${i + 1} ${isSummary(m) ? "summary" : m.role}: ${snippet(m, 36)}`;
    start.append(h("option", { value: m.id, "data-index": i }, label));
    end.append(h("option", { value: m.id, "data-index": i }, label));
  }
  syncRangeSelects();
}

function syncRangeSelects() {
  $("range-start").value = view.range.start;
  $("range-end").value = view.range.end;
}

function snippet(m, n = 48) {
  for (const p of m.content || []) {
    if (p.type === "text" && p.text.trim()) {
      let t = p.text;
      if (isSummary(m)) t = "Summary";
      t = t.replace(/\s+/g, " ").trim();
      return t.length > n ? t.slice(0, n - 1) + "…" : t;
    }
  }
  if (m.tool_calls && m.tool_calls.length) return "calls " + m.tool_calls.map((c) => c.function?.name).join(", ");
  return "(no text)";
}

// choose sets mark which from its select.
function choose(which, sel) {
  view.range[which] = sel.value;
  const opt = sel.selectedOptions[0];
  at[which] = sel.value && opt ? Number(opt.dataset.index) : -1;
  markRange();
  emit("range changed");
}

// initRange wires the range controls, and marks the range on the
// messages each time they are drawn.
export function initRange() {
  on("messages rendered", () => {
    markRange();
    if (view.actions.has("compact_conversation") && !$("range-controls").contains(document.activeElement)) fillRangeSelects();
  });
  $("range-start").addEventListener("change", (e) => choose("start", e.target));
  $("range-end").addEventListener("change", (e) => choose("end", e.target));
  $("range-clear").addEventListener("click", () => {
    view.range = { start: "", end: "" };
    at.start = at.end = -1;
    syncRangeSelects();
    markRange();
    emit("range changed");
  });
}
