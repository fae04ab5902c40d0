// The HTTP API (docs/http-api.md): one request function, which sends the
// token and reports a 401, the JSON and outcome calls built on it, and the
// Server-Sent Events reader.

const TOKEN_KEY = "kompact.token";

let token = "";
let unauthorized = () => {};

// initToken takes the token from the session storage, or from ?token= in
// the address, which it then removes from the address bar.
export function initToken() {
  try {
    token = sessionStorage.getItem(TOKEN_KEY) || "";
  } catch {
    token = "";
  }
  const url = new URL(location.href);
  const t = url.searchParams.get("token");
  if (t !== null) {
    setToken(t);
    // Keep the token out of the address bar, history and bookmarks.
    url.searchParams.delete("token");
    history.replaceState(history.state, "", url.pathname + url.search + url.hash);
  }
}

// setToken uses t from now on, and keeps it for this browser tab.
export function setToken(t) {
  token = t;
  try {
    sessionStorage.setItem(TOKEN_KEY, t);
  } catch {
    /* storage may be off; the token still works for this page */
  }
}

// hasToken reports whether the page sends a token.
export function hasToken() {
  return token !== "";
}

// onUnauthorized sets what a 401 answer does.
export function onUnauthorized(fn) {
  unauthorized = fn;
}

// APIError is an error body ({code, message, fixes}) with its status; 0
// for a server that cannot be reached.
export class APIError extends Error {
  constructor(status, body) {
    const b = status === 401 ? unauthorizedBody() : body && typeof body === "object" ? body : {};
    super(b.message || `The server answered ${status}.`);
    this.status = status;
    this.code = b.code || (status ? `http_${status}` : "network");
    this.fixes = Array.isArray(b.fixes) ? b.fixes : [];
  }
}

// unauthorizedBody is a 401 answer in the page's words: the server's own
// message speaks of HTTP headers, which a person in a browser never sets.
function unauthorizedBody() {
  return {
    code: "unauthorized",
    message: token ? "The server refused the access token this page sent." : "This server needs an access token.",
    fixes: ["Enter the token in the Access token box at the top of the page: the one kompact serve was started with (its --token flag or $KOMPACT_TOKEN)."],
  };
}

function networkError(e) {
  return new APIError(0, {
    code: "network",
    message: "The kompact server cannot be reached: " + (e && e.message ? e.message : e),
    fixes: ["Check that `kompact serve` is still running, then reload the page."],
  });
}

// request sends one API call and returns the response. body is sent as
// JSON (raw: as it is). A server that cannot be reached throws an
// APIError; a 401 answer also calls the unauthorized handler.
async function request(method, path, { body, raw = false, accept = "application/json", signal } = {}) {
  const headers = { Accept: accept };
  if (token) headers.Authorization = "Bearer " + token;
  let payload;
  if (body !== undefined) {
    headers["Content-Type"] = "application/json";
    payload = raw ? body : JSON.stringify(body);
  }
  let res;
  try {
    res = await fetch("v1/" + path, { method, headers, body: payload, signal, cache: "no-store" });
  } catch (e) {
    if (e.name === "AbortError") throw e;
    throw networkError(e);
  }
  if (res.status === 401) unauthorized();
  return res;
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

// call sends an API call and returns the decoded JSON answer (null for
// none). An error answer throws an APIError.
export async function call(method, path, body, opts) {
  return (await callWithHeaders(method, path, body, opts)).data;
}

// callWithHeaders is call that also returns the answer's headers:
// {data, headers}.
export async function callWithHeaders(method, path, body, { raw = false, signal } = {}) {
  const res = await request(method, path, { body, raw, signal });
  const data = await readJSON(res);
  if (!res.ok) throw new APIError(res.status, data);
  return { data, headers: res.headers };
}

// outcome posts to an action or a preview's apply route and returns the
// outcome (docs/http-api.md). With onProgress it asks for Server-Sent
// Events and hands it each progress report. Failures become error
// outcomes; only a cancellation (signal) throws, an AbortError.
export async function outcome(path, body, { signal, onProgress } = {}) {
  try {
    const res = await request("POST", path, { body, signal, accept: onProgress ? "text/event-stream" : "application/json" });
    const type = res.headers.get("Content-Type") || "";
    if (onProgress && res.ok && type.startsWith("text/event-stream") && res.body) return await outcomeEvents(res.body, onProgress);
    return asOutcome(res.status, await readJSON(res));
  } catch (e) {
    if (e.name === "AbortError") throw e;
    return errorOutcome(e instanceof APIError ? e : networkError(e));
  }
}

function errorOutcome(e) {
  return { status: "error", error: { code: e.code, message: e.message, fixes: e.fixes || [] } };
}

// asOutcome turns a JSON answer of an action route into an outcome: error
// bodies (a bad request, a missing token) become error outcomes.
function asOutcome(status, data) {
  if (data && typeof data.status === "string") return data;
  if (status >= 200 && status < 300) return errorOutcome({ code: "internal", message: "The server's answer has no outcome." });
  return errorOutcome(new APIError(status, data));
}

// outcomeEvents reads the progress events, then the outcome event.
async function outcomeEvents(body, onProgress) {
  for await (const ev of readSSE(body)) {
    if (ev.event === "progress") {
      let p;
      try {
        p = JSON.parse(ev.data);
      } catch {
        continue;
      }
      onProgress(p);
    } else if (ev.event === "outcome") {
      try {
        return JSON.parse(ev.data);
      } catch {
        return errorOutcome({ code: "internal", message: "The outcome could not be read." });
      }
    }
  }
  return errorOutcome({
    code: "stream_ended",
    message: "The progress stream ended before the outcome arrived.",
    fixes: ["Reload the session to see whether it was compacted, then try again."],
  });
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
