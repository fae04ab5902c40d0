// The history panel: the session's revisions, each of which can be
// restored after the page says what the restore will drop; and the undo
// of a compaction from its summary card.

import { $, clear, confirmBox, errorBox, h, plural, showError, timeEl } from "./dom.js";
import { call } from "./api.js";
import { job, view } from "./state.js";
import { on } from "./events.js";
import { loadSessions } from "./sessions.js";
import { reloadSession } from "./conversation.js";
import { readWindow } from "./window.js";
import { setOutcome, setProgress } from "./outcome.js";
import { keptText } from "./fidelity.js";

let revisions = [];
let failures = [];

// KINDS names the kinds of revision for people; an automatic compaction
// stands out from one a person started.
const KINDS = { compaction: "compaction", auto_compaction: "automatic compaction", prune: "prune", restore: "restore", undo: "undo" };

// FAILED names what an automatic compaction that changed nothing did
// (the failure log's status), TRIGGERS what ran it, and REFUSED why the
// quality gate refused its summary.
const FAILED = { rejected: "summary refused", error: "failed", not_reduced: "not smaller" };
const TRIGGERS = { auto: "automatic compaction", gateway: "the gateway's compaction", precompute: "the gateway's precompute" };
const REFUSED = {
  empty: () => "The summary was empty.",
  acknowledgement: () => "The summary was only an acknowledgement.",
  missing_sections: (f) => `The summary lacked ${plural((f.missing_sections || []).length, "required section")}: ${(f.missing_sections || []).join(", ")}.`,
  low_recall: () => "The summary kept too little of what it was sent.",
};

// setRevisions shows a list of revisions and of failures, or the error
// that kept them.
function setRevisions(list, err, failed) {
  revisions = list;
  failures = failed || [];
  renderRevisions(err);
}

async function loadRevisions() {
  const id = view.id;
  try {
    const data = await call("GET", `sessions/${encodeURIComponent(id)}/revisions`);
    if (id !== view.id) return;
    revisions = (data && data.revisions) || [];
    failures = (data && data.failures) || [];
    renderRevisions(null);
  } catch (e) {
    renderRevisions(e);
  }
}

function renderRevisions(err) {
  const slot = clear($("revisions-status"));
  if (err) slot.append(errorBox(err, "revisions-error"));
  renderFailures();
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
          h(
            "p",
            { class: "revision-head" },
            h("span", { class: `badge badge-kind kind-${r.kind}`, "data-testid": "revision-kind" }, KINDS[r.kind] || r.kind),
            " ",
            h("span", { class: "revision-no" }, "rev " + r.rev),
          ),
          r.note ? h("p", { class: "revision-note" }, r.note) : null,
          h("p", { class: "revision-meta" }, timeEl(r.created_at), ` · ${plural(r.messages ?? 0, "message")} before`, r.fidelity ? ` · ${keptText(r.fidelity)}` : ""),
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
            onclick: () => askRestore(r.rev, $("outcome")),
          },
          "Restore",
        ),
      ),
    );
  }
}

// renderFailures lists the session's automatic compactions that failed or
// whose summary was refused, newest first: what was refused and why. The
// session was left as it was, so there is nothing to restore.
function renderFailures() {
  $("failures").hidden = !failures.length;
  const list = clear($("failure-list"));
  for (const f of failures) {
    const why = REFUSED[f.reason];
    list.append(
      h(
        "li",
        { class: "revision failure", "data-testid": "failure-item", "data-status": f.status, "data-reason": f.reason || "" },
        h(
          "div",
          { class: "revision-text" },
          h(
            "p",
            { class: "revision-head" },
            h("span", { class: "badge badge-kind kind-failure", "data-testid": "failure-status" }, FAILED[f.status] || f.status),
            " ",
            h("span", { class: "revision-no" }, TRIGGERS[f.trigger] || f.trigger),
          ),
          why ? h("p", { class: "revision-note", "data-testid": "failure-reason" }, why(f)) : null,
          h("p", { class: "revision-note failure-message", "data-testid": "failure-message" }, f.message),
          h("p", { class: "revision-meta" }, timeEl(f.at), " · the session was left as it was"),
        ),
      ),
    );
  }
}

const revPath = (id, rev) => `sessions/${encodeURIComponent(id)}/revisions/${encodeURIComponent(rev)}`;

// named reads the first few of ids in session id as stored now (a window
// of one message around each): a Map id -> {m, n}.
async function named(id, ids) {
  const got = await Promise.all(ids.slice(0, 5).map((mid) => readWindow(id, { around: mid, limit: 1 }).catch(() => null)));
  const at = new Map();
  for (const w of got) for (const x of (w && w.messages) || []) at.set(x.message.id, { m: x.message, n: x.number });
  return at;
}

// describe names a few messages (at: named's answer): "#6 user: question
// 003…".
function describe(ids, at) {
  const shown = ids.slice(0, 5).map((id) => {
    const x = at.get(id);
    if (!x) return h("li", null, h("code", null, id));
    const text = (x.m.content && (typeof x.m.content === "string" ? x.m.content : x.m.content.map((p) => p.text || "").join(" "))) || "";
    return h("li", null, `#${x.n} ${x.m.role}: ${text.length > 60 ? text.slice(0, 59) + "…" : text}`);
  });
  if (ids.length > 5) shown.push(h("li", null, `and ${plural(ids.length - 5, "more message")}`));
  return h("ul", { class: "facts", "data-testid": "restore-drops" }, shown);
}

// askRestore says what restoring rev would do now (restore-preview), then
// restores it if the user confirms. lead, when given, comes first.
async function askRestore(rev, slot, lead = null) {
  const id = view.id;
  clear(slot).append(h("p", { class: "note" }, `Checking what restoring revision ${rev} would change…`));
  let pv, now;
  try {
    // The session as stored now names the messages (the page may be behind).
    pv = await call("GET", `${revPath(id, rev)}/restore-preview`);
    now = await named(id, (pv.effect && pv.effect.drops) || []);
  } catch (e) {
    showError(slot, e, "restore-error");
    return;
  }
  if (id !== view.id) return;
  const eff = pv.effect || { messages: 0, drops: [], adds: [] };
  const lines = [];
  if (lead) lines.push(lead);
  lines.push(`The session will have ${plural(eff.messages, "message")}: ${plural(eff.adds.length, "message")} come back.`);
  if (eff.drops.length) lines.push(h("p", { "data-testid": "restore-drop-count" }, h("b", null, `It drops ${plural(eff.drops.length, "message")}:`)), describe(eff.drops, now));
  else lines.push(h("p", { "data-testid": "restore-drop-count" }, "It drops no message."));
  lines.push("The restore is recorded in the history, so it can be undone.");
  slot.dataset.status = "confirm-restore";
  clear(slot).append(
    confirmBox({
      testid: "restore-confirm",
      title: `Restore revision ${rev}?`,
      lines,
      ok: eff.drops.length ? `Restore and drop ${plural(eff.drops.length, "message")}` : "Restore",
      onOk: (box) => restoreRevision(rev, slot, box),
    }),
  );
  slot.scrollIntoView({ block: "nearest" });
}

// restoreRevision restores revision rev of the session on screen.
async function restoreRevision(rev, slot, box) {
  const id = view.id;
  box.querySelectorAll("button").forEach((b) => (b.disabled = true));
  try {
    const data = await call("POST", `${revPath(id, rev)}/restore`, {});
    clear(slot);
    if (!job.busy) setProgress("");
    const n = data.session.messages.length;
    done("restored", "Restored revision " + rev, `The session has its ${plural(n, "message")} from before that change again. This restore is in the history too, so it can be undone.`);
    await Promise.all([reloadSession(), loadSessions()]);
  } catch (e) {
    showError(slot, e, "restore-error");
  }
}

function done(status, title, text) {
  setOutcome(h("div", { class: "outcome-card ok", "data-status": status }, h("p", { class: "outcome-title" }, title), h("p", null, text)), status);
}

// undoCompaction takes back compaction rev: its summary becomes the
// messages it replaced, and later messages stay. When the summary was
// changed or is gone (409), it offers a full restore, saying first what
// that would drop.
export async function undoCompaction(rev, btn) {
  const id = view.id;
  btn.disabled = true;
  const slot = clear($("outcome"));
  slot.dataset.status = "undoing";
  try {
    const data = await call("POST", `${revPath(id, rev)}/undo`, {});
    if (!job.busy) setProgress("");
    done("undone", "Undone: compaction " + rev, `The summary is replaced by the messages it covered; the session has ${plural(data.session.messages.length, "message")}, later messages included. The undo is in the history too.`);
    await Promise.all([reloadSession(), loadSessions()]);
  } catch (e) {
    btn.disabled = false;
    if (e.status !== 409) {
      showError(slot, e, "undo-error");
      return;
    }
    slot.dataset.status = "undo-conflict";
    await askRestore(rev, slot, h("p", { "data-testid": "undo-conflict" }, "This summary was changed or removed since the compaction, so it cannot be undone on its own. A full restore of the revision puts back the whole message list from before it instead."));
  }
}

// initHistory wires the panel's controls, and shows the revisions of each
// session loaded.
export function initHistory() {
  on("session loaded", ({ revisions, failures, revisionsError }) => setRevisions(revisions, revisionsError, failures));
  $("refresh-revisions").addEventListener("click", loadRevisions);
}
