// The menu of a message: one button per message (one tab stop), whose
// menu holds the range marks, Pin or Unpin (pins.js) and "Compact up to
// here". The menu is built
// when it opens, and closes on Escape, Tab, a choice or a click elsewhere.

import { h } from "./dom.js";
import { job, offersRange, view } from "./state.js";
import { on } from "./events.js";
import { setRange } from "./range.js";
import { compactUpToHere } from "./compaction.js";
import { upToHere } from "./anchors.js";
import { isPinned, setPin } from "./pins.js";
import { messageAt, sparseMessages } from "./window.js";

let open = null; // {wrap, button, menu}

// addMenus puts the menu button of each message drawn into its header's
// slot (.msg-actions), once.
function addMenus() {
  for (const art of document.querySelectorAll("#messages article.msg")) {
    const i = Number(art.dataset.index);
    const wrap = art.querySelector(".msg-head > .msg-actions");
    const m = messageAt(i);
    if (wrap && m && !wrap.querySelector(".msg-menu-button")) messageMenu(wrap, m, i);
  }
}

// messageMenu puts the menu button of message m, the i-th, into wrap; none
// for a message without id or when the agent offers no compaction.
function messageMenu(wrap, m, i) {
  if (!m.id || !view.actions.size) return;
  const button = h(
    "button",
    {
      type: "button",
      class: "btn btn-tiny msg-menu-button",
      "data-testid": "message-menu",
      "aria-haspopup": "menu",
      "aria-expanded": "false",
      "aria-label": `Actions for message ${i + 1}`,
    },
    "⋯",
  );
  button.addEventListener("click", () => (open && open.button === button ? closeMenu(true) : openMenu(wrap, button, m, i)));
  button.addEventListener("keydown", (e) => {
    if (e.key === "ArrowDown" && !open) {
      e.preventDefault();
      openMenu(wrap, button, m, i);
    }
  });
  wrap.append(button);
}

function items(m, i) {
  const n = i + 1;
  const out = [];
  if (offersRange()) {
    out.push(item("mark-start", view.range.start === m.id ? `Clear the range start` : `Start the range at #${n}`, () => setRange("start", m.id, i)));
    out.push(item("mark-end", view.range.end === m.id ? `Clear the range end` : `End the range at #${n}`, () => setRange("end", m.id, i)));
  }
  if (view.actions.has("compact_conversation")) {
    // A leading system message always stays: pinning it would change nothing.
    const pinned = isPinned(m.id);
    if (i > 0 || m.role !== "system") out.push(item("pin-toggle", pinned ? `Unpin #${n}` : `Pin #${n}: every compaction keeps it verbatim`, () => setPin(m.id, !pinned)));
  }
  // Only where the server would compact: not at the leading system
  // message or a lone summary, and never between a tool call and its
  // result (anchors.js); there the menu offers the next whole cut.
  const msgs = view.actions.has("compact_up_to_here") ? sparseMessages() : null;
  const at = msgs ? upToHere(msgs, i) : null;
  if (at) {
    const el = view.actions.get("compact_up_to_here");
    const label = el.label || "Compact up to here";
    const span = at.first === at.last ? `#${at.last}` : `#${at.first}–#${at.last}`;
    const target = msgs[at.index];
    const text = at.separated ? `Compact up to #${at.last} instead (${span}): the tool call in #${at.separated.call + 1} keeps its results` : `${label} (${span})`;
    const it = item("compact-up-to-here", text, () => compactUpToHere(target.id, at, m.id));
    it.dataset.anchor = target.id;
    if (at.separated) it.title = `Up to #${n} would keep the result in #${at.separated.result + 1} without its tool call in #${at.separated.call + 1}.`;
    if (job.busy) it.setAttribute("aria-disabled", "true");
    out.push(it);
  }
  return out;
}

function item(testid, label, run) {
  const el = h("button", { type: "button", role: "menuitem", class: "menu-item", tabindex: "-1", "data-testid": testid }, label);
  el.addEventListener("click", () => {
    if (el.getAttribute("aria-disabled") === "true") return;
    closeMenu(true);
    run();
  });
  return el;
}

function openMenu(wrap, button, m, i) {
  closeMenu(false);
  const list = items(m, i);
  if (!list.length) return;
  const menu = h("div", { class: "msg-menu", role: "menu", "aria-label": `Message ${i + 1}`, "data-testid": "message-menu-list" }, list);
  menu.addEventListener("keydown", (e) => onMenuKey(e, list));
  wrap.append(menu);
  button.setAttribute("aria-expanded", "true");
  open = { wrap, button, menu };
  list[0].focus();
}

// closeMenu closes the open menu; focus goes back to its button when asked.
export function closeMenu(refocus) {
  if (!open) return false;
  const { button, menu } = open;
  open = null;
  menu.remove();
  button.setAttribute("aria-expanded", "false");
  if (refocus) button.focus();
  return true;
}

function onMenuKey(e, list) {
  const at = list.indexOf(document.activeElement);
  if (e.key === "ArrowDown" || e.key === "ArrowUp") {
    e.preventDefault();
    const next = (at + (e.key === "ArrowDown" ? 1 : -1) + list.length) % list.length;
    list[next].focus();
  } else if (e.key === "Home" || e.key === "End") {
    e.preventDefault();
    list[e.key === "Home" ? 0 : list.length - 1].focus();
  } else if (e.key === "Escape") {
    e.preventDefault();
    e.stopPropagation();
    closeMenu(true);
  } else if (e.key === "Tab") {
    closeMenu(false);
  }
}

// initMenus adds the menus to the messages each time they are drawn, and
// closes the open menu on a click elsewhere.
export function initMenus() {
  on("messages rendered", addMenus);
  document.addEventListener("click", (e) => {
    if (open && !open.wrap.contains(e.target)) closeMenu(false);
  });
}
