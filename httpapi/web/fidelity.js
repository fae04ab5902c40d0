// The fidelity report of a compaction (result.fidelity, or the fidelity
// of the revision that wrote a summary; docs/fidelity.md): how many of the
// artifacts of the replaced messages the summary kept, per class, and the
// lost ones grouped by class, each leading to the message it came from.
// Collapsed by default: its summary line says "Kept 31 of 57 artifacts".

import { add, h, plural } from "./dom.js";
import { renderParts, renderToolCall } from "./parts.js";
import { indexOfId, messageAt, reveal as revealRef } from "./window.js";

// CLASSES: the classes in the server's order, with their names for people
// (in a line, and as a heading).
const CLASSES = [
  ["path", "paths", "Paths"],
  ["command", "commands", "Commands"],
  ["error", "errors", "Errors"],
  ["url", "URLs", "URLs"],
  ["identifier", "identifiers", "Identifiers"],
  ["todo", "TODO items", "TODO items"],
];

const percent = (r) => (r >= 1 ? "100%" : `${Math.floor(r * 100)}%`);

// keptText: "kept 31 of 57 artifacts", "kept all 3 artifacts", "no
// artifacts".
export function keptText(f) {
  if (!f.artifacts) return "no artifacts";
  if (f.kept === f.artifacts) return f.artifacts === 1 ? "kept the one artifact" : `kept all ${f.artifacts.toLocaleString()} artifacts`;
  return `kept ${f.kept.toLocaleString()} of ${plural(f.artifacts, "artifact")}`;
}

const capital = (s) => s[0].toUpperCase() + s.slice(1);

// classesText: "paths 10/20 · commands 2/9 · errors 5/5", the classes with
// artifacts.
function classesText(f) {
  return CLASSES.filter(([c]) => f.classes && f.classes[c] && f.classes[c].artifacts)
    .map(([c, name]) => `${name} ${f.classes[c].kept}/${f.classes[c].artifacts}`)
    .join(" · ");
}

// notSentText says what not_sent means, or "" for none.
function notSentText(f) {
  if (!f.not_sent) return "";
  const n = f.not_sent;
  return `${plural(n, "artifact")} appeared only in parts the compaction request does not send (tool-call arguments, reasoning, data and media parts, messages left out to fit the context window): the model never saw ${n === 1 ? "it" : "them"}.`;
}

// appendixText gives both figures when kompact appended the
// preserved_artifacts section, or "" without one.
function appendixText(f) {
  const a = f.appendix;
  if (!a) return "";
  const sent = f.artifacts - f.not_sent;
  return `The model's own summary kept ${a.model_sent_kept.toLocaleString()} of the ${sent.toLocaleString()} sent to it (${percent(a.model_sent_recall)}), ${a.model_kept.toLocaleString()} of ${f.artifacts.toLocaleString()} in all (${percent(a.model_recall)}); kompact appended ${plural(a.lines, "line")} of lost artifacts (preserved_artifacts), which brings it to ${f.kept.toLocaleString()} (${percent(f.recall)}).`;
}

// summaryLine is the report's line, its children: the model's figure on
// what it was sent first ("Kept 9 of the 10 artifacts sent to the model
// (90%)"), then how many were not sent, then the figures in all; with the
// appendix, the model's own summary's figure leads and the final one
// follows. Every part is text or nothing: never a "null".
function summaryLine(f) {
  if (!f.artifacts) return [h("span", { class: "fidelity-counts", "data-testid": "fidelity-counts" }, "No artifacts to keep in the replaced messages")];
  const sent = f.artifacts - (f.not_sent || 0);
  const a = f.appendix;
  const kept = a ? a.model_sent_kept : f.sent_kept;
  const r = a ? a.model_sent_recall : f.sent_recall;
  let lead;
  if (!sent) lead = `None of the ${plural(f.artifacts, "artifact")} was sent to the model`;
  else if (a) lead = `The model's summary kept ${kept.toLocaleString()} of the ${plural(sent, "artifact")} sent to it`;
  else lead = kept === sent ? (sent === 1 ? "Kept the one artifact sent to the model" : `Kept all ${sent.toLocaleString()} artifacts sent to the model`) : `Kept ${kept.toLocaleString()} of the ${plural(sent, "artifact")} sent to the model`;
  const line = [h("span", { class: "fidelity-counts", "data-testid": "fidelity-counts" }, lead)];
  if (sent) line.push(h("span", { class: "muted" }, ` (${percent(r)})`));
  if (f.not_sent && sent) line.push(h("span", { class: "muted", "data-testid": "fidelity-not-sent-count" }, ` · ${f.not_sent.toLocaleString()} not sent`));
  if (f.not_sent || a) line.push(h("span", { class: "muted", "data-testid": "fidelity-in-all" }, ` · ${a ? "with the appendix, " : ""}${f.kept.toLocaleString()} of ${f.artifacts.toLocaleString()} in all`));
  if (f.artifacts > f.kept) line.push(h("span", { class: "muted" }, ` · ${(f.artifacts - f.kept).toLocaleString()} lost`));
  if (a) line.push(" ", h("span", { class: "badge badge-quiet" }, "appendix"));
  return line;
}

// fidelityReport builds the report of f; messages is the list the lost
// artifacts' messages are in, which numbers them. For a preview (rev 0)
// it is null, the session on screen (window.js): a lost artifact scrolls to its message
// and marks it. For a committed summary it is the message list of
// revision rev, the one that wrote it: a lost artifact shows its message
// from there in a small view under it.
export function fidelityReport(f, { messages = null, rev = 0, testid = "fidelity" } = {}) {
  const box = h("details", { class: "fidelity", "data-testid": testid, "data-recall": f.recall, "data-sent-recall": f.sent_recall });
  box.append(h("summary", null, ...summaryLine(f)));
  const body = h("div", { class: "fidelity-body" });
  // add, not append: the DOM's append writes a null child as "null".
  add(body, [
    h("p", { class: "fidelity-intro" }, "Artifacts are the paths, commands, errors, URLs, identifiers and TODO items of the messages the summary replaces; one is kept when its text is in the summary."),
    f.artifacts ? h("p", { class: "fidelity-classes", "data-testid": "fidelity-classes" }, capital(classesText(f))) : null,
    f.appendix ? h("p", { "data-testid": "fidelity-appendix" }, appendixText(f)) : null,
    f.not_sent ? h("p", { class: "fidelity-not-sent", "data-testid": "fidelity-not-sent" }, notSentText(f)) : null,
    f.pinned
      ? h("p", { "data-testid": "fidelity-pinned" }, `The pinned messages, kept verbatim after the summary, hold ${plural(f.pinned, "artifact")}; one they share with the summarised messages counts as kept.`)
      : null,
  ]);
  const lost = f.lost || [];
  for (const [c, , many] of CLASSES) {
    const items = lost.filter((a) => a.class === c);
    if (!items.length) continue;
    const cf = (f.classes && f.classes[c]) || { artifacts: items.length, kept: 0 };
    body.append(
      h(
        "section",
        { class: "fidelity-class", "data-testid": "fidelity-class", "data-class": c },
        h("h5", null, `${many}: ${(cf.artifacts - cf.kept).toLocaleString()} lost of ${cf.artifacts.toLocaleString()}`),
        h("ul", { class: "lost-list" }, items.map((a) => lostItem(a, messages, rev))),
      ),
    );
  }
  if (lost.length < f.artifacts - f.kept) body.append(h("p", { class: "muted" }, `The ${lost.length.toLocaleString()} best-ranked lost artifacts are listed (user-stated first, then the most recent).`));
  box.append(body);
  return box;
}

// lostItem is one lost artifact: its text, which leads to its message,
// where it came from, and whether the model saw it.
function lostItem(a, messages, rev) {
  const found = find(messages, a.message);
  const li = h("li", { class: "lost-item", "data-testid": "lost-item", "data-class": a.class, "data-message": a.message, "data-sent": String(a.sent) });
  const go = h(
    "button",
    {
      type: "button",
      class: "link-button lost-link",
      "data-testid": "lost-link",
      title: rev ? "Show the message it came from, as it was before the compaction" : "Go to the message it came from",
    },
    h("code", null, a.text),
  );
  go.addEventListener("click", () => (rev ? showStored(li, found, a, rev) : reveal(li, a)));
  li.append(go, h("span", { class: "lost-from", title: "message " + a.message }, found ? ` in #${found.n} (${found.msg.role})` : ` in ${a.message}`));
  if (!a.sent) li.append(" ", h("span", { class: "badge badge-quiet", title: "It appeared only in parts the request does not send" }, "not sent"));
  return li;
}

// find returns the message ref names in list, and its 1-based number:
// ref is a message id, or "#N" for a message without one. Without a list,
// it is the session on screen, as far as it is read.
function find(list, ref) {
  const m = /^#(\d+)$/.exec(ref);
  if (!list) {
    const i = m ? Number(m[1]) - 1 : indexOfId(ref);
    return messageAt(i) ? { msg: messageAt(i), n: i + 1 } : null;
  }
  const i = m ? Number(m[1]) - 1 : list.findIndex((x) => x.id === ref);
  return i >= 0 && i < list.length ? { msg: list[i], n: i + 1 } : null;
}

// reveal scrolls to the message of a in the session on screen (reading
// it when it is far from the screen) and marks it; its tool calls open
// when a was not sent (it may be in their arguments).
async function reveal(li, a) {
  li.querySelector(".lost-missing")?.remove();
  const art = await revealRef(a.message, "center");
  if (!art) {
    li.append(h("span", { class: "lost-missing muted" }, " (this message is no longer in the session)"));
    return;
  }
  for (const old of document.querySelectorAll("#messages article.msg.is-target")) old.classList.remove("is-target");
  if (!a.sent) for (const d of art.querySelectorAll("details.tool-call, details.think")) d.open = true;
  art.classList.add("is-target");
  art.setAttribute("tabindex", "-1");
  art.focus({ preventScroll: true });
}

// showStored shows, under li, the message of a as the revision before the
// compaction holds it; another click on the same item hides it.
function showStored(li, found, a, rev) {
  const report = li.closest(".fidelity");
  const open = report.querySelector('[data-testid="lost-message"]');
  const same = open && open.dataset.for === li.dataset.message + "\n" + a.text;
  if (open) open.remove();
  if (same) return;
  const view = h("div", { class: "lost-message", "data-testid": "lost-message", "data-for": li.dataset.message + "\n" + a.text, tabindex: "-1" });
  if (!found) {
    view.append(h("p", { class: "muted" }, `Message ${a.message} is not in revision ${rev}.`));
  } else {
    const { msg, n } = found;
    const close = h("button", { type: "button", class: "btn btn-ghost btn-small", "data-testid": "lost-message-close" }, "Close");
    close.addEventListener("click", () => view.remove());
    const body = h("div", { class: "msg-body" });
    const parts = typeof msg.content === "string" ? [{ type: "text", text: msg.content }] : msg.content || [];
    renderParts(body, parts, { mono: msg.role === "tool" });
    (msg.tool_calls || []).forEach((c) => body.append(renderToolCall(c, null)));
    if (!body.childNodes.length) body.append(h("p", { class: "muted" }, "(no content)"));
    view.append(
      h(
        "p",
        { class: "lost-message-head" },
        h("span", { class: `badge role-badge role-badge-${msg.role}` }, msg.role),
        ` #${n}`,
        msg.id ? [" ", h("code", { class: "msg-id" }, msg.id)] : null,
        h("span", { class: "muted" }, ` · before the compaction (revision ${rev})`),
        " ",
        close,
      ),
      body,
    );
  }
  li.append(view);
  view.focus({ preventScroll: true });
  view.scrollIntoView({ block: "nearest" });
}

// editedNote says that an edited preview's figures are the proposed
// summary's; shown or cleared in slot.
export function editedNote(slot, edited) {
  const had = slot.querySelector('[data-testid="fidelity-edited"]');
  if (!edited) {
    if (had) had.remove();
    return;
  }
  if (!had) slot.append(h("p", { class: "hint", "data-testid": "fidelity-edited" }, "You edited the summary: these figures are for the proposed one. Applying measures your text again."));
}
