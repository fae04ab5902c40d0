// Tool-output pruning (docs/compaction.md#pruning-tool-output): the
// header's "Prune tool output…" form, which asks the server to clear the
// text of old, long tool results (POST …/actions/prune_tool_results, no
// LLM call), says what it cleared and offers to undo it. The button shows
// only when the session's agent offers the action (ui-elements), and not on
// a gateway session.

import { $, clear, errorBox, h, plural } from "./dom.js";
import { call, outcome } from "./api.js";
import { view } from "./state.js";
import { on } from "./events.js";
import { isGatewaySession, loadSessions } from "./sessions.js";
import { reloadSession } from "./conversation.js";

const ACTION = "prune_tool_results";

// showButton shows the button when the agent offers the action, but not on
// a gateway session (the gateway forwards its client's own messages: it
// prunes when it compacts).
function showButton() {
  const offered = view.id && view.actions.has(ACTION) && !isGatewaySession(view.id);
  $("prune-session").hidden = !offered;
  if (!offered) closeForm(false);
}

function openForm() {
  clear($("prune-status"));
  $("prune-form").hidden = false;
  $("prune-session").setAttribute("aria-expanded", "true");
  $("prune-keep").focus();
}

function closeForm(refocus) {
  $("prune-form").hidden = true;
  $("prune-session").setAttribute("aria-expanded", "false");
  if (refocus) $("prune-session").focus();
}

// settings are the form's numbers; an empty field is left out (the
// agent's compaction.prune value, else the default).
function settings() {
  const body = {};
  for (const [field, id] of [["keep_recent", "prune-keep"], ["min_chars", "prune-min"]]) {
    const v = $(id).value.trim();
    if (v !== "") body[field] = Number(v);
  }
  return body;
}

// report says what a prune did, in the form's status slot.
function report(out, id) {
  const slot = clear($("prune-status"));
  if (out.status === "error") {
    slot.append(errorBox(out.error, "prune-error"));
    return;
  }
  if (out.status === "noop") {
    slot.append(h("p", { class: "note", "data-testid": "prune-noop" }, "Nothing to prune: " + out.reason + "."));
    return;
  }
  const p = out.prune;
  const f = p.fidelity;
  const kept = f.artifacts ? `The markers keep ${f.kept} of the ${plural(f.artifacts, "artifact")} the cleared text named.` : "The cleared text named no paths, commands or errors.";
  const undo = h("button", { type: "button", class: "btn btn-small", "data-testid": "prune-undo", onclick: () => undoPrune(id, out.revision, undo) }, "Undo");
  slot.append(
    h(
      "div",
      { class: "outcome-box", "data-testid": "prune-done" },
      h("p", { class: "outcome-title" }, `Cleared ${plural(p.cleared_results, "tool result")} (revision ${out.revision})`),
      h("p", null, `About ${p.estimated_tokens_before.toLocaleString()} → ${p.estimated_tokens_after.toLocaleString()} tokens; the last ${plural(p.keep_recent, "tool exchange")} and outputs up to ${p.min_chars.toLocaleString()} characters stay whole. ${kept}`),
      h("div", { class: "row" }, undo),
    ),
  );
}

async function prune() {
  const id = view.id;
  const form = $("prune-form");
  form.querySelectorAll("button").forEach((b) => (b.disabled = true));
  try {
    const out = await outcome(`sessions/${encodeURIComponent(id)}/actions/${ACTION}`, settings());
    if (id !== view.id) return;
    report(out, id);
    if (out.status === "pruned") await Promise.all([reloadSession(), loadSessions()]);
  } finally {
    form.querySelectorAll("button").forEach((b) => (b.disabled = false));
  }
}

// undoPrune takes prune rev back: every cleared output gets its text again.
async function undoPrune(id, rev, btn) {
  btn.disabled = true;
  const slot = $("prune-status");
  try {
    await call("POST", `sessions/${encodeURIComponent(id)}/revisions/${encodeURIComponent(rev)}/undo`, {});
    if (id !== view.id) return;
    clear(slot).append(h("p", { class: "note", "data-testid": "prune-undone" }, `Undone: the outputs revision ${rev} cleared are back.`));
    await Promise.all([reloadSession(), loadSessions()]);
  } catch (e) {
    btn.disabled = false;
    slot.append(errorBox(e, "prune-error"));
  }
}

// initPrune wires the form; another session on screen closes it.
export function initPrune() {
  on("session loaded", showButton);
  on("session switched", () => {
    clear($("prune-status"));
    closeForm(false);
  });
  $("prune-session").addEventListener("click", () => ($("prune-form").hidden ? openForm() : closeForm(true)));
  $("prune-cancel").addEventListener("click", () => closeForm(true));
  $("prune-form").addEventListener("submit", (ev) => {
    ev.preventDefault();
    prune();
  });
  $("prune-form").addEventListener("keydown", (e) => {
    if (e.key === "Escape") {
      e.preventDefault();
      e.stopPropagation();
      closeForm(true);
    }
  });
}
