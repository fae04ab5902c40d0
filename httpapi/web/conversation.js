// The session view: one stored session's messages, with its compaction
// tools and its history beside it.

import { $, add, clear, h, plural, timeEl, showError } from "./dom.js";
import { call } from "./api.js";
import { renderSessions } from "./sessions.js";
import { renderParts, renderToolCall } from "./parts.js";
import { isSummary, renderSummary } from "./summary.js";
import { markRange, setRange } from "./range.js";
import { compactUpToHere, job, renderTools } from "./compaction.js";
import { hidePreview, pending } from "./preview.js";
import { setRevisions } from "./history.js";

const ROLES = new Set(["system", "user", "assistant", "tool"]);

// view is the session on screen.
export const view = {
  id: "",
  session: null, // the stored session
  actions: new Map(), // ui element id -> element
  range: { start: "", end: "" },
};

let loadSeq = 0; // guards against late answers after a switch

export async function openSession(id) {
  const switching = id !== view.id;
  view.id = id;
  if (switching) {
    view.session = null;
    view.range = { start: "", end: "" };
    view.actions = new Map();
    clear($("outcome"));
    clear($("continue-status"));
    if (!job.busy) clear($("progress"));
    if (!pending || pending.sessionId !== id) hidePreview();
  }
  $("empty-state").hidden = true;
  $("session-view").hidden = false;
  renderSessions();
  await reloadSession();
  if (switching) $("conversation").focus({ preventScroll: true });
}

export function closeSession() {
  view.id = "";
  view.session = null;
  $("session-view").hidden = true;
  $("empty-state").hidden = false;
  $("compact-panel").hidden = true;
  $("compact-off").hidden = true;
  $("history-panel").hidden = true;
  renderSessions();
}

// reloadSession loads the current session, its actions and its revisions.
export async function reloadSession() {
  const id = view.id;
  if (!id) return;
  const seq = ++loadSeq;
  const enc = encodeURIComponent(id);
  $("messages").setAttribute("aria-busy", "true");
  const [sess, ui, revs] = await Promise.allSettled([
    call("GET", `sessions/${enc}`),
    call("GET", `sessions/${enc}/ui-elements`),
    call("GET", `sessions/${enc}/revisions`),
  ]);
  if (seq !== loadSeq) return;
  $("messages").removeAttribute("aria-busy");
  if (sess.status === "rejected") {
    view.session = null;
    $("session-title").textContent = id;
    $("session-meta").textContent = "";
    clear($("messages"));
    showError($("outcome"), sess.reason, "session-error");
    $("compact-panel").hidden = true;
    $("compact-off").hidden = true;
    $("history-panel").hidden = true;
    return;
  }
  view.session = sess.value;
  view.actions = new Map();
  if (ui.status === "fulfilled") {
    for (const el of ui.value.ui_elements) view.actions.set(el.id, el);
  }
  // Drop range marks that no longer name a message.
  const ids = new Set(view.session.messages.map((m) => m.id));
  if (view.range.start && !ids.has(view.range.start)) view.range.start = "";
  if (view.range.end && !ids.has(view.range.end)) view.range.end = "";
  renderSession();
  renderTools(ui.status === "rejected" ? ui.reason : null);
  setRevisions(revs.status === "fulfilled" ? revs.value.revisions : [], revs.status === "rejected" ? revs.reason : null);
}

function renderSession() {
  const s = view.session;
  $("session-title").textContent = s.id;
  const meta = clear($("session-meta"));
  add(meta, [
    h("span", { class: "agent-tag" }, s.agent || "no agent"),
    s.compaction_model ? h("span", null, "compaction model ", h("code", null, s.compaction_model)) : null,
    h("span", { "data-testid": "message-count" }, plural(s.messages.length, "message")),
    h("span", null, "version " + s.version),
    s.updated_at ? h("span", null, "updated ", timeEl(s.updated_at)) : null,
  ]);
  renderMessages();
}

function renderMessages() {
  const list = clear($("messages"));
  const s = view.session;
  if (!s) return;
  if (!s.messages.length) {
    list.append(h("li", { class: "messages-empty", "data-testid": "messages-empty" }, "No messages yet. Write below to start the conversation."));
    return;
  }
  // Tool calls by id, so that a tool result can name and link its call.
  const calls = new Map();
  s.messages.forEach((m, i) => (m.tool_calls || []).forEach((c, j) => calls.set(c.id, { name: c.function?.name || "", anchor: `tc-${i}-${j}` })));
  s.messages.forEach((m, i) => list.append(h("li", { class: "messages-item" }, renderMessage(m, i, calls))));
  markRange();
}

function renderMessage(m, i, calls) {
  const role = ROLES.has(m.role) ? m.role : "unknown";
  const summary = isSummary(m);
  const headingId = `msg-${i}-head`;
  const art = h("article", {
    class: `msg role-${role}` + (summary ? " msg-summary" : ""),
    "data-testid": "message",
    "data-role": m.role,
    "data-kind": summary ? "summary" : null,
    "data-id": m.id || "",
    "data-index": i,
    "aria-labelledby": headingId,
  });

  const head = h(
    "header",
    { class: "msg-head" },
    h(
      "h3",
      { class: "msg-title", id: headingId },
      h("span", { class: `badge role-badge role-badge-${summary ? "summary" : role}`, "data-testid": "message-role" }, summary ? "summary" : m.role),
      h("span", { class: "visually-hidden" }, ` message ${i + 1}`),
    ),
    h("span", { class: "msg-index", "aria-hidden": "true" }, "#" + (i + 1)),
    m.id ? h("code", { class: "msg-id", title: "message id" }, m.id) : null,
    m.name ? h("span", { class: "msg-name" }, m.name) : null,
    summary ? h("span", { class: "msg-note" }, "user message holding the compaction output") : null,
    h("span", { class: "range-tag", "data-range-tag": "" }),
    h("span", { class: "spacer" }),
    messageActions(m, i),
  );
  art.append(head);

  const body = h("div", { class: "msg-body" });
  if (m.role === "tool" && (m.tool_call_id || m.tool_call_id === "")) {
    const call = calls.get(m.tool_call_id);
    body.append(
      h(
        "p",
        { class: "tool-result-of" },
        "Result of ",
        call && call.name ? h("code", { class: "tool-name" }, call.name) : "tool call",
        " ",
        call
          ? h("button", { type: "button", class: "link-button call-id", "data-testid": "tool-call-id", title: "Show the tool call", onclick: () => jumpTo(call.anchor) }, m.tool_call_id)
          : h("code", { class: "call-id", "data-testid": "tool-call-id" }, m.tool_call_id || "(empty id)"),
      ),
    );
  }
  if (summary) body.append(renderSummary(m, job.lastMissing.get(view.id)));
  else renderParts(body, m.content || [], { mono: m.role === "tool" });
  (m.tool_calls || []).forEach((c, j) => body.append(renderToolCall(c, `tc-${i}-${j}`)));
  if (!body.childNodes.length) body.append(h("p", { class: "muted" }, "(no content)"));
  art.append(body);
  return art;
}

function jumpTo(anchor) {
  const el = document.getElementById(anchor);
  if (!el) return;
  el.open = true;
  el.scrollIntoView({ block: "center", behavior: "smooth" });
  el.querySelector("summary")?.focus({ preventScroll: true });
}

function messageActions(m, i) {
  const wrap = h("div", { class: "msg-actions" });
  if (!m.id) return wrap;
  const n = i + 1;
  if (view.actions.has("compact_conversation")) {
    wrap.append(
      h(
        "div",
        { class: "range-buttons", role: "group", "aria-label": `Range marks for message ${n}` },
        h("button", { type: "button", class: "btn btn-tiny", "data-testid": "mark-start", "data-mark": "start", "aria-pressed": "false", "aria-label": `Start the range at message ${n}`, onclick: () => setRange("start", m.id) }, "Start"),
        h("button", { type: "button", class: "btn btn-tiny", "data-testid": "mark-end", "data-mark": "end", "aria-pressed": "false", "aria-label": `End the range at message ${n}`, onclick: () => setRange("end", m.id) }, "End"),
      ),
    );
  }
  if (view.actions.has("compact_up_to_here")) {
    const el = view.actions.get("compact_up_to_here");
    wrap.append(
      h(
        "button",
        {
          type: "button",
          class: "btn btn-small btn-action",
          "data-testid": "compact-up-to-here",
          "data-action-button": "",
          "aria-label": `${el.label || "Compact up to here"}: message ${n} and everything before it`,
          disabled: job.busy ? true : null,
          onclick: () => compactUpToHere(m.id),
        },
        el.label || "Compact up to here",
      ),
    );
  }
  return wrap;
}

export function downloadSession() {
  const s = view.session;
  if (!s) return;
  const doc = { id: s.id, agent: s.agent, messages: s.messages };
  if (s.compaction_model) doc.compaction_model = s.compaction_model;
  const blob = new Blob([JSON.stringify(doc, null, 2) + "\n"], { type: "application/json" });
  const url = URL.createObjectURL(blob);
  const a = h("a", { href: url, download: `${s.id}.json` });
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
