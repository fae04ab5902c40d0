// kompact's web page. It talks only to the HTTP API under v1/ (docs/http-api.md).
// Untrusted text (messages, summaries, errors) is always put in the page as
// text nodes, never as HTML.

const SUMMARY_PREFIX =
  "<system>Previous context has been compacted. Here is the compaction output:</system>";

const SECTIONS = [
  ["current_focus", "Current focus"],
  ["environment", "Environment"],
  ["completed_tasks", "Completed tasks"],
  ["active_issues", "Active issues"],
  ["code_state", "Code state"],
  ["important_context", "Important context"],
];

const TOKEN_KEY = "kompact.token";
const ROLES = new Set(["system", "user", "assistant", "tool"]);

const state = {
  token: "",
  sessions: [],
  agents: [],
  current: null, // the stored session on screen
  currentId: "",
  loadSeq: 0, // guards against late answers after a switch
  actions: new Map(), // ui element id -> element, for the current session
  revisions: [],
  range: { start: "", end: "" },
  busy: null, // {sessionId, ctrl} while an action runs
  lastMissing: new Map(), // session id -> {summary, missing} from the last outcome
  preview: null, // {sessionId, id, summary, missing}
  needToken: false,
};

// ---------------------------------------------------------------- helpers

const $ = (id) => document.getElementById(id);

// h builds an element. Strings among the children become text nodes.
function h(tag, props, ...children) {
  const el = document.createElement(tag);
  if (props) {
    for (const [k, v] of Object.entries(props)) {
      if (v === null || v === undefined || v === false) continue;
      if (k === "class") el.className = v;
      else if (k === "text") el.textContent = v;
      else if (k === "value") el.value = v;
      else if (k.startsWith("on") && typeof v === "function") el.addEventListener(k.slice(2), v);
      else if (v === true) el.setAttribute(k, "");
      else el.setAttribute(k, String(v));
    }
  }
  add(el, children);
  return el;
}

function add(el, children) {
  for (const c of children.flat(Infinity)) {
    if (c === null || c === undefined || c === false) continue;
    el.append(c instanceof Node ? c : String(c));
  }
  return el;
}

function clear(el) {
  el.replaceChildren();
  return el;
}

function plural(n, one, many = one + "s") {
  return `${n.toLocaleString()} ${n === 1 ? one : many}`;
}

const dateFmt = new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "short" });
const relFmt = new Intl.RelativeTimeFormat(undefined, { numeric: "auto" });

function fmtTime(iso) {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? String(iso || "") : dateFmt.format(d);
}

function relTime(iso) {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return "";
  const s = (d.getTime() - Date.now()) / 1000;
  const abs = Math.abs(s);
  if (abs < 45) return "just now";
  if (abs < 3600) return relFmt.format(Math.round(s / 60), "minute");
  if (abs < 86400) return relFmt.format(Math.round(s / 3600), "hour");
  if (abs < 86400 * 30) return relFmt.format(Math.round(s / 86400), "day");
  return dateFmt.format(d);
}

function timeEl(iso, text) {
  return h("time", { datetime: iso, title: fmtTime(iso) }, text ?? fmtTime(iso));
}

// prettyJSON pretty-prints JSON text or a value; text that is not JSON is
// returned as it is.
function prettyJSON(v) {
  if (typeof v === "string") {
    try {
      return JSON.stringify(JSON.parse(v), null, 2);
    } catch {
      return v;
    }
  }
  try {
    return JSON.stringify(v, null, 2);
  } catch {
    return String(v);
  }
}

// safeURL returns url when its scheme is harmless for kind ("link" or a
// media kind), else "".
function safeURL(url, kind) {
  if (typeof url !== "string" || url === "") return "";
  let u;
  try {
    u = new URL(url, document.baseURI);
  } catch {
    return "";
  }
  if (u.protocol === "http:" || u.protocol === "https:" || u.protocol === "blob:") return u.href;
  if (u.protocol === "data:" && kind !== "link") {
    const mime = url.slice(5).split(/[;,]/, 1)[0].toLowerCase();
    if (mime.startsWith(kind + "/")) return url;
  }
  return "";
}

function shortURL(url) {
  if (url.startsWith("data:")) return url.slice(0, 40) + (url.length > 40 ? "…" : "");
  return url.length > 80 ? url.slice(0, 77) + "…" : url;
}

function snippet(m, n = 48) {
  for (const p of m.content || []) {
    if (p.type === "text" && p.text.trim()) {
      let t = p.text;
      if (isSummary(m)) t = "Summary";
      t = t.replace(/\s+/g, " ").trim();
      return t.length > n ? t.slice(0, n - 1) + "…" : t;
    }
  }
  if (m.tool_calls && m.tool_calls.length) return "calls " + m.tool_calls.map((c) => c.function?.name).join(", ");
  return "(no text)";
}

// ---------------------------------------------------------------- the API

class APIError extends Error {
  constructor(status, body) {
    const b = body && typeof body === "object" ? body : {};
    super(b.message || `The server answered ${status}.`);
    this.status = status;
    this.code = b.code || (status ? `http_${status}` : "network");
    this.fixes = Array.isArray(b.fixes) ? b.fixes : [];
  }
}

function apiURL(path) {
  return "v1/" + path;
}

function authHeaders(extra) {
  const headers = { ...extra };
  if (state.token) headers.Authorization = "Bearer " + state.token;
  return headers;
}

async function readJSON(res) {
  const text = await res.text();
  if (!text) return null;
  try {
    return JSON.parse(text);
  } catch {
    return { code: `http_${res.status}`, message: text.slice(0, 300) };
  }
}

function networkError(e) {
  return new APIError(0, {
    code: "network",
    message: "The kompact server cannot be reached: " + (e && e.message ? e.message : e),
    fixes: ["Check that `kompact serve` is still running, then reload the page."],
  });
}

// api calls the API and returns the decoded JSON body. Errors throw an
// APIError; a 401 also shows the token form.
async function api(method, path, body, { raw = false, signal } = {}) {
  const headers = authHeaders({ Accept: "application/json" });
  let payload;
  if (body !== undefined) {
    headers["Content-Type"] = "application/json";
    payload = raw ? body : JSON.stringify(body);
  }
  let res;
  try {
    res = await fetch(apiURL(path), { method, headers, body: payload, signal, cache: "no-store" });
  } catch (e) {
    if (e.name === "AbortError") throw e;
    throw networkError(e);
  }
  if (res.status === 204) return null;
  const data = await readJSON(res);
  if (res.status === 401) askForToken(data && data.message);
  if (!res.ok) {
    if (data && data.status === "error" && data.error) throw new APIError(res.status, data.error);
    throw new APIError(res.status, data);
  }
  return data;
}

// asOutcome turns an answer of an action route into an outcome.
function asOutcome(status, data) {
  if (data && typeof data.status === "string") return data;
  if (status >= 200 && status < 300) {
    return { status: "error", error: { code: "internal", message: "The server's answer has no outcome.", fixes: [] } };
  }
  const e = new APIError(status, data);
  return { status: "error", error: { code: e.code, message: e.message, fixes: e.fixes } };
}

// readSSE yields the events of a text/event-stream body: {event, data}.
async function* readSSE(body) {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buf = "";
  let event = "";
  let data = [];
  const dispatch = function* () {
    if (data.length) yield { event: event || "message", data: data.join("\n") };
    event = "";
    data = [];
  };
  try {
    for (;;) {
      const { value, done } = await reader.read();
      buf += done ? decoder.decode() : decoder.decode(value, { stream: true });
      let nl;
      while ((nl = buf.indexOf("\n")) >= 0) {
        let line = buf.slice(0, nl);
        buf = buf.slice(nl + 1);
        if (line.endsWith("\r")) line = line.slice(0, -1);
        if (line === "") {
          yield* dispatch();
          continue;
        }
        if (line.startsWith(":")) continue; // a comment: keep-alive
        const colon = line.indexOf(":");
        const field = colon < 0 ? line : line.slice(0, colon);
        let val = colon < 0 ? "" : line.slice(colon + 1);
        if (val.startsWith(" ")) val = val.slice(1);
        if (field === "event") event = val;
        else if (field === "data") data.push(val);
      }
      if (done) break;
    }
    if (buf) {
      if (buf.startsWith("data:")) data.push(buf.slice(5).replace(/^ /, ""));
    }
    yield* dispatch();
  } finally {
    reader.releaseLock();
  }
}

// ---------------------------------------------------------------- token

function initToken() {
  try {
    state.token = sessionStorage.getItem(TOKEN_KEY) || "";
  } catch {
    state.token = "";
  }
  const url = new URL(location.href);
  const t = url.searchParams.get("token");
  if (t !== null) {
    state.token = t;
    try {
      sessionStorage.setItem(TOKEN_KEY, t);
    } catch {
      /* storage may be off; the token still works for this page */
    }
    // Keep the token out of the address bar, history and bookmarks.
    url.searchParams.delete("token");
    history.replaceState(history.state, "", url.pathname + url.search + url.hash);
  }
}

function askForToken(message) {
  state.needToken = true;
  const form = $("token-form");
  form.hidden = false;
  $("token-message").textContent = state.token
    ? "The server refused this token. Enter the right one."
    : message || "This server needs an access token.";
}

function onTokenSubmit(ev) {
  ev.preventDefault();
  const t = $("token-input").value.trim();
  if (!t) return;
  state.token = t;
  try {
    sessionStorage.setItem(TOKEN_KEY, t);
  } catch {
    /* ignore */
  }
  state.needToken = false;
  $("token-form").hidden = true;
  $("token-input").value = "";
  $("token-message").textContent = "";
  loadAll();
}

// ---------------------------------------------------------------- errors

function errorBox(err, testid = "error") {
  const code = err.code || "error";
  const fixes = Array.isArray(err.fixes) ? err.fixes : [];
  return h(
    "div",
    { class: "error-box", role: "alert", "data-testid": testid, "data-code": code },
    h("p", { class: "error-line" }, h("span", { class: "badge badge-error" }, code), " ", err.message || "Something went wrong."),
    fixes.length
      ? h("div", { class: "fixes" }, h("p", { class: "fixes-title" }, "How to fix it:"), h("ul", null, fixes.map((f) => h("li", null, f))))
      : null,
  );
}

function showError(slot, e, testid) {
  clear(slot);
  if (e && e.name === "AbortError") return;
  slot.append(errorBox(e instanceof APIError ? e : { code: "error", message: String(e && e.message ? e.message : e) }, testid));
}

// ---------------------------------------------------------------- sessions list

async function loadSessions() {
  const slot = $("sessions-status");
  try {
    const data = await api("GET", "sessions");
    state.sessions = (data && data.sessions) || [];
    clear(slot);
  } catch (e) {
    showError(slot, e, "sessions-error");
  }
  renderSessions();
}

function renderSessions() {
  const list = clear($("session-list"));
  if (!state.sessions.length) {
    list.append(h("li", { class: "session-empty" }, state.needToken ? "Enter the access token to see the sessions." : "No sessions yet. Import a session JSON file or start a new one."));
    return;
  }
  for (const s of state.sessions) {
    const current = s.id === state.currentId;
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
          ),
          h("span", { class: "session-item-time" }, "updated ", timeEl(s.updated_at, relTime(s.updated_at))),
        ),
      ),
    );
  }
}

async function loadAgents() {
  const sel = $("new-session-agent");
  try {
    const data = await api("GET", "agents");
    state.agents = (data && data.agents) || [];
  } catch (e) {
    state.agents = [];
    showError($("sessions-status"), e, "agents-error");
  }
  clear(sel);
  for (const a of state.agents) {
    let label = a.name + (a.model ? ` (${a.model})` : "");
    if (!a.compaction_enabled) label += ", no compaction";
    sel.append(h("option", { value: a.name, selected: a.default ? true : null }, label));
  }
  sel.disabled = state.agents.length === 0;
}

async function onNewSession(ev) {
  ev.preventDefault();
  const slot = $("sessions-status");
  const agent = $("new-session-agent").value;
  try {
    const s = await api("POST", "sessions", agent ? { agent } : {});
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
    const s = await api("POST", "sessions/import", text, { raw: true });
    clear(slot).append(h("p", { class: "note note-ok", "data-testid": "import-done" }, `Imported ${file.name} as session ${s.id}.`));
    await loadSessions();
    openSessionRoute(s.id);
  } catch (e) {
    showError(slot, e, "import-error");
  }
}

// ---------------------------------------------------------------- routing

function routeId() {
  const m = /^#\/s\/(.+)$/.exec(location.hash);
  if (!m) return "";
  try {
    return decodeURIComponent(m[1]);
  } catch {
    return "";
  }
}

function openSessionRoute(id) {
  const hash = "#/s/" + encodeURIComponent(id);
  if (location.hash === hash) openSession(id);
  else location.hash = hash;
}

function onRoute() {
  const id = routeId();
  if (id) openSession(id);
  else closeSession();
}

function closeSession() {
  state.currentId = "";
  state.current = null;
  $("session-view").hidden = true;
  $("empty-state").hidden = false;
  $("compact-panel").hidden = true;
  $("compact-off").hidden = true;
  $("history-panel").hidden = true;
  renderSessions();
}

// ---------------------------------------------------------------- one session

async function openSession(id) {
  const switching = id !== state.currentId;
  state.currentId = id;
  if (switching) {
    state.current = null;
    state.range = { start: "", end: "" };
    state.actions = new Map();
    state.revisions = [];
    clear($("outcome"));
    clear($("continue-status"));
    if (!state.busy) clear($("progress"));
    if (!state.preview || state.preview.sessionId !== id) hidePreview();
  }
  $("empty-state").hidden = true;
  $("session-view").hidden = false;
  renderSessions();
  await reloadSession();
  if (switching) $("conversation").focus({ preventScroll: true });
}

// reloadSession loads the current session, its actions and its revisions.
async function reloadSession() {
  const id = state.currentId;
  if (!id) return;
  const seq = ++state.loadSeq;
  const enc = encodeURIComponent(id);
  $("messages").setAttribute("aria-busy", "true");
  const [sess, ui, revs] = await Promise.allSettled([
    api("GET", `sessions/${enc}`),
    api("GET", `sessions/${enc}/ui-elements`),
    api("GET", `sessions/${enc}/revisions`),
  ]);
  if (seq !== state.loadSeq) return;
  $("messages").removeAttribute("aria-busy");
  if (sess.status === "rejected") {
    state.current = null;
    $("session-title").textContent = id;
    $("session-meta").textContent = "";
    clear($("messages"));
    showError($("outcome"), sess.reason, "session-error");
    $("compact-panel").hidden = true;
    $("compact-off").hidden = true;
    $("history-panel").hidden = true;
    return;
  }
  state.current = sess.value;
  state.actions = new Map();
  if (ui.status === "fulfilled") {
    for (const el of (ui.value && ui.value.ui_elements) || []) state.actions.set(el.id, el);
  }
  state.revisions = revs.status === "fulfilled" ? (revs.value && revs.value.revisions) || [] : [];
  // Drop range marks that no longer name a message.
  const ids = new Set(state.current.messages.map((m) => m.id));
  if (state.range.start && !ids.has(state.range.start)) state.range.start = "";
  if (state.range.end && !ids.has(state.range.end)) state.range.end = "";
  renderSession();
  renderTools(ui.status === "rejected" ? ui.reason : null);
  renderRevisions(revs.status === "rejected" ? revs.reason : null);
}

function renderSession() {
  const s = state.current;
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
  const s = state.current;
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

function isSummary(m) {
  if (m.role !== "user") return false;
  const first = (m.content || []).find((p) => p.type === "text");
  return !!first && first.text.startsWith(SUMMARY_PREFIX);
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
  if (summary) body.append(renderSummary(m));
  else renderParts(body, m.content || []);
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
  if (state.actions.has("compact_conversation")) {
    wrap.append(
      h(
        "div",
        { class: "range-buttons", role: "group", "aria-label": `Range marks for message ${n}` },
        h("button", { type: "button", class: "btn btn-tiny", "data-testid": "mark-start", "data-mark": "start", "aria-pressed": "false", "aria-label": `Start the range at message ${n}`, onclick: () => setRange("start", m.id) }, "Start"),
        h("button", { type: "button", class: "btn btn-tiny", "data-testid": "mark-end", "data-mark": "end", "aria-pressed": "false", "aria-label": `End the range at message ${n}`, onclick: () => setRange("end", m.id) }, "End"),
      ),
    );
  }
  if (state.actions.has("compact_up_to_here")) {
    const el = state.actions.get("compact_up_to_here");
    wrap.append(
      h(
        "button",
        {
          type: "button",
          class: "btn btn-small btn-action",
          "data-testid": "compact-up-to-here",
          "data-action-button": "",
          "aria-label": `${el.label || "Compact up to here"}: message ${n} and everything before it`,
          disabled: state.busy ? true : null,
          onclick: () => compactUpToHere(m.id),
        },
        el.label || "Compact up to here",
      ),
    );
  }
  return wrap;
}

// ---------------------------------------------------------------- parts

function renderParts(body, parts) {
  for (const p of parts) {
    switch (p.type) {
      case "text":
        body.append(textBlock(p.text));
        break;
      case "think":
        body.append(renderThink(p));
        break;
      case "image_url":
      case "audio_url":
      case "video_url":
        body.append(renderMedia(p));
        break;
      case "data":
        body.append(
          h("figure", { class: "data-part", "data-testid": "data-part" }, h("figcaption", { class: "part-label" }, "data"), h("pre", { class: "code" }, prettyJSON(p.data))),
        );
        break;
      default:
        body.append(h("figure", { class: "data-part" }, h("figcaption", { class: "part-label" }, String(p.type)), h("pre", { class: "code" }, prettyJSON(p))));
    }
  }
}

// textBlock shows text with its line breaks; long text is clipped, with a
// button to show it all.
function textBlock(text) {
  const div = h("div", { class: "text", "data-testid": "text-part" }, text);
  const lines = text.split("\n").length;
  if (text.length > 2400 || lines > 40) {
    div.classList.add("is-clipped");
    const btn = h("button", { type: "button", class: "btn btn-ghost btn-small", "aria-expanded": "false" }, `Show all (${plural(lines, "line")})`);
    btn.addEventListener("click", () => {
      const clipped = div.classList.toggle("is-clipped");
      btn.setAttribute("aria-expanded", String(!clipped));
      btn.textContent = clipped ? `Show all (${plural(lines, "line")})` : "Show less";
    });
    return h("div", { class: "text-wrap" }, div, btn);
  }
  return div;
}

function renderThink(p) {
  const n = [...(p.think || "")].length;
  return h(
    "details",
    { class: "think", "data-testid": "think" },
    h("summary", null, h("span", { class: "think-label" }, "thinking"), h("span", { class: "muted" }, ` ${plural(n, "character")}`), p.encrypted ? h("span", { class: "badge badge-quiet" }, "signed") : null),
    h("div", { class: "think-text" }, p.think || ""),
  );
}

function renderMedia(p) {
  const kind = p.type.replace("_url", "");
  const obj = p[p.type] || {};
  const raw = typeof obj.url === "string" ? obj.url : "";
  const src = safeURL(raw, kind);
  const link = safeURL(raw, "link");
  const caption = h(
    "figcaption",
    { class: "part-label" },
    kind,
    obj.id ? h("code", null, " " + obj.id) : null,
    " ",
    link ? h("a", { href: link, target: "_blank", rel: "noopener noreferrer" }, shortURL(raw)) : h("span", { class: "muted" }, shortURL(raw) || "(no url)"),
  );
  let media = null;
  if (src) {
    if (kind === "image") {
      media = h("img", { src, alt: obj.id ? `image ${obj.id}` : "image from the conversation", loading: "lazy", decoding: "async", "data-testid": "media-image" });
      if (link) media = h("a", { href: link, target: "_blank", rel: "noopener noreferrer", class: "thumb-link" }, media);
    } else if (kind === "audio") {
      media = h("audio", { src, controls: true, preload: "none", "data-testid": "media-audio" });
    } else {
      media = h("video", { src, controls: true, preload: "metadata", "data-testid": "media-video" });
    }
  } else if (raw) {
    media = h("p", { class: "muted" }, "This URL is not shown: its scheme is not http, https or a matching data URL.");
  }
  return h("figure", { class: `media media-${kind}`, "data-testid": "media", "data-kind": kind }, media, caption);
}

function renderToolCall(c, anchor) {
  const fn = c.function || {};
  const args = fn.arguments;
  const pretty = args === undefined || args === null ? "" : prettyJSON(args);
  return h(
    "details",
    { class: "tool-call", id: anchor, "data-testid": "tool-call", "data-call-id": c.id || "", open: pretty.length <= 600 ? true : null },
    h(
      "summary",
      null,
      h("span", { class: "part-label" }, "tool call"),
      " ",
      h("code", { class: "tool-name", "data-testid": "tool-call-name" }, fn.name || "(unnamed)"),
      " ",
      h("code", { class: "call-id" }, c.id || ""),
    ),
    pretty ? h("pre", { class: "code", "data-testid": "tool-call-args" }, pretty) : h("p", { class: "muted" }, "(no arguments)"),
    c.extras ? h("div", null, h("p", { class: "part-label" }, "extras"), h("pre", { class: "code" }, prettyJSON(c.extras))) : null,
  );
}

// ---------------------------------------------------------------- summary card

function summaryText(m) {
  const texts = (m.content || []).filter((p) => p.type === "text").map((p) => p.text);
  let all = texts.join("");
  all = all.slice(SUMMARY_PREFIX.length);
  return all.startsWith("\n") ? all.slice(1) : all;
}

// parseSummary splits a summary into its six sections. A section counts as
// present when both its opening and closing tags appear (the server's rule).
function parseSummary(text) {
  const sections = [];
  let rest = text;
  for (const [name, label] of SECTIONS) {
    const open = `<${name}>`;
    const close = `</${name}>`;
    const present = text.includes(open) && text.includes(close);
    let body = "";
    const a = text.indexOf(open);
    const b = a >= 0 ? text.indexOf(close, a + open.length) : -1;
    if (a >= 0 && b >= 0) {
      body = text.slice(a + open.length, b).replace(/^\s*\n/, "").replace(/\n\s*$/, "");
      rest = rest.replace(text.slice(a, b + close.length), "");
    }
    sections.push({ name, label, present, body });
  }
  return { sections, rest: rest.trim() };
}

function renderSummary(m) {
  const text = summaryText(m);
  const { sections, rest } = parseSummary(text);
  const remembered = state.lastMissing.get(state.currentId);
  const missing = remembered && remembered.summary === text ? new Set(remembered.missing) : new Set(sections.filter((s) => !s.present).map((s) => s.name));
  const card = h("div", { class: "summary-card", "data-testid": "summary-card", "data-missing": [...missing].join(" ") });
  card.append(h("p", { class: "summary-lead" }, "The earlier conversation was compacted into this summary."));
  if (missing.size) {
    card.append(
      h(
        "p",
        { class: "warn-line", "data-testid": "missing-sections" },
        h("span", { class: "badge badge-warn" }, "⚠ " + plural(missing.size, "section") + " missing"),
        " The model's summary lacks: ",
        [...missing].map((n, k) => [k ? ", " : "", h("code", null, n)]),
      ),
    );
  }
  const list = h("div", { class: "summary-sections" });
  for (const s of sections) {
    const isMissing = missing.has(s.name);
    list.append(
      h(
        "section",
        { class: "summary-section" + (isMissing ? " is-missing" : ""), "data-testid": "summary-section", "data-section": s.name, "data-missing": isMissing ? "true" : "false" },
        h(
          "h4",
          null,
          s.label,
          " ",
          h("code", { class: "section-tag" }, s.name),
          isMissing ? h("span", { class: "badge badge-warn", "data-testid": "missing-section", "data-section": s.name }, "⚠ missing") : null,
        ),
        isMissing && !s.body ? h("p", { class: "muted" }, "Not in the summary.") : h("div", { class: "text" }, s.body || "(empty)"),
      ),
    );
  }
  card.append(list);
  if (rest) card.append(h("section", { class: "summary-section summary-rest" }, h("h4", null, "Other text"), h("div", { class: "text" }, rest)));
  card.append(h("details", { class: "raw" }, h("summary", null, "Raw summary message"), h("pre", { class: "code" }, (m.content || []).filter((p) => p.type === "text").map((p) => p.text).join(""))));
  return card;
}

// ---------------------------------------------------------------- range

function setRange(which, id) {
  state.range[which] = state.range[which] === id ? "" : id;
  syncRangeSelects();
  markRange();
}

function indexOfId(id) {
  if (!state.current || !id) return -1;
  return state.current.messages.findIndex((m) => m.id === id);
}

function markRange() {
  const s = state.current;
  if (!s) return;
  const si = indexOfId(state.range.start);
  const ei = indexOfId(state.range.end);
  const active = si >= 0 || ei >= 0;
  const lo = si >= 0 ? si : 0;
  const hi = ei >= 0 ? ei : s.messages.length - 1;
  for (const art of document.querySelectorAll("#messages article.msg")) {
    const i = Number(art.dataset.index);
    art.classList.toggle("in-range", active && ei >= 0 && i >= lo && i <= hi);
    art.classList.toggle("range-start", i === si);
    art.classList.toggle("range-end", i === ei);
    const tag = art.querySelector("[data-range-tag]");
    if (tag) tag.textContent = [i === si ? "range start" : "", i === ei ? "range end" : ""].filter(Boolean).join(" · ");
    for (const b of art.querySelectorAll("[data-mark]")) {
      b.setAttribute("aria-pressed", String((b.dataset.mark === "start" ? si : ei) === i));
    }
  }
  const summary = $("range-summary");
  if (summary) {
    summary.textContent = !active ? "whole conversation" : `#${si >= 0 ? si + 1 : 1} to ${ei >= 0 ? "#" + (ei + 1) : "automatic end"}`;
    if (active) $("range-controls").open = true;
  }
  const problem = $("range-problem");
  problem.textContent = si >= 0 && ei >= 0 && si > ei ? "The start comes after the end: pick an end at or after the start." : "";
}

function fillRangeSelects() {
  const s = state.current;
  const start = clear($("range-start"));
  const end = clear($("range-end"));
  start.append(h("option", { value: "" }, "From the first message"));
  end.append(h("option", { value: "" }, "Automatic (keep recent messages)"));
  s.messages.forEach((m, i) => {
    if (!m.id) return;
    const label = `#${i + 1} ${isSummary(m) ? "summary" : m.role}: ${snippet(m, 36)}`;
    start.append(h("option", { value: m.id }, label));
    end.append(h("option", { value: m.id }, label));
  });
  syncRangeSelects();
}

function syncRangeSelects() {
  $("range-start").value = state.range.start;
  $("range-end").value = state.range.end;
}

// ---------------------------------------------------------------- tools panel

function renderTools(uiError) {
  const s = state.current;
  const panel = $("compact-panel");
  const off = $("compact-off");
  const any = state.actions.size > 0;
  panel.hidden = !any;
  off.hidden = any;
  if (any) {
    const conv = state.actions.get("compact_conversation");
    $("range-controls").hidden = !conv;
    const btn = $("compact-conversation");
    btn.hidden = !conv;
    if (conv) btn.textContent = conv.label || "Compact conversation";
    btn.disabled = !!state.busy;
    if (conv) fillRangeSelects();
    markRange();
  } else {
    const text = clear($("compact-off-text"));
    if (uiError) text.append(errorBox(uiError, "ui-elements-error"));
    else add(text, ["Compaction is not enabled for agent ", h("b", null, s.agent || "(none)"), ", so there is nothing to offer here."]);
  }
  $("history-panel").hidden = false;
}

// ---------------------------------------------------------------- revisions

async function loadRevisions() {
  const id = state.currentId;
  try {
    const data = await api("GET", `sessions/${encodeURIComponent(id)}/revisions`);
    if (id !== state.currentId) return;
    state.revisions = (data && data.revisions) || [];
    renderRevisions(null);
  } catch (e) {
    renderRevisions(e);
  }
}

function renderRevisions(err) {
  const slot = clear($("revisions-status"));
  if (err) slot.append(errorBox(err, "revisions-error"));
  const list = clear($("revision-list"));
  if (!state.revisions.length) {
    list.append(h("li", { class: "revision-empty" }, "No changes yet."));
    return;
  }
  for (const r of state.revisions) {
    list.append(
      h(
        "li",
        { class: "revision", "data-testid": "revision-item", "data-rev": r.rev, "data-kind": r.kind },
        h(
          "div",
          { class: "revision-text" },
          h("p", { class: "revision-head" }, h("span", { class: `badge badge-kind kind-${r.kind}` }, r.kind), " ", h("span", { class: "revision-no" }, "rev " + r.rev)),
          r.note ? h("p", { class: "revision-note" }, r.note) : null,
          h("p", { class: "revision-meta" }, timeEl(r.created_at), ` · ${plural(r.messages ?? 0, "message")} before`),
        ),
        h(
          "button",
          {
            type: "button",
            class: "btn btn-small",
            "data-testid": "restore",
            "data-action-button": "",
            disabled: state.busy ? true : null,
            "aria-label": `Restore revision ${r.rev}: put back the ${plural(r.messages ?? 0, "message")} from before this ${r.kind}`,
            onclick: (ev) => restoreRevision(r, ev.currentTarget),
          },
          "Restore",
        ),
      ),
    );
  }
}

async function restoreRevision(r, btn) {
  const id = state.currentId;
  btn.disabled = true;
  const slot = clear($("revisions-status"));
  slot.append(h("p", { class: "note" }, `Restoring revision ${r.rev}…`));
  try {
    const data = await api("POST", `sessions/${encodeURIComponent(id)}/revisions/${encodeURIComponent(r.rev)}/restore`, {});
    clear(slot);
    if (!state.busy) setProgress("");
    const n = data && data.session && data.session.messages ? data.session.messages.length : null;
    setOutcome(
      h(
        "div",
        { class: "outcome-card ok", "data-status": "restored" },
        h("p", { class: "outcome-title" }, "Restored revision " + r.rev),
        h("p", null, n === null ? "The messages from before that change are back." : `The session has its ${plural(n, "message")} from before that change again. This restore is in the history too, so it can be undone.`),
      ),
      "restored",
    );
    await Promise.all([reloadSession(), loadSessions()]);
  } catch (e) {
    showError(slot, e, "restore-error");
    btn.disabled = false;
  }
}

// ---------------------------------------------------------------- actions

function actionOptions() {
  const o = {};
  const instr = $("instructions").value;
  if (instr !== "") o.instructions = instr;
  if ($("preview-toggle").checked) o.preview = true;
  return o;
}

function compactConversation() {
  const body = actionOptions();
  if (state.range.start) body.start = state.range.start;
  if (state.range.end) body.end = state.range.end;
  runAction("compact_conversation", body);
}

function compactUpToHere(id) {
  runAction("compact_up_to_here", { message_id: id, ...actionOptions() });
}

function setBusy(busy) {
  state.busy = busy;
  for (const b of document.querySelectorAll("[data-action-button]")) b.disabled = !!busy;
  $("compact-conversation").disabled = !!busy;
  $("preview-apply").disabled = !!busy;
  $("cancel-action").hidden = !busy;
  $("activity").classList.toggle("is-busy", !!busy);
}

function setProgress(text, notes = []) {
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

function setOutcome(node, status) {
  const el = clear($("outcome"));
  el.dataset.status = status || "";
  if (node) el.append(node);
}

async function runAction(action, body) {
  if (state.busy) return;
  const sessionId = state.currentId;
  const ctrl = new AbortController();
  setBusy({ sessionId, ctrl });
  setOutcome(null, "running");
  hidePreview();
  const notes = [];
  let last = { attempt: 1, chars: 0 };
  setProgress(action === "compact_up_to_here" ? "Compacting up to the chosen message…" : "Compacting the conversation…");
  let outcome;
  try {
    let res;
    try {
      res = await fetch(apiURL(`sessions/${encodeURIComponent(sessionId)}/actions/${encodeURIComponent(action)}`), {
        method: "POST",
        headers: authHeaders({ Accept: "text/event-stream", "Content-Type": "application/json" }),
        body: JSON.stringify(body),
        signal: ctrl.signal,
        cache: "no-store",
      });
    } catch (e) {
      if (e.name === "AbortError") throw e;
      throw networkError(e);
    }
    if (res.status === 401) askForToken();
    const type = res.headers.get("Content-Type") || "";
    if (res.ok && type.startsWith("text/event-stream") && res.body) {
      for await (const ev of readSSE(res.body)) {
        if (ev.event === "progress") {
          try {
            last = JSON.parse(ev.data);
          } catch {
            continue;
          }
          if (last.waiting) {
            const note = `Attempt ${last.attempt}: ${last.waiting}`;
            if (notes[notes.length - 1] !== note) notes.push(note);
          }
          setProgress(progressText(last), notes);
        } else if (ev.event === "outcome") {
          try {
            outcome = JSON.parse(ev.data);
          } catch {
            outcome = { status: "error", error: { code: "internal", message: "The outcome could not be read.", fixes: [] } };
          }
        } else if (ev.event === "error") {
          let e = null;
          try {
            e = JSON.parse(ev.data);
          } catch {
            /* keep null */
          }
          outcome = { status: "error", error: (e && (e.error || e)) || { code: "internal", message: ev.data } };
        }
      }
      if (!outcome) {
        outcome = {
          status: "error",
          error: {
            code: "stream_ended",
            message: "The progress stream ended before the outcome arrived.",
            fixes: ["Reload the session to see whether it was compacted, then try again."],
          },
        };
      }
    } else {
      outcome = asOutcome(res.status, await readJSON(res));
    }
  } catch (e) {
    if (e.name === "AbortError") {
      outcome = { status: "cancelled" };
    } else {
      const err = e instanceof APIError ? e : networkError(e);
      outcome = { status: "error", error: { code: err.code, message: err.message, fixes: err.fixes } };
    }
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

async function handleOutcome(sessionId, o) {
  const here = sessionId === state.currentId;
  switch (o.status) {
    case "compacted": {
      const r = o.result || {};
      state.lastMissing.set(sessionId, { summary: r.summary ?? "", missing: r.missing_sections || [] });
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

// ---------------------------------------------------------------- preview

function showPreview(sessionId, o) {
  const summary = o.summary ?? (o.result && o.result.summary) ?? "";
  const missing = o.missing_sections ?? (o.result && o.result.missing_sections) ?? [];
  state.preview = { sessionId, id: o.preview_id, summary, missing };
  setOutcome(h("div", { class: "outcome-card info" }, h("p", { class: "outcome-title" }, "Preview ready"), h("p", null, "Nothing is written until you apply it.")), "preview");
  const sess = o.session || (o.result && o.result.session);
  const info = $("preview-info");
  info.textContent = sess && sess.messages ? `Applying it leaves the session with ${plural(sess.messages.length, "message")}. The preview can be applied once, within 30 minutes.` : "The preview can be applied once, within 30 minutes.";
  const miss = clear($("preview-missing"));
  if (missing.length) miss.append(h("p", { class: "warn-line", "data-testid": "preview-missing" }, h("span", { class: "badge badge-warn" }, "⚠ " + plural(missing.length, "section") + " missing"), " ", missing.join(", ")));
  $("preview-summary").value = summary;
  clear($("preview-status"));
  const sec = $("preview");
  sec.hidden = false;
  sec.scrollIntoView({ block: "start" });
  $("preview-summary").focus({ preventScroll: true });
}

function hidePreview() {
  state.preview = null;
  $("preview").hidden = true;
  $("preview-summary").value = "";
  clear($("preview-status"));
}

async function applyPreview() {
  const p = state.preview;
  if (!p || state.busy) return;
  const slot = clear($("preview-status"));
  slot.append(h("p", { class: "note" }, "Applying…"));
  $("preview-apply").disabled = true;
  const body = {};
  const edited = $("preview-summary").value;
  if (edited !== p.summary) body.summary = edited;
  let outcome;
  try {
    const res = await fetch(apiURL(`sessions/${encodeURIComponent(p.sessionId)}/previews/${encodeURIComponent(p.id)}/apply`), {
      method: "POST",
      headers: authHeaders({ Accept: "application/json", "Content-Type": "application/json" }),
      body: JSON.stringify(body),
      cache: "no-store",
    });
    if (res.status === 401) askForToken();
    outcome = asOutcome(res.status, await readJSON(res));
  } catch (e) {
    const err = networkError(e);
    outcome = { status: "error", error: { code: err.code, message: err.message, fixes: err.fixes } };
  }
  $("preview-apply").disabled = false;
  if (outcome.status === "error") {
    showError(slot, outcome.error, "preview-error");
    return;
  }
  hidePreview();
  await handleOutcome(p.sessionId, outcome);
}

// ---------------------------------------------------------------- continue

async function onContinue(ev) {
  ev.preventDefault();
  const input = $("continue-input");
  const content = input.value;
  if (!content.trim() || !state.currentId) return;
  const id = state.currentId;
  const slot = clear($("continue-status"));
  const send = $("continue-send");
  send.disabled = true;
  slot.append(h("p", { class: "note", "data-testid": "continue-waiting" }, h("span", { class: "spinner", "aria-hidden": "true" }), " Waiting for the agent's reply…"));
  try {
    await api("POST", `sessions/${encodeURIComponent(id)}/continue`, { content });
    input.value = "";
    clear(slot);
    if (id === state.currentId) {
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
    if (id === state.currentId && e instanceof APIError && e.status !== 0) {
      const before = state.current ? state.current.messages.length : 0;
      await Promise.all([reloadSession(), loadSessions()]);
      const msgs = state.current ? state.current.messages : [];
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

// ---------------------------------------------------------------- download

function downloadSession() {
  const s = state.current;
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

// ---------------------------------------------------------------- start

async function loadHealth() {
  try {
    const data = await api("GET", "health");
    if (data && data.version) $("server-version").textContent = "server " + data.version;
  } catch {
    /* the other calls report problems */
  }
}

async function loadAll() {
  await Promise.all([loadHealth(), loadAgents(), loadSessions()]);
  onRoute();
}

function init() {
  initToken();
  $("token-form").addEventListener("submit", onTokenSubmit);
  $("refresh-sessions").addEventListener("click", loadSessions);
  $("new-session-form").addEventListener("submit", onNewSession);
  $("import-button").addEventListener("click", () => $("import-input").click());
  $("import-input").addEventListener("change", onImportFile);
  $("reload-session").addEventListener("click", reloadSession);
  $("download-session").addEventListener("click", downloadSession);
  $("refresh-revisions").addEventListener("click", loadRevisions);
  $("compact-conversation").addEventListener("click", compactConversation);
  $("cancel-action").addEventListener("click", () => state.busy && state.busy.ctrl.abort());
  $("range-start").addEventListener("change", (e) => {
    state.range.start = e.target.value;
    markRange();
  });
  $("range-end").addEventListener("change", (e) => {
    state.range.end = e.target.value;
    markRange();
  });
  $("range-clear").addEventListener("click", () => {
    state.range = { start: "", end: "" };
    syncRangeSelects();
    markRange();
  });
  $("preview-apply").addEventListener("click", applyPreview);
  $("preview-discard").addEventListener("click", () => {
    hidePreview();
    setOutcome(h("div", { class: "outcome-card info" }, h("p", { class: "outcome-title" }, "Preview discarded"), h("p", null, "The session is unchanged.")), "discarded");
  });
  $("continue-form").addEventListener("submit", onContinue);
  $("continue-input").addEventListener("keydown", (e) => {
    if (e.key === "Enter" && (e.ctrlKey || e.metaKey)) {
      e.preventDefault();
      $("continue-form").requestSubmit();
    }
  });
  window.addEventListener("hashchange", onRoute);
  loadAll();
}

init();
