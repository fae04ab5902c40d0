// The open previews of the session on screen: the proposed summaries the
// server still keeps (GET …/previews), so that leaving the session or
// reloading the page does not lose one. Each says what it replaces and
// until when it can be applied, and reopens in the preview panel.

import { $, clear, h, plural } from "./dom.js";
import { call } from "./api.js";
import { job, preview, view } from "./state.js";
import { emit, on } from "./events.js";
import { loadSessions } from "./sessions.js";
import { GONE, clockTime, showPreview } from "./preview.js";

let list = []; // the open previews of view.id, as the server listed them
let listSeq = 0; // guards against late answers after a switch
// After a switch the list is brought into view once, when it is loaded
// and the session is shown (which scrolls to the latest messages).
const reveal = { wanted: false, loaded: false, shown: false };

// loadOpenPreviews asks the server for the open previews of the session on
// screen and shows them.
async function loadOpenPreviews() {
  const id = view.id;
  const seq = ++listSeq;
  let got = [];
  try {
    const data = await call("GET", `sessions/${encodeURIComponent(id)}/previews`);
    got = (data && data.previews) || [];
  } catch {
    got = []; // the session's own load reports a failure
  }
  if (seq !== listSeq || id !== view.id) return;
  list = got;
  render();
  reveal.loaded = true;
  revealOnce();
}

// revealOnce brings the list into view after a switch, unless a preview
// is on screen.
function revealOnce() {
  if (!reveal.wanted || !reveal.loaded || !reveal.shown) return;
  reveal.wanted = false;
  if (!$("open-previews").hidden && !(preview.pending && preview.pending.sessionId === view.id)) $("open-previews").scrollIntoView({ block: "nearest" });
}

// shown are the listed previews still to offer: not expired, and not the
// one in the preview panel.
function shown() {
  const now = Date.now();
  const onScreen = preview.pending && preview.pending.sessionId === view.id ? preview.pending.id : "";
  return list.filter((p) => p.preview_id !== onScreen && !(Date.parse(p.expires_at) <= now));
}

// spanOf: "#2–#21 (20 messages)".
function spanOf(p) {
  return `${p.first === p.last ? `#${p.first}` : `#${p.first}–#${p.last}`} (${plural(p.compacted_messages, "message")})`;
}

function render() {
  const box = $("open-previews");
  const items = clear($("open-preview-list"));
  const open = shown();
  box.hidden = open.length === 0;
  for (const p of open) {
    if (p.gateway) {
      items.append(
        h(
          "li",
          { class: "open-preview open-preview-gateway", "data-testid": "open-preview", "data-preview-id": p.preview_id, "data-gateway": "true" },
          h("p", { class: "open-preview-text", "data-testid": "open-preview-text" }, `The gateway's precomputed summary replaces ${spanOf(p)}, until ${clockTime(p.expires_at)}: the gateway applies it by itself when the conversation reaches the trigger. Nothing to review.`),
        ),
      );
      continue;
    }
    items.append(
      h(
        "li",
        { class: "open-preview", "data-testid": "open-preview", "data-preview-id": p.preview_id, "data-stale": p.stale ? "true" : "false" },
        h("p", { class: "open-preview-text", "data-testid": "open-preview-text" }, `A summary to review replaces ${spanOf(p)}, until ${clockTime(p.expires_at)}.`),
        p.stale
          ? h("p", { class: "open-preview-stale", "data-testid": "open-preview-stale" }, "The session changed since it was made: applying it keeps the messages added since; a change to the messages it replaces or keeps makes it fail.")
          : null,
        h("button", { type: "button", class: "btn btn-small btn-primary", "data-action-button": "", "data-testid": "open-preview-reopen", disabled: job.busy ? true : null, onclick: () => reopen(p) }, "Review it"),
      ),
    );
  }
}

// reopen asks the server for preview p again and shows it in the preview
// panel; one the server no longer has is said to be gone.
async function reopen(p) {
  const id = view.id;
  const status = clear($("open-previews-status"));
  let o;
  try {
    o = await call("GET", `sessions/${encodeURIComponent(id)}/previews/${encodeURIComponent(p.preview_id)}`);
  } catch (e) {
    if (id !== view.id) return;
    status.append(h("p", { class: "field-problem", "data-testid": "open-preview-gone" }, e.status === 404 ? GONE : e.message));
    if (e.status === 404) emit("previews changed", id);
    return;
  }
  if (id !== view.id) return;
  const preserved = (o.result && o.result.preserved_messages) || 0;
  showPreview(id, o, { first: p.first, last: p.last, total: p.last + preserved }, p.expires_at);
}

// initOpenPreviews follows the session on screen: its previews are asked
// for each time it is loaded, and again when one was discarded or is gone.
export function initOpenPreviews() {
  on("session switched", () => {
    listSeq++;
    list = [];
    Object.assign(reveal, { wanted: true, loaded: false, shown: false });
    clear($("open-previews-status"));
    render();
  });
  on("session loaded", loadOpenPreviews);
  on("session shown", () => {
    reveal.shown = true;
    revealOnce();
  });
  on("preview changed", render);
  on("previews changed", (id) => {
    loadSessions();
    if (id === view.id) loadOpenPreviews();
  });
}
