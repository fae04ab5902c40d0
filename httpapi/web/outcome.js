// The activity lines under the compact panel: the progress line and the
// outcome card, which the compaction, the preview and the history write.

import { $, clear, h } from "./dom.js";

export function setProgress(text, notes = []) {
  const el = clear($("progress"));
  if (!text) return;
  el.append(h("span", { class: "progress-text", "data-testid": "progress-text" }, text));
  if (notes.length) el.append(h("ul", { class: "progress-notes", "data-testid": "progress-notes" }, notes.map((n) => h("li", null, n))));
}

export function setOutcome(node, status) {
  const el = clear($("outcome"));
  el.dataset.status = status || "";
  if (node) el.append(node);
}
