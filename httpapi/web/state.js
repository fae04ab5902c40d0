// The page's shared state, in one place. This module imports nothing: the
// panels read and change these objects, and tell each other through
// events.js when something changed.

// view is the session on screen.
export const view = {
  id: "",
  session: null, // the session's head: its listing entry (SessionInfo), at the version of its window; never its messages
  total: 0, // how many messages it has (window.js holds those near the screen)
  actions: new Map(), // ui element id -> element
  range: { start: "", end: "" },
  plan: null, // what Compact would do: the dry run's answer
  actionError: null, // the last action's failure, shown where it was started: {from, error, span}
};

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
