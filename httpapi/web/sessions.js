// The sessions panel: the list of stored sessions (with their titles, and
// a search; marked when a summary waits for review or a run is in
// progress), a new session for one of the agents, and the import of a
// session file or a kimi-cli context.jsonl.

import { $, clear, confirmBox, h, plural, relTime, showError, timeEl } from "./dom.js";
import { call, callWithHeaders } from "./api.js";
import { needsToken } from "./token.js";
import { openSessionRoute } from "./route.js";
import { job, preview, view } from "./state.js";
import { emit, on } from "./events.js";
import { fillListGauges, fillTokens } from "./gauge.js";

// gatewayClient names the client a gateway session's face
// (SessionInfo.gateway_face) serves: Claude Code's Messages API, the
// Responses API (Codex's), or chat completions (any OpenAI-compatible
// client's).
export function gatewayClient(face) {
  return { messages: "a Messages API client (Claude Code)", responses: "a Responses API client (Codex)" }[face] || "an OpenAI-compatible client";
}

// gatewayPath is the path a gateway session's client is given for agent
// (its base_url, or the Messages route itself).
export function gatewayPath(agent, face) {
  return face === "messages" ? `/gateway/${agent}/v1/messages` : `/gateway/${agent}/v1`;
}

let sessions = [];
let agents = [];

// RUNNING_REFRESH_MS is how often the list is asked again while the
// server marks a session as running.
const RUNNING_REFRESH_MS = 5000;
let runningTimer = 0;
// serverRuns are the sessions the server said run an action this page
// did not start: when one stops, the page says "run ended".
let serverRuns = new Set();

// sessionInfo is the listing's entry for session id (its title), if any.
export function sessionInfo(id) {
  return sessions.find((s) => s.id === id) || null;
}

// continuationsOf are the listing's sessions that continue session id
// after their client compacted on its own side (continued_from).
export function continuationsOf(id) {
  return sessions.filter((s) => s.continued_from === id);
}

// isGatewaySession says whether the listing marks session id as one the
// compaction gateway keeps.
export function isGatewaySession(id) {
  return sessions.some((s) => s.id === id && s.gateway);
}

// sessionHead is session id's listing entry (SessionInfo: its title,
// agent, message count, version…): from the session list, or, when a search
// keeps the session out of it, from the server's listing; null for none.
export async function sessionHead(id) {
  const listed = sessionInfo(id);
  if (listed) return listed;
  const data = await call("GET", "sessions?side_calls=true&q=" + encodeURIComponent(id));
  return ((data && data.sessions) || []).find((s) => s.id === id) || null;
}

let listSeq = 0; // the last list asked for: an older answer is dropped

export async function loadSessions() {
  const slot = $("sessions-status");
  const seq = ++listSeq;
  try {
    const q = $("session-search").value.trim();
    const query = new URLSearchParams();
    if (q) query.set("q", q);
    if ($("show-side-calls").checked) query.set("side_calls", "true"); // a client's one-shot side calls, on request
    const qs = query.toString();
    const data = await call("GET", "sessions" + (qs ? "?" + qs : ""));
    if (seq !== listSeq) return; // a newer list was asked for: its answer counts
    if (q !== $("session-search").value.trim()) return; // a newer search is on its way
    sessions = (data && data.sessions) || [];
    clear(slot);
  } catch (e) {
    if (seq !== listSeq) return;
    showError(slot, e, "sessions-error");
  }
  renderSessions();
  followRuns();
}

// followRuns asks for the list again every RUNNING_REFRESH_MS while the
// server marks a session as running, and stops when none is; a session
// whose run (not this page's) ended since the last answer is announced.
function followRuns() {
  const now = new Set(sessions.filter((s) => s.running && !job.runs.has(s.id)).map((s) => s.id));
  const listed = new Set(sessions.map((s) => s.id));
  const ended = [...serverRuns].filter((id) => listed.has(id) && !now.has(id));
  serverRuns = now;
  clearTimeout(runningTimer);
  runningTimer = sessions.some((s) => s.running) ? setTimeout(loadSessions, RUNNING_REFRESH_MS) : 0;
  for (const id of ended) emit("run ended", id);
}

// toReview says whether session s has a summary waiting for review that
// is not on screen: one the server keeps, or one that arrived while
// another session was open.
function toReview(s) {
  if (preview.pending && preview.pending.sessionId === s.id) return false;
  return job.previews.has(s.id) || (s.open_previews ?? 0) - (s.gateway_previews ?? 0) > 0; // the gateway's precomputed summary is no person's to review
}

export function renderSessions() {
  emit("sessions changed");
  const list = clear($("session-list"));
  if (!sessions.length) {
    const q = $("session-search").value.trim();
    list.append(
      h(
        "li",
        { class: "session-empty", "data-testid": "session-empty" },
        needsToken() ? "Enter the access token to see the sessions." : q ? `No session has a title or id with “${q}”.` : "No sessions yet. Import a session JSON file or start a new one.",
      ),
    );
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
            onclick: () => {
              closeSessionsPanel(false);
              openSessionRoute(s.id);
            },
          },
          h("span", { class: "session-item-title", "data-testid": "session-item-title" }, s.title || s.id),
          s.title ? h("span", { class: "session-item-id" }, s.id) : null,
          h(
            "span",
            { class: "session-item-meta" },
            h("span", { class: "agent-tag" }, s.agent || "no agent"),
            h("span", null, plural(s.messages ?? 0, "message")),
            s.gateway ? h("span", { class: "badge badge-quiet", "data-testid": "session-gateway", title: `A conversation the compaction gateway keeps: ${gatewayClient(s.gateway_face)}'s, forwarded through ${gatewayPath(s.agent || "", s.gateway_face)}` }, "gateway") : null,
            s.side_call ? h("span", { class: "badge badge-quiet", "data-testid": "session-side-call", title: "A client's one-shot side call (a title request), listed only on request" }, "side call") : null,
            s.running || job.runs.has(s.id) ? h("span", { class: "badge badge-run", "data-testid": "session-running", title: "A compaction of this session is running" }, "running") : null,
            toReview(s) ? h("span", { class: "badge badge-warn", "data-testid": "preview-waiting", title: "A proposed summary waits: open the session to review it" }, "summary to review") : null,
            // The open session's size; the listing itself has no text.
            current && view.session && view.session.id === s.id ? h("span", { "data-tokens-for": s.id, "data-version": view.version }) : null,
          ),
          h("span", { class: "session-gauge", "data-gauge-for": s.id, "data-version": s.version }),
          h("span", { class: "session-item-time" }, "updated ", timeEl(s.updated_at, relTime(s.updated_at))),
        ),
      ),
    );
  }
  fillListGauges([...list.querySelectorAll("[data-gauge-for]")]);
  for (const slot of list.querySelectorAll("[data-tokens-for]")) fillTokens(slot, slot.dataset.tokensFor, Number(slot.dataset.version), "session-item-tokens");
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

// sniffFile tells a kimi-cli context.jsonl and a Kimi Code wire.jsonl from
// a session document by content: a session document is one JSON object with
// "messages"; a kimi-cli file is JSON lines whose first record has a "role"
// (a message, or one of kimi-cli's _system_prompt, _checkpoint and _usage
// records); a Kimi Code wire.jsonl is JSON lines whose first record is its
// "metadata" (with a protocol_version). It returns {format, doc}: doc is the
// session document read, null for a kimi-cli or Kimi Code file or a file
// that is neither (the server says what is wrong).
export function sniffFile(text) {
  try {
    const doc = JSON.parse(text);
    if (doc && typeof doc === "object" && !Array.isArray(doc) && typeof doc.role !== "string" && !isWireMetadata(doc)) return { format: "session", doc };
  } catch {
    /* not one JSON document: JSON lines, perhaps */
  }
  const first = text.split("\n").find((l) => l.trim() !== "");
  try {
    const rec = JSON.parse(first);
    if (rec && typeof rec === "object" && typeof rec.role === "string") return { format: "kimi", doc: null };
    if (isWireMetadata(rec)) return { format: "kimi-code", doc: null };
  } catch {
    /* neither: the server says what is wrong */
  }
  return { format: "session", doc: null };
}

// isWireMetadata reports whether rec is the first record of a Kimi Code
// wire.jsonl: {"type": "metadata", "protocol_version": …}.
function isWireMetadata(rec) {
  return !!rec && typeof rec === "object" && rec.type === "metadata" && typeof rec.protocol_version === "string";
}

const FORMATS = { session: "a kompact session document", kimi: "a kimi-cli context.jsonl", "kimi-code": "a Kimi Code wire.jsonl" };

// startAgent is the agent the import dialog starts from: the file's own
// when the server knows it, else the default one; a file's agent the
// server does not know is named (unknown), and the person chooses.
// {name, source: "file" | "default" | "unknown", own}.
function startAgent(doc) {
  const own = doc && typeof doc.agent === "string" ? doc.agent : "";
  if (own && agents.some((a) => a.name === own)) return { name: own, source: "file", own };
  if (own && agents.length) return { name: "", source: "unknown", own };
  return { name: (agents.find((a) => a.default) || { name: "" }).name, source: "default", own };
}

// agentNote says where the dialog's agent comes from.
function agentNote(start, format) {
  const attrs = { class: "hint", id: "import-agent-note", "data-testid": "import-agent-note", "data-source": start.source };
  if (start.source === "file") return h("p", attrs, `The file's own agent, “${start.own}”.`);
  if (start.source === "unknown") return h("p", { ...attrs, class: "field-problem" }, `The file's agent “${start.own}” is not configured on this server: choose the agent for this session.`);
  const which = { kimi: "A kimi-cli file", "kimi-code": "A Kimi Code file" }[format] || "The file";
  return h("p", attrs, `${which} names no agent: the server's default agent is chosen.`);
}

async function onImportFile() {
  const input = $("import-input");
  const file = input.files && input.files[0];
  input.value = "";
  if (!file) return;
  const slot = $("sessions-status");
  // The file is read as bytes and sent as it is: the server judges them
  // (bytes that are not UTF-8 are refused with their offset and the
  // message they sit in). The text decoded here, bad bytes replaced, only
  // tells the format, agent and id to offer.
  let bytes;
  try {
    bytes = new Uint8Array(await file.arrayBuffer());
  } catch (e) {
    showError(slot, e, "import-error");
    return;
  }
  const { format, doc } = sniffFile(new TextDecoder().decode(bytes));
  const start = startAgent(doc);
  const choose = start.source === "unknown" ? h("option", { value: "", selected: true, disabled: true }, "Choose an agent…") : null;
  const agent = h(
    "select",
    { id: "import-agent", "data-testid": "import-agent", "aria-describedby": "import-agent-note" },
    choose,
    agents.map((a) => h("option", { value: a.name, selected: a.name === start.name ? true : null }, a.name + (a.default ? " (default)" : ""))),
  );
  const ownId = doc && typeof doc.id === "string" ? doc.id : "";
  const id = h("input", { id: "import-id", type: "text", "data-testid": "import-id", value: ownId, placeholder: "a new id", autocomplete: "off", spellcheck: "false" });
  const problem = h("p", { class: "field-problem", role: "status", "data-testid": "import-problem" });
  clear(slot).append(
    confirmBox({
      testid: "import-confirm",
      title: `Import ${file.name}`,
      lines: [
        h("p", { "data-testid": "import-format", "data-format": format }, `Read as ${FORMATS[format]}.`),
        h("p", { class: "field" }, h("label", { for: "import-agent" }, "Agent"), agent),
        agentNote(start, format),
        h("p", { class: "field" }, h("label", { for: "import-id" }, "Session id (optional)"), id),
        problem,
      ],
      ok: "Import",
      onOk: () => {
        if (start.source === "unknown" && !agent.value) {
          problem.textContent = "Choose the agent first.";
          agent.focus();
          return;
        }
        importBytes(file.name, bytes, format, agent.value, id.value.trim());
      },
    }),
  );
}

async function importBytes(name, bytes, format, agent, id) {
  const slot = $("sessions-status");
  clear(slot).append(h("p", { class: "note" }, `Importing ${name}…`));
  const q = new URLSearchParams({ format });
  if (agent) q.set("agent", agent);
  if (id) q.set("id", id);
  try {
    const { data: s, headers } = await callWithHeaders("POST", "sessions/import?" + q, bytes, { raw: true });
    const skipped = Number(headers.get("Kompact-Skipped-Lines") || 0);
    await loadSessions(); // clears the status slot: the note comes after
    clear(slot).append(
      h(
        "p",
        { class: "note note-ok", "data-testid": "import-done" },
        `Imported ${name} as session ${s.id} (${plural(s.messages.length, "message")}).`,
        skipped ? ` ${plural(skipped, "line")} of the file could not be read and ${skipped === 1 ? "was" : "were"} left out.` : "",
      ),
    );
    openSessionRoute(s.id);
    closeSessionsPanel(false); // narrow screens: show the imported session, as picking one does
  } catch (e) {
    showError(slot, e, "import-error");
  }
}

// updateSettings changes session id's settings (PATCH …/settings), then
// lists the sessions again, which carry them.
export async function updateSettings(id, settings) {
  const s = await call("PATCH", `sessions/${encodeURIComponent(id)}/settings`, settings);
  await loadSessions();
  return s;
}

// renameSession gives session id a new title ("" for its default one).
export function renameSession(id, title) {
  return updateSettings(id, { title });
}

// askDelete asks before deleting session id, then deletes it.
export function askDelete(id, slot) {
  const s = sessions.find((x) => x.id === id);
  clear(slot).append(
    confirmBox({
      testid: "delete-confirm",
      title: `Delete session ${id}?`,
      lines: [`Its ${plural(s ? s.messages : view.total, "message")} and its history are removed for good. Download it first to keep a copy.`],
      ok: "Delete session",
      onOk: async (box) => {
        box.querySelectorAll("button").forEach((b) => (b.disabled = true));
        try {
          await call("DELETE", `sessions/${encodeURIComponent(id)}`);
          clear(slot);
          await loadSessions();
          clear($("sessions-status")).append(h("p", { class: "note note-ok", "data-testid": "delete-done" }, `Deleted session ${id}.`));
          location.hash = "";
        } catch (e) {
          showError(slot, e, "delete-error");
        }
      },
    }),
  );
}

// openSessionsPanel shows the session list over the page, from the top
// (narrow screens, where it otherwise sits below the conversation).
function openSessionsPanel() {
  document.body.classList.add("sessions-open");
  $("sessions-toggle").setAttribute("aria-expanded", "true");
  $("sessions-panel").scrollTop = 0;
  $("sessions-panel").focus({ preventScroll: true });
}

// closeSessionsPanel closes the list opened over the page, and says
// whether it was open; focus goes back to the Sessions button when asked.
export function closeSessionsPanel(refocus) {
  if (!document.body.classList.contains("sessions-open")) return false;
  document.body.classList.remove("sessions-open");
  $("sessions-toggle").setAttribute("aria-expanded", "false");
  if (refocus) $("sessions-toggle").focus({ preventScroll: true });
  return true;
}

let searchTimer = 0;

// initSessions wires the panel's controls.
export function initSessions() {
  $("refresh-sessions").addEventListener("click", loadSessions);
  $("sessions-toggle").addEventListener("click", () => (document.body.classList.contains("sessions-open") ? closeSessionsPanel(true) : openSessionsPanel()));
  $("sessions-close").addEventListener("click", () => closeSessionsPanel(true));
  $("new-session-form").addEventListener("submit", onNewSession);
  $("import-button").addEventListener("click", () => $("import-input").click());
  $("import-input").addEventListener("change", onImportFile);
  $("session-search").addEventListener("input", () => {
    clearTimeout(searchTimer);
    searchTimer = setTimeout(loadSessions, 200);
  });
  $("show-side-calls").addEventListener("change", loadSessions);
  on("preview changed", renderSessions); // the preview on screen is not marked "to review"
}
