// The page's shared state, in one place. This module imports nothing: the
// panels read and change these objects, and tell each other through
// events.js when something changed.

// view is the session on screen, its one owner: the page shows one
// version of it. id is the session the address names; window.js sets
// loaded (the session whose messages it holds, "" while one loads), version
// and total, from reads that agree on one version, and holds the messages
// near the screen.
export const view = {
  id: "",
  loaded: "",
  version: 0,
  total: 0, // how many messages it has
  session: null, // the session's head: its listing entry (SessionInfo), read with the window (reloadSession); never its messages
  actions: new Map(), // ui element id -> element
  range: { start: "", end: "" },
  plan: null, // what Compact would do: the dry run's answer
  actionError: null, // the last action's failure, shown where it was started: {from, error, span}
};

// offersRange says whether the agent of the session on screen compacts a
// range (start and end): its type's compact_conversation takes them (a
// kimi-code agent's compacts whole sessions only).
export function offersRange() {
  const conv = view.actions.get("compact_conversation");
  return !!conv && (conv.params || []).some((p) => p.name === "start");
}

// job holds the running actions, one per session at most, and what the
// last outcomes said. Progress and Cancel belong to the session that runs
// the action: job.busy is the run of the session on screen.
export const job = {
  runs: new Map(), // session id -> run (see runAction in compaction.js)
  lastMissing: new Map(), // session id -> {summary, missing} from the last outcome
  previews: new Map(), // session id -> {outcome, span}: a preview that arrived while another session was on screen
  get busy() {
    return this.runs.get(view.id) || null;
  },
};

// preview.pending is the preview on screen: {sessionId, id, summary,
// missing, otherChars, span}, or null; span is the range it replaces
// ({first, last, total}), when known.
export const preview = { pending: null };

// models remembers the model of compactions this page ran, by summary
// message id: the revisions do not record it.
export const models = new Map();
