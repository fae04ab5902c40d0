// The history panel: the session's revisions, each of which can be
// restored.

import { $, clear, errorBox, h, plural, showError, timeEl } from "./dom.js";
import { call } from "./api.js";
import { loadSessions } from "./sessions.js";
import { reloadSession, view } from "./conversation.js";
import { job, setOutcome, setProgress } from "./compaction.js";

let revisions = [];

// setRevisions shows a list of revisions, or the error that kept it.
export function setRevisions(list, err) {
  revisions = list;
  renderRevisions(err);
}

async function loadRevisions() {
  const id = view.id;
  try {
    const data = await call("GET", `sessions/${encodeURIComponent(id)}/revisions`);
    if (id !== view.id) return;
    revisions = (data && data.revisions) || [];
    renderRevisions(null);
  } catch (e) {
    renderRevisions(e);
  }
}

function renderRevisions(err) {
  const slot = clear($("revisions-status"));
  if (err) slot.append(errorBox(err, "revisions-error"));
  const list = clear($("revision-list"));
  if (!revisions.length) {
    list.append(h("li", { class: "revision-empty" }, "No changes yet."));
    return;
  }
  for (const r of revisions) {
    list.append(
      h(
        "li",
        { class: "revision", "data-testid": "revision-item", "data-rev": r.rev, "data-kind": r.kind },
        h(
          "div",
          { class: "revision-text" },
          h("p", { class: "revision-head" }, h("span", { class: `badge badge-kind kind-${r.kind}` }, r.kind), " ", h("span", { class: "revision-no" }, "rev " + r.rev)),
          r.note ? h("p", { class: "revision-note" }, r.note) : null,
          h("p", { class: "revision-meta" }, timeEl(r.created_at), ` · ${plural(r.messages ?? 0, "message")} before`),
        ),
        h(
          "button",
          {
            type: "button",
            class: "btn btn-small",
            "data-testid": "restore",
            "data-action-button": "",
            disabled: job.busy ? true : null,
            "aria-label": `Restore revision ${r.rev}: put back the ${plural(r.messages ?? 0, "message")} from before this ${r.kind}`,
            onclick: (ev) => restoreRevision(r, ev.currentTarget),
          },
          "Restore",
        ),
      ),
    );
  }
}

// restoreRevision restores revision r of the session on screen (Restore
// in the history, Undo on a summary card).
export async function restoreRevision(r, btn) {
  const id = view.id;
  btn.disabled = true;
  const slot = clear($("revisions-status"));
  slot.append(h("p", { class: "note" }, `Restoring revision ${r.rev}…`));
  try {
    const data = await call("POST", `sessions/${encodeURIComponent(id)}/revisions/${encodeURIComponent(r.rev)}/restore`, {});
    clear(slot);
    if (!job.busy) setProgress("");
    const n = data.session.messages.length;
    setOutcome(
      h(
        "div",
        { class: "outcome-card ok", "data-status": "restored" },
        h("p", { class: "outcome-title" }, "Restored revision " + r.rev),
        h("p", null, `The session has its ${plural(n, "message")} from before that change again. This restore is in the history too, so it can be undone.`),
      ),
      "restored",
    );
    await Promise.all([reloadSession(), loadSessions()]);
  } catch (e) {
    showError(slot, e, "restore-error");
    btn.disabled = false;
  }
}

// initHistory wires the panel's controls.
export function initHistory() {
  $("refresh-revisions").addEventListener("click", loadRevisions);
}
