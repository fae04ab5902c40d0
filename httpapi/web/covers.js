// What each summary in the session covers, shown on its card with its
// Undo: the compaction revision that wrote it, found by walking the
// revisions from the newest (a summary's id first appears after the
// compaction that wrote it), with the messages it replaced, when, and the
// estimated tokens before and after; and its fidelity report, whose lost
// artifacts show their messages from the revision's message list.

import { clear, h, plural, timeEl } from "./dom.js";
import { call } from "./api.js";
import { job, models, view } from "./state.js";
import { on } from "./events.js";
import { estimateTokens } from "./estimate.js";
import { undoCompaction } from "./history.js";
import { fidelityReport } from "./fidelity.js";

// MAX_WALK bounds the revisions read to explain the summaries on screen.
const MAX_WALK = 12;

// findCovers returns a Map from summary message id to
// {rev, created_at, count, first, last, before, after, fidelity, messages};
// first and last number the replaced messages in the session as it was
// before, which messages holds.
async function findCovers(sessionId, session, revisions, summaryIds) {
  const covers = new Map();
  const wanted = new Set(summaryIds);
  let after = session.messages;
  for (const r of revisions.slice(0, MAX_WALK)) {
    if (!wanted.size) break;
    const rev = await call("GET", `sessions/${encodeURIComponent(sessionId)}/revisions/${encodeURIComponent(r.rev)}`);
    const before = rev.before || [];
    if (r.kind === "compaction" || r.kind === "auto_compaction") {
      const had = new Set(before.map((m) => m.id));
      const stays = new Set(after.map((m) => m.id));
      const added = after.filter((m) => !had.has(m.id) && wanted.has(m.id));
      const gone = [];
      before.forEach((m, i) => stays.has(m.id) || gone.push(i));
      for (const m of added) {
        covers.set(m.id, {
          rev: r.rev,
          auto: r.kind === "auto_compaction",
          created_at: r.created_at,
          count: gone.length,
          first: gone.length ? gone[0] + 1 : 0,
          last: gone.length ? gone[gone.length - 1] + 1 : 0,
          before: estimateTokens(before),
          // As the server counted it: what stayed, and the summary.
          after: estimateTokens([...before.filter((b) => stays.has(b.id)), m]),
          fidelity: r.fidelity || null,
          messages: before,
        });
        wanted.delete(m.id);
      }
    }
    after = before;
  }
  return covers;
}

// showCovers fills each summary card's line about what it covers, and its
// Undo button.
async function showCovers({ id, revisions, stale }) {
  const slots = [...document.querySelectorAll("#messages [data-covers-for]")];
  if (!slots.length) return;
  let covers = new Map();
  try {
    covers = await findCovers(id, view.session, revisions, slots.map((el) => el.dataset.coversFor));
  } catch {
    /* the cards still show the summary; the history panel has the revisions */
  }
  if (stale()) return;
  for (const slot of slots) {
    const c = covers.get(slot.dataset.coversFor);
    if (!c) {
      clear(slot).append(h("span", { class: "muted" }, "No compaction in this session's recent history wrote it (it may have come with an import)."));
      continue;
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
    if (c.fidelity) slot.after(fidelityReport(c.fidelity, { messages: c.messages, rev: c.rev }));
  }
}

// initCovers fills the summary cards of each session loaded.
export function initCovers() {
  on("session loaded", showCovers);
}
