// The windowed conversation: only the messages near the screen are in the
// document (plus a margin), read from the paged route GET …/messages in
// windows of CHUNK as the person scrolls, both ways. Two spacers stand for
// the messages above and below, so the scroll bar stands for the whole
// session: their heights are estimates (the average height of the messages
// drawn so far), corrected as messages are drawn, and the message at the
// top of the screen stays where it is while they change.
//
// Messages are numbered by their 0-based index i in the session (the
// article's data-index; the page shows #i+1). conversation.js gives the
// function that draws one message (setRenderer); the other panels find
// messages through messageAt, indexOfId, locate and reveal.

import { $, h } from "./dom.js";
import { call } from "./api.js";
import { emit } from "./events.js";
import { view } from "./state.js";

// CHUNK is how many messages one read asks for (the route allows 500).
const CHUNK = 200;
// RENDER_MIN is how many messages at least stay drawn around the screen: a
// session that short is drawn whole. RENDER_MAX bounds them.
const RENDER_MIN = 128;
const RENDER_MAX = 400;
// FIRST_MIN is RENDER_MIN for the first drawing of a session opened, so
// that the screen's messages show first; the rest follow at once after.
const FIRST_MIN = 16;
// MARGIN is how many screens above and below the screen are drawn.
const MARGIN = 1.5;
// MAX_CACHED bounds the messages kept in memory; the farthest go first.
const MAX_CACHED = 4000;
// MAX_SPACE is the tallest the list is laid out (see scale).
const MAX_SPACE = 8_000_000;
// EST is the estimated height of a message never drawn, until one is.
const EST = 180;
// FOLLOW_MS is how long the latest message is kept in view after it was
// shown, while what is above it is measured (images load, fonts apply).
const FOLLOW_MS = 2000;

// The session the window shows is state.js's view: view.loaded names it
// ("" while one loads), and this module alone sets it, view.version and
// view.total (openWindow, closeWindow), all from one version of the session.

let list = null; // #messages
let top = null; // the spacers
let bottom = null;
let render = () => h("article"); // conversation.js: (message, index) -> the message's element
let gen = 0; // a new session or a reset: older answers are dropped
const msgs = new Map(); // index -> message
const items = new Map(); // index -> li drawn (a message, or a placeholder while it loads)
let stale = []; // the lis of the window before a reset: they stay until the next drawing replaces them
const heights = new Map(); // index -> measured height (px)
let sumH = 0;
let nH = 0;
// Two Fenwick trees over the indexes: the measured heights, and how many
// are measured, so that a message's offset costs O(log n) at any length.
let fenH = new Float64Array(1);
let fenN = new Float64Array(1);
let shown = { a: 0, b: -1 }; // the indexes drawn
const inflight = new Set(); // chunks being read
let least = RENDER_MIN; // RENDER_MIN, but FIRST_MIN until the first messages are painted
let target = null; // {i, block, resolve}: a message to bring into view once drawn
let follow = false; // keep the latest message in view while it settles (after showLatest)
let ownY = -1; // the scroll position window.js last set: another one is the person's

export function setRenderer(fn) {
  render = fn;
}

const avg = () => (nH ? sumH / nH : EST);

function fenAdd(t, i, v) {
  for (i++; i < t.length; i += i & -i) t[i] += v;
}

// fenSum is the sum of t over the indexes before i.
function fenSum(t, i) {
  let s = 0;
  for (i = Math.min(i, t.length - 1); i > 0; i -= i & -i) s += t[i];
  return s;
}

function setHeight(i, px) {
  const old = heights.get(i);
  if (old === px || i >= view.total) return;
  if (old === undefined) {
    nH++;
    fenAdd(fenN, i, 1);
  } else sumH -= old;
  heights.set(i, px);
  sumH += px;
  fenAdd(fenH, i, px - (old || 0));
}

// offsetOf is the estimated distance from the list's top to message i:
// the measured heights before it, and the average for the others.
function offsetOf(i) {
  const a = avg();
  return i * a + fenSum(fenH, i) - fenSum(fenN, i) * a;
}

// indexAt is the message at distance y from the list's top.
function indexAt(y) {
  let lo = 0;
  let hi = view.total - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (offsetOf(mid) <= y) lo = mid;
    else hi = mid - 1;
  }
  return Math.max(0, lo);
}

// messageAt is message i when it is read, else undefined.
export function messageAt(i) {
  return msgs.get(i);
}

// indexOfId is the index of the read message id, or -1.
export function indexOfId(id) {
  if (!id) return -1;
  for (const [i, m] of msgs) if (m.id === id) return i;
  return -1;
}

// messageAtIndex is message i: read already, else read now (one message);
// undefined past the end or when the read fails.
export async function messageAtIndex(i) {
  if (msgs.has(i) || !view.loaded || i < 0 || i >= view.total) return msgs.get(i);
  try {
    const ans = await readWindow(view.loaded, { offset: i, limit: 1 });
    return ans.version === view.version && ans.messages.length ? ans.messages[0].message : undefined;
  } catch {
    return undefined;
  }
}

// lastMessage is the session's last message when it is read (the tail is
// always kept), else undefined.
export function lastMessage() {
  return view.total ? msgs.get(view.total - 1) : undefined;
}

// sparseMessages is the session as a sparse array of total entries, the
// read messages in place (anchors.js reads it).
export function sparseMessages() {
  const arr = new Array(view.total);
  for (const [i, m] of msgs) if (i < view.total) arr[i] = m;
  return arr;
}

// drawnMessages lists the messages drawn, in order: [{i, m}].
export function drawnMessages() {
  const out = [];
  for (let i = shown.a; i <= shown.b; i++) if (msgs.has(i) && items.has(i)) out.push({ i, m: msgs.get(i) });
  return out;
}

// readWindow reads a window of session id: {version, total, offset,
// messages: [{number, message}]}.
export function readWindow(id, q) {
  return call("GET", `sessions/${encodeURIComponent(id)}/messages?${new URLSearchParams(q)}`);
}

// keep stores the messages of a window answer.
function keep(ans) {
  ans.messages.forEach((x) => msgs.set(x.number - 1, x.message));
  if (msgs.size > MAX_CACHED) evict();
}

// evict drops the read messages farthest from those drawn, but the first
// and the tail.
function evict() {
  const mid = (shown.a + shown.b) / 2;
  const far = [...msgs.keys()].filter((i) => i > 0 && i < view.total - CHUNK && (i < shown.a || i > shown.b)).sort((x, y) => Math.abs(y - mid) - Math.abs(x - mid));
  for (const i of far.slice(0, msgs.size - MAX_CACHED / 2)) msgs.delete(i);
}

// readTail reads the latest messages of session id, guessing its length
// (the listing's count); a wrong guess costs a second read.
async function readTail(id, guess) {
  let ans = await readWindow(id, { offset: Math.max(0, guess - CHUNK), limit: CHUNK });
  if (ans.offset + ans.messages.length < ans.total || (!ans.messages.length && ans.total)) {
    ans = await readWindow(id, { offset: Math.max(0, ans.total - CHUNK), limit: CHUNK });
  }
  return ans;
}

// READS_AGREE is how many times load reads a session whose version moved
// between its parallel reads before it keeps only the latest one's.
const READS_AGREE = 3;

// load reads session id for the window, in parallel: its tail, its first
// message, and the window around message at when given (null when the
// session has no such message). The three reads agree on one version: when
// the session changed between them, it reads them again, and after
// READS_AGREE tries keeps only the reads of the latest version (the others
// are read later, as the screen needs them). It throws what the reads
// throw (a 404 for a session gone).
async function load(id, guess, at) {
  for (let n = 1; ; n++) {
    const [tail, first, around] = await Promise.all([
      readTail(id, guess),
      readWindow(id, { offset: 0, limit: 1 }),
      at ? readWindow(id, { around: at, limit: CHUNK }).catch((e) => (e.status === 404 ? null : Promise.reject(e))) : null,
    ]);
    const reads = [tail, first, around].filter(Boolean);
    const version = Math.max(...reads.map((r) => r.version));
    const agree = reads.every((r) => r.version === version);
    if (agree || n >= READS_AGREE) {
      const of = (r) => (r && r.version === version ? r : null);
      return { version, total: reads.find((r) => r.version === version).total, tail: of(tail), first: of(first), around: of(around) };
    }
    guess = tail.total;
  }
}

// reset empties the window for session id (keeping the average height).
function reset(id) {
  gen++;
  view.loaded = id;
  msgs.clear();
  heights.clear();
  if (nH) {
    sumH = avg() * Math.min(nH, 20);
    nH = Math.min(nH, 20);
  }
  inflight.clear();
  target = null;
  stale.push(...items.values());
  items.clear();
  shown = { a: 0, b: -1 };
}

// openWindow (re)loads session id into the window: guess is its message
// count if known, at a message id to show (else the latest). It answers
// {version, total, found, at}: found says whether at was found, at its
// index. A failed read throws.
export async function openWindow(id, { guess = 0, at = "" } = {}) {
  const g = ++gen;
  const got = await load(id, guess, at);
  if (g !== gen) return null;
  reset(id);
  view.version = got.version;
  view.total = got.total;
  fenH = new Float64Array(view.total + 1);
  fenN = new Float64Array(view.total + 1);
  for (const r of [got.first, got.tail, got.around]) if (r) keep(r);
  ensureList();
  least = FIRST_MIN;
  const i = got.around ? indexOfId(at) : -1;
  return { version: view.version, total: view.total, found: i >= 0, at: i };
}

// dropStale takes the lis of the window before a reset out of the list,
// and says whether there were any.
function dropStale() {
  for (const li of stale) li.remove();
  const had = stale.length > 0;
  stale = [];
  return had;
}

// closeWindow empties the list.
export function closeWindow() {
  reset("");
  dropStale();
  view.total = 0;
  view.version = 0;
  follow = false;
  if (list) list.replaceChildren();
}

function ensureList() {
  list = $("messages");
  if (!top || top.parentNode !== list) {
    top = h("li", { class: "messages-spacer", "aria-hidden": "true", "data-spacer": "top" });
    bottom = h("li", { class: "messages-spacer", "aria-hidden": "true", "data-spacer": "bottom" });
    list.replaceChildren(top, bottom);
  }
  list.classList.add("is-windowed");
}

// scale is how much the spacers shrink the estimated heights: a browser
// lays out no page taller than about 33 million pixels (Chromium), so
// past MAX_SPACE the spacers stand for the messages out of the document
// in proportion; those drawn keep their height.
function scale() {
  const all = offsetOf(view.total);
  return all > MAX_SPACE ? MAX_SPACE / all : 1;
}

// estimateAt is the estimated offset (offsetOf's scale) of y, a distance
// from the list's top in the document.
function estimateAt(y) {
  const k = scale();
  const listTop = list.getBoundingClientRect().top;
  const topH = top.getBoundingClientRect().height;
  const drawnEnd = bottom.getBoundingClientRect().top - listTop;
  if (y < topH || shown.b < shown.a) return y / k;
  if (y < drawnEnd) return offsetOf(shown.a) + (y - topH);
  return offsetOf(shown.b + 1) + (y - drawnEnd) / k;
}

// placeOf is where message i is in the document: its distance from the
// list's top (drawn, else estimated).
function placeOf(i) {
  const listTop = list.getBoundingClientRect().top;
  const li = items.get(i);
  if (li) return li.getBoundingClientRect().top - listTop;
  const k = scale();
  if (shown.b < shown.a || i < shown.a) return offsetOf(i) * k;
  return bottom.getBoundingClientRect().top - listTop + (offsetOf(i) - offsetOf(shown.b + 1)) * k;
}

// range is what to draw: the messages within MARGIN screens of the screen
// (of the target, while one is on its way), at least RENDER_MIN of them.
function range() {
  const vh = window.innerHeight;
  const y0 = -list.getBoundingClientRect().top;
  let mid = target ? target.i : indexAt(estimateAt(y0 + vh / 2));
  let a = target ? Math.max(0, mid - RENDER_MIN / 2) : indexAt(estimateAt(y0) - MARGIN * vh);
  let b = target ? mid + RENDER_MIN / 2 : indexAt(estimateAt(y0 + vh) + MARGIN * vh);
  if (b - a + 1 < least) {
    a = Math.max(0, mid - least / 2);
    b = a + least - 1;
  }
  b = Math.min(view.total - 1, b, a + RENDER_MAX - 1);
  a = Math.max(0, Math.min(a, b - least + 1));
  return { a, b };
}

function placeholder(i) {
  const li = h("li", { class: "messages-item is-loading", "data-placeholder": "", "data-index": i }, h("p", { class: "muted msg-loading" }, `Loading #${(i + 1).toLocaleString()}…`));
  li.style.height = avg() + "px";
  return li;
}

function itemOf(i) {
  return h("li", { class: "messages-item", "data-index": i }, render(msgs.get(i), i));
}

// anchorNow is the first message drawn whose bottom is on screen, with
// its top: what must not move while the spacers change.
function anchorNow() {
  for (let i = shown.a; i <= shown.b; i++) {
    const li = items.get(i);
    if (!li) continue;
    const r = li.getBoundingClientRect();
    if (r.bottom > 0) return { i, top: r.top };
  }
  return null;
}

// draw puts messages a..b into the list (reusing those drawn), measures
// them, sizes the spacers, and keeps the anchor in place. It says whether
// the messages drawn changed.
function draw(a, b) {
  const anchor = anchorNow();
  let changed = dropStale();
  for (const [i, li] of items) {
    if (i < a || i > b || (li.dataset.placeholder !== undefined && msgs.has(i))) {
      li.remove();
      items.delete(i);
      changed = true;
    }
  }
  let prev = top;
  for (let i = a; i <= b; i++) {
    let li = items.get(i);
    if (!li) {
      li = msgs.has(i) ? itemOf(i) : placeholder(i);
      items.set(i, li);
      prev.after(li);
      changed = true;
    } else if (li.dataset.placeholder !== undefined) li.style.height = avg() + "px";
    prev = li;
  }
  shown = { a, b };
  for (const [i, li] of items) if (li.dataset.placeholder === undefined) setHeight(i, li.offsetHeight);
  const k = scale();
  top.style.height = offsetOf(a) * k + "px";
  bottom.style.height = Math.max(0, offsetOf(view.total) - offsetOf(b + 1)) * k + "px";
  if (anchor && items.has(anchor.i)) keepAnchor(anchor, offsetOf(a) * k);
  return changed;
}

// keepAnchor puts the anchor's message back where it was: the page
// scrolls by the whole pixels it moved, and the top spacer (topH high)
// takes the fraction that is left, which a scroll cannot.
function keepAnchor(anchor, topH) {
  const el = items.get(anchor.i);
  let d = el.getBoundingClientRect().top - anchor.top;
  if (Math.abs(d) >= 1) {
    window.scrollBy(0, Math.round(d));
    d = el.getBoundingClientRect().top - anchor.top;
  }
  if (Math.abs(d) > 0.001 && topH - d >= 0) top.style.height = topH - d + "px";
}

// fetchMissing reads the chunks of a..b not read yet, then draws again.
function fetchMissing(a, b) {
  for (let i = a; i <= b; i++) {
    if (msgs.has(i)) continue;
    const k = Math.floor(i / CHUNK);
    i = (k + 1) * CHUNK - 1;
    if (inflight.has(k)) continue;
    inflight.add(k);
    const g = gen;
    const id = view.loaded;
    readWindow(id, { offset: k * CHUNK, limit: CHUNK })
      .then((ans) => {
        if (g !== gen) return;
        inflight.delete(k);
        if (ans.version !== view.version) {
          emit("window stale", id); // conversation.js reloads it
          return;
        }
        keep(ans);
        layout();
      })
      .catch(() => g === gen && inflight.delete(k));
  }
}

// layout draws what the screen needs now, and brings the target into view
// once it is drawn.
export function layout() {
  if (!list || !view.loaded) return;
  if (follow && Math.abs(window.scrollY - ownY) > 2) follow = false; // scrolled by another hand since

  if (!view.total) {
    if (items.size) reset(view.loaded);
    dropStale();
    return;
  }
  let { a, b } = range();
  let changed = draw(a, b);
  if (target && msgs.has(target.i) && items.has(target.i)) {
    const t = target;
    target = null; // the range follows the screen again
    for (let k = 0; k < 3 && items.has(t.i); k++) {
      items.get(t.i).scrollIntoView({ block: t.block });
      ({ a, b } = range());
      changed = draw(a, b) || changed;
    }
    items.get(t.i)?.scrollIntoView({ block: t.block });
    t.resolve(items.get(t.i)?.querySelector("article") || null);
  }
  if (follow) stickToLatest();
  ownY = window.scrollY;
  if (least < RENDER_MIN && !target) {
    // After this paint, draw the rest of the margin.
    least = RENDER_MIN;
    requestAnimationFrame(() => setTimeout(layout, 0));
  }
  fetchMissing(a, b);
  if (changed) emit("messages rendered");
}

function stickToLatest() {
  const li = items.get(view.total - 1);
  if (!li) return;
  const r = li.getBoundingClientRect();
  if (Math.abs(r.bottom - window.innerHeight) > 1 && offsetOf(view.total) > window.innerHeight) window.scrollBy(0, r.bottom - window.innerHeight);
}

// revealIndex brings message i into view (block as scrollIntoView's) once
// it is read and drawn, and answers its article (null when the window
// moved on meanwhile).
export function revealIndex(i, block = "center") {
  if (!list || i < 0 || i >= view.total) return Promise.resolve(null);
  follow = false;
  if (target) target.resolve(null);
  return new Promise((resolve) => {
    target = { i, block, resolve };
    const listTop = list.getBoundingClientRect().top + window.scrollY;
    const vh = window.innerHeight;
    const at = placeOf(i) - (block === "end" ? vh - avg() : block === "center" ? vh / 2 : 0);
    window.scrollTo(0, Math.max(0, listTop + at));
    layout();
  });
}

// locate finds message id's index: read already, else asked of the server
// (a window around it, kept); -1 when the session has no such message.
export async function locate(id) {
  const i = indexOfId(id);
  if (i >= 0 || !view.loaded) return i;
  const g = gen;
  try {
    const ans = await readWindow(view.loaded, { around: id, limit: CHUNK });
    if (g !== gen || ans.version !== view.version) return -1;
    keep(ans);
    return indexOfId(id);
  } catch {
    return -1;
  }
}

// reveal brings the message ref into view: a message id, or "#N" for the
// N-th; it answers its article, or null when the session has none.
export async function reveal(ref, block = "center") {
  const m = /^#(\d+)$/.exec(ref);
  const i = m ? Number(m[1]) - 1 : await locate(ref);
  return i >= 0 && i < view.total ? revealIndex(i, block) : null;
}

// showLatest brings the latest messages into view and keeps them there
// while they are measured (as a chat client opens); a session shorter
// than the screen shows from its top.
export async function showLatest() {
  if (!view.total) return;
  await revealIndex(view.total - 1, "end");
  follow = offsetOf(view.total) > window.innerHeight;
  ownY = window.scrollY;
  setTimeout(() => (follow = false), FOLLOW_MS);
  if (!follow) $("session-view").scrollIntoView({ block: "start" });
}

// latestBelow says whether the latest message is below the screen.
export function latestBelow() {
  if (!view.total) return false;
  const li = items.get(view.total - 1);
  if (!li) return true;
  return li.getBoundingClientRect().bottom > window.innerHeight + 40;
}

// latestArticle is the latest message's element, when drawn.
export function latestArticle() {
  return items.get(view.total - 1)?.querySelector("article") || null;
}

// firstVisible is the id of the first message on screen, and its top.
export function firstVisible() {
  const a = anchorNow();
  const m = a && msgs.get(a.i);
  return m && m.id ? { id: m.id, top: a.top } : null;
}

const onFrame = []; // what runs after the window follows a scroll or a resize

// afterScroll runs fn on each frame the page scrolled or was resized in,
// after the window followed it.
export function afterScroll(fn) {
  onFrame.push(fn);
}

// initWindow follows the scrolling.
export function initWindow() {
  let queued = false;
  const onScroll = () => {
    if (queued) return;
    queued = true;
    requestAnimationFrame(() => {
      queued = false;
      layout();
      for (const fn of onFrame) fn();
    });
  };
  window.addEventListener("scroll", onScroll, { passive: true });
  window.addEventListener("resize", onScroll, { passive: true });
}
