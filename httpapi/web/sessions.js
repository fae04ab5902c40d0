// The sessions panel: the list of stored sessions, a new session for one
// of the agents, and the import of a session file.

import { $, clear, h, plural, relTime, showError, timeEl } from "./dom.js";
import { call } from "./api.js";
import { needsToken } from "./token.js";
import { openSessionRoute } from "./route.js";
import { view } from "./conversation.js";
import { approx, estimateTokens } from "./estimate.js";

let sessions = [];
let agents = [];

export async function loadSessions() {
  const slot = $("sessions-status");
  try {
    const data = await call("GET", "sessions");
    sessions = (data && data.sessions) || [];
    clear(slot);
  } catch (e) {
    showError(slot, e, "sessions-error");
  }
  renderSessions();
}

export function renderSessions() {
  const list = clear($("session-list"));
  if (!sessions.length) {
    list.append(h("li", { class: "session-empty" }, needsToken() ? "Enter the access token to see the sessions." : "No sessions yet. Import a session JSON file or start a new one."));
    return;
  }
  for (const s of sessions) {
    const current = s.id === view.id;
    list.append(
      h(
        "li",
        null,
        h(
          "button",
          {
            type: "button",
            class: "session-item" + (current ? " is-current" : ""),
            "data-testid": "session-item",
            "data-session-id": s.id,
            "aria-current": current ? "page" : null,
            onclick: () => openSessionRoute(s.id),
          },
          h("span", { class: "session-item-id" }, s.id),
          h(
            "span",
            { class: "session-item-meta" },
            h("span", { class: "agent-tag" }, s.agent || "no agent"),
            h("span", null, plural(s.messages ?? 0, "message")),
            // The open session's size; the listing itself has no text.
            current && view.session && view.session.id === s.id ? h("span", { "data-testid": "session-item-tokens" }, approx(estimateTokens(view.session.messages))) : null,
          ),
          h("span", { class: "session-item-time" }, "updated ", timeEl(s.updated_at, relTime(s.updated_at))),
        ),
      ),
    );
  }
}

export async function loadAgents() {
  const sel = $("new-session-agent");
  try {
    const data = await call("GET", "agents");
    agents = (data && data.agents) || [];
  } catch (e) {
    agents = [];
    showError($("sessions-status"), e, "agents-error");
  }
  clear(sel);
  for (const a of agents) {
    let label = a.name + (a.model ? ` (${a.model})` : "");
    if (!a.compaction_enabled) label += ", no compaction";
    sel.append(h("option", { value: a.name, selected: a.default ? true : null }, label));
  }
  sel.disabled = agents.length === 0;
}

async function onNewSession(ev) {
  ev.preventDefault();
  const slot = $("sessions-status");
  const agent = $("new-session-agent").value;
  try {
    const s = await call("POST", "sessions", agent ? { agent } : {});
    clear(slot);
    await loadSessions();
    openSessionRoute(s.id);
  } catch (e) {
    showError(slot, e, "new-session-error");
  }
}

async function onImportFile() {
  const input = $("import-input");
  const file = input.files && input.files[0];
  input.value = "";
  if (!file) return;
  const slot = $("sessions-status");
  clear(slot).append(h("p", { class: "note" }, `Importing ${file.name}…`));
  try {
    const text = await file.text();
    const s = await call("POST", "sessions/import", text, { raw: true });
    clear(slot).append(h("p", { class: "note note-ok", "data-testid": "import-done" }, `Imported ${file.name} as session ${s.id}.`));
    await loadSessions();
    openSessionRoute(s.id);
  } catch (e) {
    showError(slot, e, "import-error");
  }
}

// initSessions wires the panel's controls.
export function initSessions() {
  $("refresh-sessions").addEventListener("click", loadSessions);
  $("new-session-form").addEventListener("submit", onNewSession);
  $("import-button").addEventListener("click", () => $("import-input").click());
  $("import-input").addEventListener("change", onImportFile);
}
