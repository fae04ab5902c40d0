// What each summary in the session covers: the compaction revision that
// wrote it, found by walking the revisions from the newest (a summary's id
// first appears after the compaction that wrote it), with the messages it
// replaced, when, and the estimated tokens before and after.

import { call } from "./api.js";
import { estimateTokens } from "./estimate.js";

// MAX_WALK bounds the revisions read to explain the summaries on screen.
const MAX_WALK = 12;

// models remembers the model of compactions this page ran, by summary
// message id: the revisions do not record it.
export const models = new Map();

// findCovers returns a Map from summary message id to
// {rev, created_at, count, first, last, before, after}; first and last
// number the replaced messages in the session as it was before.
export async function findCovers(sessionId, session, revisions, summaryIds) {
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
        });
        wanted.delete(m.id);
      }
    }
    after = before;
  }
  return covers;
}
