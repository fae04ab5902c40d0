// DOM helpers of kompact's web page. Untrusted text (messages, summaries,
// errors) only ever becomes text nodes: nothing here, nor in the modules
// that use it, sets HTML.

export const $ = (id) => document.getElementById(id);

// h builds an element. Strings among the children become text nodes.
export function h(tag, props, ...children) {
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

export function add(el, children) {
  for (const c of children.flat(Infinity)) {
    if (c === null || c === undefined || c === false) continue;
    el.append(c instanceof Node ? c : String(c));
  }
  return el;
}

export function clear(el) {
  el.replaceChildren();
  return el;
}

export function plural(n, one, many = one + "s") {
  return `${n.toLocaleString()} ${n === 1 ? one : many}`;
}

const dateFmt = new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "short" });
const relFmt = new Intl.RelativeTimeFormat(undefined, { numeric: "auto" });

function fmtTime(iso) {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? String(iso || "") : dateFmt.format(d);
}

export function relTime(iso) {
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

export function timeEl(iso, text) {
  return h("time", { datetime: iso, title: fmtTime(iso) }, text ?? fmtTime(iso));
}

// prettyJSON pretty-prints JSON text or a value; text that is not JSON is
// returned as it is.
export function prettyJSON(v) {
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
export function safeURL(url, kind) {
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

export function shortURL(url) {
  if (url.startsWith("data:")) return url.slice(0, 40) + (url.length > 40 ? "…" : "");
  return url.length > 80 ? url.slice(0, 77) + "…" : url;
}

export function errorBox(err, testid = "error") {
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

export function showError(slot, e, testid) {
  clear(slot);
  if (e && e.name === "AbortError") return;
  slot.append(errorBox(e && e.code ? e : { code: "error", message: String(e && e.message ? e.message : e) }, testid));
}

// confirmBox asks before a change: what it will do (lines, text or
// nodes), then a button to do it and one to leave things as they are.
export function confirmBox({ testid, title, lines, ok, onOk, onCancel }) {
  const box = h(
    "div",
    { class: "confirm-box", role: "alertdialog", "aria-label": title, "data-testid": testid },
    h("p", { class: "outcome-title" }, title),
    lines.map((l) => (l instanceof Node ? l : h("p", null, l))),
  );
  const yes = h("button", { type: "button", class: "btn btn-primary btn-small", "data-testid": testid + "-ok", onclick: () => onOk(box) }, ok);
  const no = h("button", { type: "button", class: "btn btn-small", "data-testid": testid + "-cancel", onclick: () => (box.remove(), onCancel && onCancel()) }, "Cancel");
  box.append(h("div", { class: "row" }, no, yes));
  queueMicrotask(() => yes.focus({ preventScroll: true }));
  return box;
}
