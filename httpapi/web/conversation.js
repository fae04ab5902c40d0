// The session view: one stored session's messages, with its compaction
// tools and its history beside it.

import { $, add, clear, h, plural, timeEl, showError } from "./dom.js";
import { call } from "./api.js";
import { job, view } from "./state.js";
import { emit, on } from "./events.js";
import { continuationsOf, gatewayClient, gatewayPath, isGatewaySession, renderSessions, sessionHead, sessionInfo } from "./sessions.js";
import { renderParts, renderToolCall } from "./parts.js";
import { isSummary, renderSummary, useFormatOf } from "./summary.js";
import { showTitle } from "./title.js";
import { fillGauge, fillTokens } from "./gauge.js";
import { messageLink, routeOf } from "./route.js";
import { resolveRange } from "./range.js";
import * as windowed from "./window.js";

const ROLES = new Set(["system", "user", "assistant", "tool"]);

let loadSeq = 0; // guards against late answers after a switch
let loading = 0; // reloads under way

// LIVE_MS is how often the page asks whether the session on screen
// changed (a window of no message: its version and length).
const LIVE_MS = 4000;

async function openSession(id) {
  const switching = id !== view.id;
  const at = routeOf().message;
  if (!switching && at && view.session) {
    await showMessage(at); // the same session, at another message
    return;
  }
  view.id = id;
  if (switching) {
    view.session = null;
    view.range = { start: "", end: "" };
    view.actions = new Map();
    view.plan = null;
    windowed.closeWindow();
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
  await reloadSession({ at, opening: switching || !!at });
  if (!(switching || at) || id !== view.id || !view.session) return;
  $("conversation").focus({ preventScroll: true });
  // A link to a message the session no longer holds (saved before a
  // compaction) shows the session at its latest messages, with the note.
  if (!at || !(await showMessage(at, { latest: true }))) await showLatest();
  if (switching) emit("session shown", id);
}

// showMessage brings message mid (an id, or "#N") of the session on
// screen into view and marks it, or says that the session has no such
// message and how many it has (a compaction replaces the messages it
// summarises); opts.latest says the caller shows the latest instead.
export async function showMessage(mid, opts = {}) {
  const art = await windowed.reveal(mid, "center");
  const slot = $("session-status");
  // A stale link's note stays on screen above the latest messages it shows
  // instead, until dismissed.
  slot.classList.toggle("status-sticky", !art && !!opts.latest);
  if (!art) {
    const note = h("p", { class: "note", "data-testid": "message-not-found" }, notFoundText(mid, view.total, !!opts.latest));
    const dismiss = opts.latest
      ? h("button", { type: "button", class: "btn btn-tiny", "data-testid": "message-not-found-dismiss", onclick: () => (clear(slot), slot.classList.remove("status-sticky")) }, "Dismiss")
      : null;
    clear(slot).append(dismiss ? h("div", { class: "status-note" }, note, dismiss) : note);
    return null;
  }
  for (const old of document.querySelectorAll("#messages article.msg.is-target")) old.classList.remove("is-target");
  art.classList.add("is-target");
  art.setAttribute("tabindex", "-1");
  art.focus({ preventScroll: true });
  return art;
}

// notFoundText says that the session on screen, of total messages, has no
// message mid (an id, or "#N"), and, when latest, that its latest messages
// show instead.
function notFoundText(mid, total, latest) {
  const has = `This session has ${plural(total, "message")}`;
  const then = latest && total ? "; showing the latest." : ".";
  if (/^#\d+$/.test(mid)) return `${has}: there is no message ${mid}` + then;
  return `This session has no message ${mid}: a compaction may have replaced it with its summary. ${has.replace("This session has", "It has")}` + then;
}

// showLatest scrolls to the session's latest messages when they do not
// all fit on the screen (as a chat client opens), else to its top.
export async function showLatest() {
  await windowed.showLatest();
  updateJump();
}

function closeSession() {
  view.id = "";
  view.session = null;
  windowed.closeWindow();
  $("session-view").hidden = true;
  $("empty-state").hidden = false;
  document.body.classList.remove("has-session");
  $("compact-panel").hidden = true;
  $("compact-off").hidden = true;
  $("history-panel").hidden = true;
  renderSessions();
}

// loadFailed shows why session id could not be read.
function loadFailed(id, err) {
  view.session = null;
  windowed.closeWindow();
  $("session-title").textContent = id;
  $("session-meta").textContent = "";
  showError($("outcome"), err, "session-error");
  $("compact-panel").hidden = true;
  $("compact-off").hidden = true;
  $("history-panel").hidden = true;
}

// reloadSession reads the session on screen again: its latest messages (or
// those around opts.at), its head, actions and revisions, never the whole
// session. A reload of the session on screen keeps the message at the top
// of the screen there, or the latest in view when they were.
export async function reloadSession(opts = {}) {
  const id = view.id;
  if (!id) return;
  const seq = ++loadSeq;
  const same = !opts.opening && view.loaded === id;
  const keep = same && !windowed.latestBelow() ? { latest: true } : same ? windowed.firstVisible() : null;
  const enc = encodeURIComponent(id);
  $("messages").setAttribute("aria-busy", "true");
  const listed = sessionInfo(id);
  loading++;
  const [w, head, ui, revs] = await Promise.allSettled([
    windowed.openWindow(id, { guess: listed ? listed.messages : 0, at: opts.at || (keep && keep.id) || "" }),
    sessionHead(id),
    call("GET", `sessions/${enc}/ui-elements`),
    call("GET", `sessions/${enc}/revisions`),
  ]).finally(() => loading--);
  if (seq !== loadSeq) return;
  $("messages").removeAttribute("aria-busy");
  if (w.status === "rejected") return loadFailed(id, w.reason);
  if (!w.value) return;
  view.session = { ...((head.status === "fulfilled" && head.value) || { id }), id };
  view.actions = new Map();
  if (ui.status === "fulfilled") {
    for (const el of ui.value.ui_elements) view.actions.set(el.id, el);
  }
  await resolveRange(); // drops range marks that no longer name a message
  await useFormatOf(view.session.agent); // its summaries are of its agent's compaction type's form
  if (seq !== loadSeq) return;
  renderSession();
  renderSessions();
  if (keep) await keepPlace(keep);
  else if (!opts.opening) windowed.layout();
  emit("session loaded", {
    id,
    uiError: ui.status === "rejected" ? ui.reason : null,
    revisions: revs.status === "fulfilled" ? revs.value.revisions : [],
    failures: (revs.status === "fulfilled" && revs.value.failures) || [],
    revisionsError: revs.status === "rejected" ? revs.reason : null,
    stale: () => seq !== loadSeq,
  });
}

// keepPlace puts the window back where it was before a reload: at the
// latest messages, or with the message that was at the top of the screen
// at the same place (when it is still in the session).
async function keepPlace(keep) {
  if (keep.latest) return showLatest();
  const i = windowed.indexOfId(keep.id);
  if (i < 0) return windowed.layout();
  await windowed.revealIndex(i, "start");
  window.scrollBy(0, -keep.top);
  windowed.layout();
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
    h("span", { "data-testid": "message-count" }, plural(view.total, "message")),
    h("span", { id: "session-tokens-slot" }), // from GET …/context
    h("span", { class: "session-context", id: "session-context" }),
    h("span", null, "version " + view.version),
    s.updated_at ? h("span", null, "updated ", timeEl(s.updated_at)) : null,
  ]);
  fillTokens($("session-tokens-slot"), s.id, view.version, "session-tokens");
  fillGauge($("session-context"), s.id, view.version, false, clear($("session-context-note")));
  showGatewayNote();
  $("messages").querySelector(".messages-empty")?.remove();
  if (!view.total) $("messages").append(h("li", { class: "messages-empty", "data-testid": "messages-empty" }, "No messages yet. Write below to start the conversation."));
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
  // The face the listing names: Claude Code's Messages API, the
  // Responses API (Codex's), or chat completions (an OpenAI-compatible
  // client's). The path is the base_url the client is given.
  const face = sessionInfo(s.id)?.gateway_face;
  note.append(
    `This conversation comes through the compaction gateway: ${gatewayClient(face)} sends it to `,
    h("code", null, gatewayPath(s.agent, face)),
    ". That client owns it and sends it whole with every request, so messages cannot be added here: write to the agent from that client.",
  );
  // The sessions before and after a compaction the client made on its
  // own side (continued_from): each links the other.
  const from = sessionInfo(s.id)?.continued_from;
  if (from) note.append(" It continues ", sessionLink(from), ", which its client compacted.");
  const later = continuationsOf(s.id);
  if (later.length) note.append(" Its client compacted it; it continues in ", ...later.flatMap((c, i) => (i ? [", ", sessionLink(c.id)] : [sessionLink(c.id)])), ".");
}

// sessionLink links session id, named by its title when listed.
function sessionLink(id) {
  return h("a", { href: "#/s/" + encodeURIComponent(id), "data-testid": "session-link" }, sessionInfo(id)?.title || id);
}

// callOf finds the tool call id among the read messages before message i
// (a result follows its call closely): {name, index, anchor}, or null.
function callOf(id, i) {
  for (let k = i - 1; k >= 0 && k >= i - 64; k--) {
    const m = windowed.messageAt(k);
    const j = m ? (m.tool_calls || []).findIndex((c) => c.id === id) : -1;
    if (j >= 0) return { name: m.tool_calls[j].function?.name || "", index: k, anchor: `tc-${k}-${j}` };
  }
  return null;
}

// renderMessage draws message m, the i-th (0-based) of the session: the
// one place a message is drawn (window.js calls it as it scrolls).
function renderMessage(m, i) {
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
    const call = callOf(m.tool_call_id, i);
    body.append(
      h(
        "p",
        { class: "tool-result-of" },
        "Result of ",
        call && call.name ? h("code", { class: "tool-name" }, call.name) : "tool call",
        " ",
        call
          ? h("button", { type: "button", class: "link-button call-id", "data-testid": "tool-call-id", title: "Show the tool call", onclick: () => jumpTo(call) }, m.tool_call_id)
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

// jumpTo opens and shows tool call c ({index, anchor}), drawing its
// message first when it is not in the document.
async function jumpTo(c) {
  if (!document.getElementById(c.anchor)) await windowed.revealIndex(c.index, "center");
  const el = document.getElementById(c.anchor);
  if (!el) return;
  el.open = true;
  el.scrollIntoView({ block: "center", behavior: "smooth" });
  el.querySelector("summary")?.focus({ preventScroll: true });
}

// updateJump shows "Jump to latest" while the last message is below the
// screen and no preview is open (the button would cover its editor).
export function updateJump() {
  const btn = $("jump-latest");
  if (!btn) return;
  const previewOpen = !$("preview").hidden;
  btn.hidden = previewOpen || $("session-view").hidden || !windowed.latestBelow();
}

async function jumpToLatest() {
  await showLatest();
  const last = windowed.latestArticle();
  if (!last) return;
  last.setAttribute("tabindex", "-1");
  last.focus({ preventScroll: true });
  updateJump();
}

// goTo shows the message the "Go to message" box names (an id, or #N),
// wherever it is in the session, and puts its link in the address.
async function goTo(ev) {
  ev.preventDefault();
  const ref = $("goto-input").value.trim();
  if (!ref || !view.id) return;
  clear($("session-status"));
  const art = await showMessage(ref);
  if (art && art.dataset.id) history.replaceState(history.state, "", messageLink(view.id, art.dataset.id));
}

// initConversation wires the session view's controls and follows the
// address.
export function initConversation() {
  windowed.setRenderer(renderMessage);
  windowed.initWindow();
  on("route changed", (id) => (id ? openSession(id) : closeSession()));
  on("preview changed", updateJump);
  on("sessions changed", showGatewayNote); // the listing says which sessions the gateway keeps
  // A run another client (or an automatic compaction) made on the session
  // on screen has ended: show what it wrote.
  on("run ended", (id) => {
    if (id === view.id && !job.runs.has(id)) reloadSession();
  });
  // The session changed under the window (another client, the gateway):
  // read it again, keeping the place.
  on("window stale", (id) => id === view.id && !job.runs.has(id) && reloadSession());
  on("sessions changed", followListing);
  setInterval(checkLive, LIVE_MS);
  $("reload-session").addEventListener("click", () => reloadSession());
  $("download-session").addEventListener("click", downloadSession);
  $("jump-latest").addEventListener("click", jumpToLatest);
  $("goto-form").addEventListener("submit", goTo);
  windowed.afterScroll(updateJump);
}

// followListing reads the session on screen again when the session list
// shows it at a newer version than the window (appends or a compaction by
// another client, the gateway's turns): live updates without reading the
// whole session.
function followListing() {
  const info = view.id ? sessionInfo(view.id) : null;
  if (!info || !view.session || job.runs.has(view.id) || loading) return;
  if (info.version > view.version) reloadSession();
}

// checkLive asks the server for the version of the session on screen (a
// window past its end holds no message) and reads it again when it moved.
async function checkLive() {
  const id = view.id;
  if (!id || !view.session || document.hidden || job.runs.has(id) || loading) return;
  try {
    const ans = await windowed.readWindow(id, { offset: view.total + 1_000_000_000, limit: 1 });
    if (id === view.id && !loading && view.session && ans.version !== view.version) reloadSession();
  } catch {
    /* the next reload reports it */
  }
}

// downloadSession saves the session on screen as a session document: the
// one place the page reads a whole session, when asked to.
export async function downloadSession() {
  const id = view.id;
  if (!id) return;
  let s;
  try {
    s = await call("GET", `sessions/${encodeURIComponent(id)}`);
  } catch (e) {
    showError($("session-status"), e, "download-error");
    return;
  }
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
