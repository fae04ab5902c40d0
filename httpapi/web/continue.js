// The continue form: the user's next message, answered by the session's
// agent. A failed turn can be retried without typing the message again,
// and an automatic compaction before the turn is announced.

import { $, clear, h, plural, showError } from "./dom.js";
import { APIError, call } from "./api.js";
import { view } from "./state.js";
import { loadSessions } from "./sessions.js";
import { reloadSession, showLatest } from "./conversation.js";
import { lastMessage, latestArticle } from "./window.js";

function onContinue(ev) {
  ev.preventDefault();
  const content = $("continue-input").value;
  if (!content.trim() || !view.id) return;
  send(view.id, content, lastId());
}

// send posts content as the next user message of session id, whose last
// message was before (its id), and shows what happened: the reply, or the
// error with a way to try again. A null content asks again for the reply
// to the session's last message, a user message whose reply failed.
async function send(id, content, before) {
  const input = $("continue-input");
  const slot = clear($("continue-status"));
  const button = $("continue-send");
  button.disabled = true;
  slot.append(h("p", { class: "note", "data-testid": "continue-waiting" }, h("span", { class: "spinner", "aria-hidden": "true" }), " Waiting for the agent's reply…"));
  try {
    const body = content === null ? { retry: true } : { content };
    const data = await call("POST", `sessions/${encodeURIComponent(id)}/continue`, body);
    if (content !== null && input.value === content) input.value = "";
    clear(slot);
    if (id === view.id) {
      await Promise.all([reloadSession(), loadSessions()]);
      await showLatest();
      const lastMsg = latestArticle();
      if (lastMsg) lastMsg.classList.add("is-new");
      const auto = data && data.auto_compaction;
      if (auto) slot.append(autoNote(auto));
      slot.append(h("p", { class: "note note-ok visually-hidden" }, "The reply was added to the conversation."));
    }
  } catch (e) {
    if (content === null) {
      showError(slot, e, "continue-error");
      return;
    }
    await failed(id, content, before, e, slot);
  } finally {
    button.disabled = false;
  }
}

// failed shows why a turn failed, and whether the user's message is in
// the session now. The server keeps the message when the reply fails
// (docs/http-api.md); it appends nothing when the request was refused
// first, or when the automatic compaction before the turn failed.
async function failed(id, content, before, e, slot) {
  showError(slot, e, "continue-error");
  if (id !== view.id || !(e instanceof APIError)) return;
  if (e.status !== 0) await Promise.all([reloadSession(), loadSessions()]);
  if (id !== view.id) return;
  if (appended(content, before)) {
    // Sending it again would add it twice: the box is emptied.
    if ($("continue-input").value === content) $("continue-input").value = "";
    // The server answers it again without adding it twice ({"retry": true}).
    const again = h("button", { type: "button", class: "btn btn-small btn-primary", "data-testid": "continue-ask-again" }, "Ask again");
    again.addEventListener("click", () => send(id, null, before));
    slot.append(h("p", { class: "note", "data-testid": "continue-kept" }, "Your message was added to the session; the agent's reply failed. ", again));
    return;
  }
  const retry = h("button", { type: "button", class: "btn btn-small btn-primary", "data-testid": "continue-retry" }, "Retry");
  retry.addEventListener("click", () => retryTurn(id, content, before));
  slot.append(h("p", { class: "note", "data-testid": "continue-not-sent" }, "Your message was not added to the session. ", retry));
}

// retryTurn sends content again, unless the session has it as its last
// message by now (the first request may have reached the server after
// all): then it says so rather than adding it twice.
async function retryTurn(id, content, before) {
  if (id !== view.id) return;
  await reloadSession();
  if (id !== view.id) return;
  if (appended(content, before)) {
    clear($("continue-status")).append(h("p", { class: "note", "data-testid": "continue-kept" }, "Your message is in the session already; it was not sent again."));
    return;
  }
  send(id, content, before);
}

// lastId is the id of the last message of the session on screen.
function lastId() {
  const last = view.session ? lastMessage() : null;
  return last ? last.id : "";
}

// appended reports whether the session on screen ends with the user
// message content, unanswered, added after the message before (its id).
function appended(content, before) {
  const last = view.session ? lastMessage() : null;
  if (!last || last.role !== "user" || last.id === before) return false;
  const text = (last.content || []).filter((p) => p.type === "text").map((p) => p.text).join("");
  return text === content;
}

// autoNote says what the automatic compaction before the turn did (the
// continue answer's auto_compaction, docs/http-api.md).
function autoNote(a) {
  const tokens = a.tokens_after !== undefined && a.tokens_before !== undefined ? ` (~${a.tokens_before.toLocaleString()} → ~${a.tokens_after.toLocaleString()} tokens)` : "";
  const text = {
    compacted: `The session was compacted automatically before this turn${tokens}${a.revision ? `, revision ${a.revision}` : ""}: the history has its summary.`,
    noop: `An automatic compaction was due, but there was nothing to compact${a.reason ? ": " + a.reason : ""}.`,
    not_reduced: `An automatic compaction was due, but its summary would not have made the session smaller${tokens}, so it was not kept; the turn was sent on the session as it was.`,
    running: "An automatic compaction of this session runs in the background; the turn did not wait for it.",
  }[a.status];
  if (!text) return null;
  return h("p", { class: "note" + (a.status === "compacted" ? " note-ok" : ""), "data-testid": "continue-auto", "data-status": a.status }, text, a.auto_failures ? ` ${plural(a.auto_failures, "automatic compaction")} failed in a row.` : "");
}

// initContinue wires the form.
export function initContinue() {
  $("continue-form").addEventListener("submit", onContinue);
  $("continue-input").addEventListener("keydown", (e) => {
    if (e.key === "Enter" && (e.ctrlKey || e.metaKey)) {
      e.preventDefault();
      $("continue-form").requestSubmit();
    }
  });
}
