// The session view: one stored session's messages, with its compaction
// tools and its history beside it.

import { $, add, clear, h, plural, timeEl, showError } from "./dom.js";
import { call } from "./api.js";
import { job, view } from "./state.js";
import { emit, on } from "./events.js";
import { isGatewaySession, renderSessions } from "./sessions.js";
import { renderParts, renderToolCall } from "./parts.js";
import { isSummary, renderSummary } from "./summary.js";
import { approx, estimateTokens } from "./estimate.js";
import { showTitle } from "./title.js";
import { fillGauge } from "./gauge.js";

const ROLES = new Set(["system", "user", "assistant", "tool"]);

let loadSeq = 0; // guards against late answers after a switch

async function openSession(id) {
  const switching = id !== view.id;
  view.id = id;
  if (switching) {
    view.session = null;
    view.range = { start: "", end: "" };
    view.actions = new Map();
    view.plan = null;
    clear($("outcome"));
    clear($("continue-status"));
    clear($("session-status"));
    $("rename-form").hidden = true;
    $("session-title").hidden = false;
    clear($("progress"));
    emit("session switched", id); // the progress and Cancel of this session's own run, if any; its preview
  }
  $("empty-state").hidden = true;
  $("session-view").hidden = false;
  document.body.classList.add("has-session");
  renderSessions();
  await reloadSession();
  if (switching && id === view.id) {
    $("conversation").focus({ preventScroll: true });
    showLatest();
    emit("session shown", id);
  }
}

// showLatest scrolls to the session: to its latest messages when they do
// not all fit on the screen (as a chat client opens), else to its top.
export function showLatest() {
  const items = document.querySelectorAll("#messages article.msg");
  const last = items[items.length - 1];
  if (last && $("messages").getBoundingClientRect().height > window.innerHeight) {
    last.scrollIntoView({ block: "end" });
  } else {
    $("session-view").scrollIntoView({ block: "start" });
  }
  updateJump();
}

function closeSession() {
  view.id = "";
  view.session = null;
  $("session-view").hidden = true;
  $("empty-state").hidden = false;
  document.body.classList.remove("has-session");
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
  renderSessions();
  emit("session loaded", {
    id,
    uiError: ui.status === "rejected" ? ui.reason : null,
    revisions: revs.status === "fulfilled" ? revs.value.revisions : [],
    revisionsError: revs.status === "rejected" ? revs.reason : null,
    stale: () => seq !== loadSeq,
  });
}

function renderSession() {
  const s = view.session;
  showTitle();
  const meta = clear($("session-meta"));
  add(meta, [
    h("code", { class: "session-id", "data-testid": "session-id" }, s.id),
    h("span", { class: "agent-tag" }, s.agent || "no agent"),
    s.compaction_model ? h("span", null, "compaction model ", h("code", null, s.compaction_model)) : null,
    h("span", { id: "session-instructions", class: "badge badge-quiet instructions-mark", "data-testid": "instructions-mark" }), // standing.js fills it
    h("span", { "data-testid": "message-count" }, plural(s.messages.length, "message")),
    h("span", { "data-testid": "session-tokens", title: "The server's estimate: text characters / 4" }, approx(estimateTokens(s.messages))),
    h("span", { class: "session-context", id: "session-context" }),
    h("span", null, "version " + s.version),
    s.updated_at ? h("span", null, "updated ", timeEl(s.updated_at)) : null,
  ]);
  fillGauge($("session-context"), s.id, s.version, false, clear($("session-context-note")));
  showGatewayNote();
  renderMessages();
}

// showGatewayNote says, on a session the compaction gateway keeps, where
// its messages come from (the listing knows which sessions those are), and
// hides the continue form there: the client owns the conversation, and the
// server refuses a continue on it.
function showGatewayNote() {
  const note = clear($("session-gateway-note"));
  const s = view.session;
  const gateway = !!s && isGatewaySession(s.id);
  $("continue-form").hidden = gateway;
  if (!gateway) return;
  note.append(
    "This conversation comes through the compaction gateway: an OpenAI-compatible client sends it to ",
    h("code", null, `/gateway/${s.agent}/v1`),
    ". That client owns it and sends it whole with every request, so messages cannot be added here: write to the agent from that client.",
  );
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
  emit("messages rendered");
  updateJump();
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
    h("span", { class: "plan-tag", "data-plan-tag": "", "data-testid": "plan-tag" }),
    h("span", { class: "spacer" }),
    h("div", { class: "msg-actions" }), // menu.js puts the message's menu here
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
  if (summary) {
    const card = renderSummary(m, job.lastMissing.get(view.id));
    card.insertBefore(h("div", { class: "summary-covers", "data-covers-for": m.id || "" }, h("span", { class: "muted" }, "Looking up what this summary covers…")), card.children[1] || null);
    body.append(card);
  }
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

// updateJump shows "Jump to latest" while the last message is below the
// screen and no preview is open (the button would cover its editor).
export function updateJump() {
  const items = document.querySelectorAll("#messages article.msg");
  const last = items[items.length - 1];
  const btn = $("jump-latest");
  if (!btn) return;
  const previewOpen = !$("preview").hidden;
  btn.hidden = previewOpen || !(last && !$("session-view").hidden && last.getBoundingClientRect().bottom > window.innerHeight + 40);
}

function jumpToLatest() {
  const items = document.querySelectorAll("#messages article.msg");
  const last = items[items.length - 1];
  if (!last) return;
  last.scrollIntoView({ block: "end" });
  last.setAttribute("tabindex", "-1");
  last.focus({ preventScroll: true });
  updateJump();
}

// initConversation wires the session view's controls and follows the
// address.
export function initConversation() {
  on("route changed", (id) => (id ? openSession(id) : closeSession()));
  on("preview changed", updateJump);
  on("sessions changed", showGatewayNote); // the listing says which sessions the gateway keeps
  // A run another client (or an automatic compaction) made on the session
  // on screen has ended: show what it wrote.
  on("run ended", (id) => {
    if (id === view.id && !job.runs.has(id)) reloadSession();
  });
  $("reload-session").addEventListener("click", reloadSession);
  $("download-session").addEventListener("click", downloadSession);
  $("jump-latest").addEventListener("click", jumpToLatest);
  let queued = false;
  const onScroll = () => {
    if (queued) return;
    queued = true;
    requestAnimationFrame(() => {
      queued = false;
      updateJump();
    });
  };
  window.addEventListener("scroll", onScroll, { passive: true });
  window.addEventListener("resize", onScroll, { passive: true });
}

export function downloadSession() {
  const s = view.session;
  if (!s) return;
  const doc = { id: s.id, agent: s.agent, messages: s.messages };
  if (s.compaction_model) doc.compaction_model = s.compaction_model;
  if (s.pinned) doc.pinned = s.pinned;
  const blob = new Blob([JSON.stringify(doc, null, 2) + "\n"], { type: "application/json" });
  const url = URL.createObjectURL(blob);
  const a = h("a", { href: url, download: `${s.id}.json` });
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
