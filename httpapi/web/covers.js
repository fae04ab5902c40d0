// What each summary in the session covers, shown on its card with its
// Undo: the compaction revision that wrote it, found by walking the
// revisions from the newest (a summary's id first appears after the
// compaction that wrote it), with the messages it replaced, when, and the
// estimated tokens before and after; and its fidelity report, whose lost
// artifacts show their messages from the revision's message list.

import { clear, h, plural, timeEl } from "./dom.js";
import { call } from "./api.js";
import { job, models } from "./state.js";
import { on } from "./events.js";
import { estimateTokens } from "./estimate.js";
import { undoCompaction } from "./history.js";
import { fidelityReport } from "./fidelity.js";
import { messageAtIndex } from "./window.js";
import { isGatewaySession } from "./sessions.js";

// MAX_WALK bounds the revisions read to explain the summaries on screen.
const MAX_WALK = 12;

// pinnedKept is how many pinned messages a compaction kept after its
// summary, as its revision's note says ("compacted 2 messages, 1 pinned
// message kept"); 0 when it names none.
function pinnedKept(note) {
  const m = /([\d,]+) pinned messages? kept/.exec(note || "");
  return m ? Number(m[1].replaceAll(",", "")) : 0;
}

// goneAfterNewest: the indexes of before (the message list the newest
// revision keeps) that its compaction replaced by summary (at index at in
// the session now): the session has had only appends since, so the
// messages before the summary are before's first at, the pinned messages
// of the range follow the summary (note counts them: they stayed), and the
// message after them is the first that stayed after the replaced ones.
async function goneAfterNewest(before, at, note) {
  const indexOf = (m) => (m ? before.findIndex((b) => b.id === m.id) : -1);
  const pinned = pinnedKept(note);
  const stayed = new Set();
  for (let j = 1; j <= pinned; j++) stayed.add(indexOf(await messageAtIndex(at + j)));
  const k = indexOf(await messageAtIndex(at + 1 + pinned));
  const end = k > at ? k : before.length;
  return Array.from({ length: Math.max(0, end - at) }, (_, j) => at + j).filter((i) => !stayed.has(i));
}

// findCovers returns a Map from summary message id to
// {rev, created_at, count, first, last, before, after, fidelity, messages};
// first and last number the replaced messages in the session as it was
// before, which messages holds. wanted maps the summaries to find to their
// index in the session now. It reads revisions (the message lists before
// them), never the session.
async function findCovers(sessionId, revisions, wanted) {
  const covers = new Map();
  let after = null; // the message list after the revision, when read
  for (const r of revisions.slice(0, MAX_WALK)) {
    if (!wanted.size) break;
    const rev = await call("GET", `sessions/${encodeURIComponent(sessionId)}/revisions/${encodeURIComponent(r.rev)}`);
    const before = rev.before || [];
    if (r.kind === "compaction" || r.kind === "auto_compaction") {
      const had = new Set(before.map((m) => m.id));
      // A compaction writes one summary, the first message after it that
      // was not before it: a summary appended since is a copy, not its
      // own (a client that sends back the summary the gateway answered
      // its compaction with, in a message of its own that is stored).
      const wrote = after && after.find((m) => !had.has(m.id))?.id;
      for (const [id, at] of wanted) {
        if (had.has(id) || (after && id !== wrote)) continue;
        let gone = [];
        if (after) {
          const stays = new Set(after.map((m) => m.id));
          before.forEach((m, i) => stays.has(m.id) || gone.push(i));
        } else gone = await goneAfterNewest(before, at, r.note);
        // The newest compaction's, where only appends followed it: a
        // summary it would cover none of is such a copy.
        if (!gone.length) continue;
        const out = new Set(gone);
        const summary = after ? after.find((m) => m.id === id) : await messageAtIndex(at);
        covers.set(id, {
          rev: r.rev,
          auto: r.kind === "auto_compaction",
          created_at: r.created_at,
          count: gone.length,
          first: gone.length ? gone[0] + 1 : 0,
          last: gone.length ? gone[gone.length - 1] + 1 : 0,
          before: estimateTokens(before),
          // As the server counted it: what stayed, and the summary.
          after: estimateTokens([...before.filter((_, i) => !out.has(i)), summary]),
          fidelity: r.fidelity || null,
          messages: before,
        });
        wanted.delete(id);
      }
    }
    after = before;
  }
  return covers;
}

// known holds what the summaries of the session on screen cover, as its
// revisions say: {id, revisions, covers: Map(summary id -> cover or null)}.
let known = { id: "", revisions: [], covers: new Map() };
let walking = false;

// showCovers fills each summary card drawn with what it covers, and its
// Undo button; a card scrolled into the document later is filled then.
async function showCovers() {
  const slots = [...document.querySelectorAll("#messages [data-covers-for]:not([data-filled])")];
  if (!slots.length || walking) return;
  const st = known;
  const wanted = new Map(slots.filter((el) => !st.covers.has(el.dataset.coversFor)).map((el) => [el.dataset.coversFor, Number(el.closest("article.msg")?.dataset.index)]));
  if (wanted.size) {
    walking = true;
    let found = new Map();
    try {
      found = await findCovers(st.id, st.revisions, new Map(wanted));
    } catch {
      /* the cards still show the summary; the history panel has the revisions */
    } finally {
      walking = false;
    }
    if (st !== known) return showCovers();
    for (const id of wanted.keys()) st.covers.set(id, found.get(id) || null);
  }
  for (const slot of slots) if (slot.isConnected) fillSlot(slot, st.covers.get(slot.dataset.coversFor));
  if (document.querySelector("#messages [data-covers-for]:not([data-filled])")) showCovers();
}

// fillSlot says on a summary card what it covers (c), with its Undo.
function fillSlot(slot, c) {
  slot.dataset.filled = "";
  if (slot.nextElementSibling && slot.nextElementSibling.dataset.coversReport !== undefined) slot.nextElementSibling.remove();
  if (!c) {
    const from = isGatewaySession(known.id) ? "its client sent it through the gateway" : "it may have come with an import";
    clear(slot).append(h("span", { class: "muted", "data-testid": "summary-not-written" }, `No compaction in this session's recent history wrote it (${from}).`));
    return;
  }
  const model = models.get(slot.dataset.coversFor);
  clear(slot).append(
    h(
      "p",
      { class: "covers-text", "data-testid": "summary-covers" },
      `Covers ${plural(c.count, "message")}`,
      c.count ? ` (#${c.first}${c.last !== c.first ? "–#" + c.last : ""} before it ran)` : "",
      c.auto ? ", compacted automatically " : ", compacted ",
      timeEl(c.created_at),
      ` · estimated tokens ${c.before.toLocaleString()} → ${c.after.toLocaleString()}`,
      model ? [" · model ", h("code", null, model)] : null,
      ` · revision ${c.rev}`,
    ),
    h(
      "button",
      {
        type: "button",
        class: "btn btn-small",
        "data-testid": "summary-undo",
        "data-action-button": "",
        disabled: job.busy ? true : null,
        "aria-label": `Undo compaction ${c.rev}: put back the messages this summary replaced, keeping later ones`,
        onclick: (ev) => undoCompaction(c.rev, ev.currentTarget),
      },
      "Undo",
    ),
  );
  if (!c.fidelity) return;
  const report = fidelityReport(c.fidelity, { messages: c.messages, rev: c.rev });
  report.dataset.coversReport = "";
  slot.after(report);
}

// initCovers fills the summary cards of each session loaded, and of the
// messages drawn as the person scrolls.
export function initCovers() {
  on("session loaded", ({ id, revisions }) => {
    known = { id, revisions, covers: new Map() };
    for (const slot of document.querySelectorAll("#messages [data-covers-for][data-filled]")) delete slot.dataset.filled;
    showCovers();
  });
  on("messages rendered", showCovers);
}
