// The range marks: the start and end messages of compact_conversation.

import { $, clear, h } from "./dom.js";
import { view } from "./state.js";
import { emit, on } from "./events.js";
import { isSummary } from "./summary.js";

export function setRange(which, id) {
  view.range[which] = view.range[which] === id ? "" : id;
  syncRangeSelects();
  markRange();
  emit("range changed");
}

function indexOfId(id) {
  if (!view.session || !id) return -1;
  return view.session.messages.findIndex((m) => m.id === id);
}

export function markRange() {
  const s = view.session;
  if (!s) return;
  const si = indexOfId(view.range.start);
  const ei = indexOfId(view.range.end);
  const active = si >= 0 || ei >= 0;
  const lo = si >= 0 ? si : 0;
  const hi = ei >= 0 ? ei : s.messages.length - 1;
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

export function fillRangeSelects() {
  const s = view.session;
  const start = clear($("range-start"));
  const end = clear($("range-end"));
  start.append(h("option", { value: "" }, "From the first message"));
  end.append(h("option", { value: "" }, "Automatic (keep recent messages)"));
  s.messages.forEach((m, i) => {
    if (!m.id) return;
    const label = `#${i + 1} ${isSummary(m) ? "summary" : m.role}: ${snippet(m, 36)}`;
    start.append(h("option", { value: m.id }, label));
    end.append(h("option", { value: m.id }, label));
  });
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

// initRange wires the range controls, and marks the range on the
// messages each time they are drawn.
export function initRange() {
  on("messages rendered", markRange);
  $("range-start").addEventListener("change", (e) => {
    view.range.start = e.target.value;
    markRange();
    emit("range changed");
  });
  $("range-end").addEventListener("change", (e) => {
    view.range.end = e.target.value;
    markRange();
    emit("range changed");
  });
  $("range-clear").addEventListener("click", () => {
    view.range = { start: "", end: "" };
    syncRangeSelects();
    markRange();
    emit("range changed");
  });
}
