// The preview panel: a proposed summary to edit, apply or discard.

import { $, clear, h, plural, showError } from "./dom.js";
import { outcome as postAction } from "./api.js";
import { handleOutcome, job, setOutcome } from "./compaction.js";

// pending is the preview on screen: {sessionId, id, summary, missing}.
export let pending = null;

// showPreview shows a preview outcome: its summary, in result as in a
// compacted outcome, ready to edit.
export function showPreview(sessionId, o) {
  const { summary, missing_sections: missing, session } = o.result;
  pending = { sessionId, id: o.preview_id, summary, missing };
  setOutcome(h("div", { class: "outcome-card info" }, h("p", { class: "outcome-title" }, "Preview ready"), h("p", null, "Nothing is written until you apply it.")), "preview");
  $("preview-info").textContent = `Applying it leaves the session with ${plural(session.messages.length, "message")}. The preview can be applied once, within 30 minutes.`;
  const miss = clear($("preview-missing"));
  if (missing.length) miss.append(h("p", { class: "warn-line", "data-testid": "preview-missing" }, h("span", { class: "badge badge-warn" }, "⚠ " + plural(missing.length, "section") + " missing"), " ", missing.join(", ")));
  $("preview-summary").value = summary;
  clear($("preview-status"));
  const sec = $("preview");
  sec.hidden = false;
  sec.scrollIntoView({ block: "start" });
  $("preview-summary").focus({ preventScroll: true });
}

export function hidePreview() {
  pending = null;
  $("preview").hidden = true;
  $("preview-summary").value = "";
  clear($("preview-status"));
}

async function applyPreview() {
  const p = pending;
  if (!p || job.busy) return;
  const slot = clear($("preview-status"));
  slot.append(h("p", { class: "note" }, "Applying…"));
  $("preview-apply").disabled = true;
  const body = {};
  const edited = $("preview-summary").value;
  if (edited !== p.summary) body.summary = edited;
  const outcome = await postAction(`sessions/${encodeURIComponent(p.sessionId)}/previews/${encodeURIComponent(p.id)}/apply`, body);
  $("preview-apply").disabled = false;
  if (outcome.status === "error") {
    showError(slot, outcome.error, "preview-error");
    return;
  }
  hidePreview();
  await handleOutcome(p.sessionId, outcome);
}

// initPreview wires the panel's buttons.
export function initPreview() {
  $("preview-apply").addEventListener("click", applyPreview);
  $("preview-discard").addEventListener("click", () => {
    hidePreview();
    setOutcome(h("div", { class: "outcome-card info" }, h("p", { class: "outcome-title" }, "Preview discarded"), h("p", null, "The session is unchanged.")), "discarded");
  });
}
