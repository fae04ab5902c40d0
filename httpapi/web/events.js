// A tiny publish/subscribe: a panel says what happened, and the panels
// that care subscribe in their init functions (app.js calls them). This
// module imports nothing. Subscribers run in the order they subscribed.
//
// The events, who emits them, and with what:
//   "route changed"     route.js: the address names session id ("" for none)
//   "session switched"  conversation.js: another session (id) is on screen, not loaded yet
//   "session loaded"    conversation.js: the session on screen was (re)loaded and drawn:
//                       {id, uiError, revisions, failures, revisionsError, stale()}
//   "session shown"     conversation.js: a switch to session id is done (loaded, scrolled)
//   "messages rendered" window.js: messages were drawn or taken out of the document (as the person scrolls)
//   "window stale"      window.js: a window read found the session on screen changed (its id): reload it
//   "sessions changed"  sessions.js: the session list is drawn again
//   "run ended"         sessions.js: the server no longer runs an action this page did not start on session id
//   "range changed"     range.js: the compaction range (view.range) changed
//   "preview changed"   preview.js: a preview was shown or hidden
//   "preview applied"   preview.js: a preview was applied: {sessionId, outcome}
//   "previews changed"  preview.js, openpreviews.js: the server's previews of session id changed (discarded, gone)

const NAMES = [
  "route changed",
  "session switched",
  "session loaded",
  "session shown",
  "messages rendered",
  "window stale",
  "sessions changed",
  "run ended",
  "range changed",
  "preview changed",
  "preview applied",
  "previews changed",
];

const subscribers = new Map(NAMES.map((name) => [name, []]));

function listOf(name) {
  const list = subscribers.get(name);
  if (!list) throw new Error(`events: no event named "${name}"`);
  return list;
}

// on subscribes fn to the event name.
export function on(name, fn) {
  listOf(name).push(fn);
}

// emit calls the subscribers of the event name with data, in order.
export function emit(name, data) {
  for (const fn of listOf(name)) fn(data);
}
