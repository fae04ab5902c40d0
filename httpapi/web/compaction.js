// The compaction panel: the actions a session's agent offers, their
// progress while they run, and their outcome.

import { $, add, clear, errorBox, h, plural } from "./dom.js";
import { outcome as postAction } from "./api.js";
import { loadSessions } from "./sessions.js";
import { reloadSession, view } from "./conversation.js";
import { fillRangeSelects, markRange } from "./range.js";
import { hidePreview, showPreview } from "./preview.js";

// job is the running action, and what the last outcomes said.
export const job = {
  busy: null, // {sessionId, ctrl} while an action runs
  lastMissing: new Map(), // session id -> {summary, missing} from the last outcome
};

export function renderTools(uiError) {
  const s = view.session;
  const panel = $("compact-panel");
  const off = $("compact-off");
  const any = view.actions.size > 0;
  panel.hidden = !any;
  off.hidden = any;
  if (any) {
    const conv = view.actions.get("compact_conversation");
    $("range-controls").hidden = !conv;
    const btn = $("compact-conversation");
    btn.hidden = !conv;
    if (conv) btn.textContent = conv.label || "Compact conversation";
    btn.disabled = !!job.busy;
    if (conv) fillRangeSelects();
    markRange();
  } else {
    const text = clear($("compact-off-text"));
    if (uiError) text.append(errorBox(uiError, "ui-elements-error"));
    else add(text, ["Compaction is not enabled for agent ", h("b", null, s.agent || "(none)"), ", so there is nothing to offer here."]);
  }
  $("history-panel").hidden = false;
}

function actionOptions() {
  const o = {};
  const instr = $("instructions").value;
  if (instr !== "") o.instructions = instr;
  if ($("preview-toggle").checked) o.preview = true;
  return o;
}

function compactConversation() {
  const body = actionOptions();
  if (view.range.start) body.start = view.range.start;
  if (view.range.end) body.end = view.range.end;
  runAction("compact_conversation", body);
}

export function compactUpToHere(id) {
  runAction("compact_up_to_here", { message_id: id, ...actionOptions() });
}

function setBusy(busy) {
  job.busy = busy;
  for (const b of document.querySelectorAll("[data-action-button]")) b.disabled = !!busy;
  $("compact-conversation").disabled = !!busy;
  $("preview-apply").disabled = !!busy;
  $("cancel-action").hidden = !busy;
  $("activity").classList.toggle("is-busy", !!busy);
}

export function setProgress(text, notes = []) {
  const el = clear($("progress"));
  if (!text) return;
  el.append(h("span", { class: "progress-text", "data-testid": "progress-text" }, text));
  if (notes.length) el.append(h("ul", { class: "progress-notes" }, notes.map((n) => h("li", null, n))));
}

function progressText(p) {
  const parts = [];
  if (p.waiting) parts.push(`Waiting before retrying: ${p.waiting}`);
  else if (!p.chars) parts.push("Sending the compaction request…");
  else parts.push(`Receiving summary… ${plural(p.chars, "character")}`);
  if (p.attempt > 1) parts.push(`attempt ${p.attempt}`);
  if (p.dropped) parts.push(`${plural(p.dropped, "oldest message")} left out to fit the context window`);
  return parts.join(" · ");
}

export function setOutcome(node, status) {
  const el = clear($("outcome"));
  el.dataset.status = status || "";
  if (node) el.append(node);
}

async function runAction(action, body) {
  if (job.busy) return;
  const sessionId = view.id;
  const ctrl = new AbortController();
  setBusy({ sessionId, ctrl });
  setOutcome(null, "running");
  hidePreview();
  const notes = [];
  let last = { attempt: 1, chars: 0 };
  setProgress(action === "compact_up_to_here" ? "Compacting up to the chosen message…" : "Compacting the conversation…");
  const onProgress = (p) => {
    last = p;
    if (p.waiting) {
      const note = `Attempt ${p.attempt}: ${p.waiting}`;
      if (notes[notes.length - 1] !== note) notes.push(note);
    }
    setProgress(progressText(p), notes);
  };
  const path = `sessions/${encodeURIComponent(sessionId)}/actions/${encodeURIComponent(action)}`;
  let outcome;
  try {
    outcome = await postAction(path, body, { signal: ctrl.signal, onProgress });
  } catch {
    outcome = { status: "cancelled" }; // only an abort throws
  } finally {
    setBusy(null);
  }
  const doneNote = last.chars ? ` (${plural(last.chars, "character")} received${last.attempt > 1 ? `, attempt ${last.attempt}` : ""})` : "";
  const finals = {
    compacted: "Compaction finished" + doneNote + ".",
    preview: "The proposed summary is ready" + doneNote + ".",
    noop: "Nothing was compacted.",
    error: "The compaction failed.",
    cancelled: "Cancelled. Nothing was changed.",
  };
  setProgress(finals[outcome.status] || "Done.", notes);
  await handleOutcome(sessionId, outcome);
}

export async function handleOutcome(sessionId, o) {
  const here = sessionId === view.id;
  switch (o.status) {
    case "compacted": {
      const r = o.result;
      job.lastMissing.set(sessionId, { summary: r.summary, missing: r.missing_sections });
      if (here) {
        setOutcome(compactedCard(o), "compacted");
        await Promise.all([reloadSession(), loadSessions()]);
        window.scrollTo({ top: 0 });
        $("outcome").focus({ preventScroll: true });
      } else {
        loadSessions();
      }
      break;
    }
    case "preview":
      if (here) showPreview(sessionId, o);
      break;
    case "noop":
      if (here) setOutcome(h("div", { class: "outcome-card info" }, h("p", { class: "outcome-title" }, "Nothing to compact"), h("p", { "data-testid": "noop-reason" }, o.reason || "The server gave no reason.")), "noop");
      break;
    case "cancelled":
      if (here) setOutcome(h("div", { class: "outcome-card info" }, h("p", { class: "outcome-title" }, "Cancelled"), h("p", null, "The request was stopped. The session is unchanged.")), "cancelled");
      break;
    default:
      if (here) setOutcome(h("div", { class: "outcome-card bad" }, h("p", { class: "outcome-title" }, "Compaction failed: nothing was changed"), errorBox(o.error || { code: "error", message: "Unknown outcome " + o.status }, "outcome-error")), "error");
  }
}

function compactedCard(o) {
  const r = o.result || {};
  const missing = r.missing_sections || [];
  const u = r.usage;
  return h(
    "div",
    { class: "outcome-card ok" },
    h("p", { class: "outcome-title" }, "Compacted"),
    h(
      "ul",
      { class: "facts" },
      h("li", null, `${plural(r.compacted_messages ?? 0, "message")} replaced by one summary; ${(r.preserved_messages ?? 0).toLocaleString()} kept after it.`),
      r.estimated_tokens_before !== undefined ? h("li", null, `Estimated tokens: ${r.estimated_tokens_before.toLocaleString()} → ${(r.estimated_tokens_after ?? 0).toLocaleString()}.`) : null,
      o.model ? h("li", null, "Model: ", h("code", null, o.model)) : null,
      u ? h("li", null, `Compaction call: ${(u.input_other + u.input_cache_read + u.input_cache_creation).toLocaleString()} input tokens (${u.input_cache_read.toLocaleString()} cached), ${u.output.toLocaleString()} output tokens.`) : null,
      r.prompt ? h("li", null, `Prompt: ${r.prompt.source}${r.prompt.genuine ? " (kimi-cli's own)" : ""}.`) : null,
    ),
    r.dropped_messages ? h("p", { class: "warn-line" }, h("span", { class: "badge badge-warn" }, "⚠ left out"), ` The ${plural(r.dropped_messages, "oldest message")} did not fit the model's context window: the summary does not cover them.`) : null,
    missing.length ? h("p", { class: "warn-line" }, h("span", { class: "badge badge-warn" }, "⚠ " + plural(missing.length, "section") + " missing"), " ", missing.join(", ")) : null,
  );
}

// initCompaction wires the panel's controls.
export function initCompaction() {
  $("compact-conversation").addEventListener("click", compactConversation);
  $("cancel-action").addEventListener("click", () => job.busy && job.busy.ctrl.abort());
}
