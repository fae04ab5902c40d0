// The continue form: the user's next message, answered by the session's
// agent.

import { $, clear, h, showError } from "./dom.js";
import { APIError, call } from "./api.js";
import { view } from "./state.js";
import { loadSessions } from "./sessions.js";
import { reloadSession } from "./conversation.js";

async function onContinue(ev) {
  ev.preventDefault();
  const input = $("continue-input");
  const content = input.value;
  if (!content.trim() || !view.id) return;
  const id = view.id;
  const slot = clear($("continue-status"));
  const send = $("continue-send");
  send.disabled = true;
  slot.append(h("p", { class: "note", "data-testid": "continue-waiting" }, h("span", { class: "spinner", "aria-hidden": "true" }), " Waiting for the agent's reply…"));
  try {
    await call("POST", `sessions/${encodeURIComponent(id)}/continue`, { content });
    input.value = "";
    clear(slot);
    if (id === view.id) {
      await Promise.all([reloadSession(), loadSessions()]);
      const items = document.querySelectorAll("#messages article.msg");
      const lastMsg = items[items.length - 1];
      if (lastMsg) {
        lastMsg.classList.add("is-new");
        lastMsg.scrollIntoView({ block: "nearest" });
      }
      slot.append(h("p", { class: "note note-ok visually-hidden" }, "The reply was added to the conversation."));
    }
  } catch (e) {
    showError(slot, e, "continue-error");
    // The server keeps the user's message when the LLM fails: show it, and
    // empty the box so that it is not sent twice.
    if (id === view.id && e instanceof APIError && e.status !== 0) {
      const before = view.session ? view.session.messages.length : 0;
      await Promise.all([reloadSession(), loadSessions()]);
      const msgs = view.session ? view.session.messages : [];
      const lastMsg = msgs[msgs.length - 1];
      if (msgs.length > before && lastMsg && lastMsg.role === "user") {
        input.value = "";
        slot.append(h("p", { class: "note" }, "Your message was added to the session; the agent's reply failed. Fix the problem, then send again to continue."));
      }
    }
  } finally {
    send.disabled = false;
  }
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
