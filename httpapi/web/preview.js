// The preview panel: a proposed summary to edit, apply or discard.

import { $, clear, h, plural, showError } from "./dom.js";
import { call, outcome as postAction } from "./api.js";
import { job, preview } from "./state.js";
import { emit, on } from "./events.js";
import { setOutcome } from "./outcome.js";
import { format, missingOf, renderSummaryText } from "./summary.js";
import { approx, codePoints, textChars } from "./estimate.js";
import { editedNote, fidelityReport } from "./fidelity.js";

// showPreview shows a preview outcome: its summary, in result as in a
// compacted outcome, ready to edit. span is the range it replaces
// ({first, last, total}, 1-based), when known; expiresAt is when the
// server drops it, when known (a reopened preview).
export function showPreview(sessionId, o, span = null, expiresAt = "") {
  const { summary, missing_sections: missing, session } = o.result;
  const warnings = o.warnings || [];
  preview.pending = { sessionId, id: o.preview_id, summary, missing, otherChars: otherChars(session, summary), span };
  setOutcome(
    warnings.length
      ? h(
          "div",
          { class: "outcome-card warn", "data-testid": "warnings" },
          h("p", { class: "outcome-title" }, "Check this result before it replaces the history"),
          h("ul", { class: "warning-list" }, warnings.map(warningItem)),
          h("p", null, "Nothing is written until you apply it. Discard leaves the session as it is."),
        )
      : h("div", { class: "outcome-card info" }, h("p", { class: "outcome-title" }, "Preview ready"), h("p", null, "Nothing is written until you apply it.")),
    "preview",
  );
  $("preview-title").textContent = warnings.length ? "Confirm the summary" : "Preview of the summary";
  const info = clear($("preview-info"));
  if (span) info.append(h("span", { "data-testid": "preview-replaces" }, replacesText(span)), " ");
  const pinned = o.result.pinned_messages;
  if (pinned) info.append(h("span", { "data-testid": "preview-pinned" }, `${plural(pinned, "pinned message")} of them ${pinned === 1 ? "stays" : "stay"} verbatim right after the summary.`), " ");
  info.append(`Applying it leaves the session with ${plural(session.messages.length, "message")}. The preview can be applied once, ${expiresAt ? "until " + clockTime(expiresAt) : "within 30 minutes"}.`);
  const report = clear($("preview-fidelity"));
  if (o.result.fidelity) report.append(fidelityReport(o.result.fidelity));
  $("preview-summary").value = summary;
  renderEdited();
  clear($("preview-status"));
  const sec = $("preview");
  sec.dataset.previewId = o.preview_id;
  sec.hidden = false;
  emit("preview changed");
  (warnings.length ? $("outcome") : sec).scrollIntoView({ block: "start" });
  $("preview-summary").focus({ preventScroll: true });
}

// warningItem is one warning in the server's words; low_fidelity leads to
// the report of what the summary lost.
function warningItem(w) {
  const li = h("li", { "data-testid": "warning", "data-code": w.code }, w.message);
  if (w.code === "low_fidelity") {
    const see = h("button", { type: "button", class: "link-button", "data-testid": "warning-see-lost" }, "See what it lost");
    see.addEventListener("click", () => {
      const report = $("preview-fidelity").querySelector("details");
      if (!report) return;
      report.open = true;
      report.scrollIntoView({ block: "start" });
      report.querySelector("summary").focus({ preventScroll: true });
    });
    li.append(". ", see);
  }
  return li;
}

// clockTime: "14:05", the local time of iso.
export function clockTime(iso) {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return "";
  return `${String(d.getHours()).padStart(2, "0")}:${String(d.getMinutes()).padStart(2, "0")}`;
}

// GONE says why a preview the server no longer has cannot be applied.
export const GONE = "This summary is no longer kept: it was applied or discarded, or it expired (a preview lasts 30 minutes). The session is unchanged.";

// replacesText: "It replaces #2–#21 (20 messages). Kept: #1 before it,
// #22–#24 after it."
function replacesText({ first, last, total }) {
  const span = (a, b) => (a === b ? `#${a}` : `#${a}–#${b}`);
  const kept = [first > 1 ? `${span(1, first - 1)} before it` : "", last < total ? `${span(last + 1, total)} after it` : ""].filter(Boolean);
  return `It replaces ${span(first, last)} (${plural(last - first + 1, "message")}). ` + (kept.length ? `Kept: ${kept.join(", ")}.` : "Nothing else is kept.");
}

// otherChars counts the text of the previewed session but its summary
// message, for the token estimate of the session after an edit.
function otherChars(session, summary) {
  const all = session.messages.reduce((n, m) => n + textChars(m), 0);
  return all - codePoints(format.prefix + "\n" + summary);
}

// renderEdited shows the summary in the box as it will show, its missing
// sections and its token estimate; it runs as you type.
function renderEdited() {
  const pending = preview.pending;
  if (!pending) return;
  const text = $("preview-summary").value;
  const missing = missingOf(text);
  const miss = clear($("preview-missing"));
  if (missing.length) miss.append(h("p", { class: "warn-line", "data-testid": "preview-missing" }, h("span", { class: "badge badge-warn" }, "⚠ " + plural(missing.length, "section") + " missing"), " ", missing.join(", ")));
  clear($("preview-rendered")).append(renderSummaryText(text, missing));
  editedNote($("preview-fidelity"), text !== pending.summary);
  const summaryTokens = Math.floor(codePoints(text) / 4);
  const after = Math.floor((pending.otherChars + codePoints(format.prefix + "\n" + text)) / 4);
  $("preview-stats").textContent = `Summary ${approx(summaryTokens)} · session after applying ${approx(after)}${format.sections.length ? ` · ${format.sections.length - missing.length} of ${format.sections.length} sections` : ""}`;
}

export function hidePreview() {
  preview.pending = null;
  $("preview").hidden = true;
  emit("preview changed");
  $("preview-summary").value = "";
  clear($("preview-status"));
  clear($("preview-rendered"));
  clear($("preview-fidelity"));
}

async function applyPreview() {
  const p = preview.pending;
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
    const gone = outcome.error.code === "not_found";
    showError(slot, gone ? { ...outcome.error, message: GONE, fixes: [] } : outcome.error, "preview-error");
    // A conflict uses the preview up too.
    if (gone || outcome.error.code === "conflict") emit("previews changed", p.sessionId);
    return;
  }
  hidePreview();
  emit("preview applied", { sessionId: p.sessionId, outcome });
}

// initPreview wires the panel's buttons; a switch to another session
// hides a preview of another session.
export function initPreview() {
  on("session switched", (id) => {
    if (!preview.pending || preview.pending.sessionId !== id) hidePreview();
  });
  $("preview-apply").addEventListener("click", applyPreview);
  let queued = false;
  $("preview-summary").addEventListener("input", () => {
    if (queued) return;
    queued = true;
    requestAnimationFrame(() => {
      queued = false;
      renderEdited();
    });
  });
  $("preview-discard").addEventListener("click", discardPreview);
}

// discardPreview drops the preview on the server too (DELETE), so that it
// cannot be applied later.
async function discardPreview() {
  const p = preview.pending;
  if (!p) return;
  const btn = $("preview-discard");
  btn.disabled = true;
  try {
    await call("DELETE", `sessions/${encodeURIComponent(p.sessionId)}/previews/${encodeURIComponent(p.id)}`);
  } catch (e) {
    // An expired preview is gone already: the session is unchanged either way.
    if (e.status !== 404) {
      showError(clear($("preview-status")), e, "preview-error");
      btn.disabled = false;
      return;
    }
  }
  btn.disabled = false;
  hidePreview();
  setOutcome(h("div", { class: "outcome-card info" }, h("p", { class: "outcome-title" }, "Preview discarded"), h("p", null, "The session is unchanged.")), "discarded");
  emit("previews changed", p.sessionId);
}
