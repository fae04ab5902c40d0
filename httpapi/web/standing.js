// The session's standing instructions (docs/compaction.md#standing-instructions):
// the header's "Standing instructions…" form that sets, edits or clears
// them (PATCH …/settings), the header's mark that they are set, and the
// compact panel's note that every compaction adds them.

import { $, clear, showError } from "./dom.js";
import { view } from "./state.js";
import { on } from "./events.js";
import { sessionHead, sessionInfo, updateSettings } from "./sessions.js";
import { reloadSession } from "./conversation.js";

// standingOf is session id's standing instructions as the session list
// has them ("" for none).
function standingOf(id) {
  const info = sessionInfo(id);
  return (info && info.instructions) || "";
}

// showStanding marks, in the header and the compact panel, whether the
// session on screen has standing instructions; the text is the mark's
// tooltip and is quoted in the panel.
function showStanding() {
  const text = view.id ? standingOf(view.id) : "";
  const mark = $("session-instructions");
  if (mark) {
    mark.textContent = text ? "instructions set" : "";
    if (text) mark.title = text;
    else mark.removeAttribute("title");
  }
  const note = clear($("standing-note"));
  if (text) note.append("This session's standing instructions are added too, before these: “", text, "”");
}

// listedStanding is session id's instructions: from the session list, or,
// when a search keeps the session out of it, from the server's listing.
async function listedStanding(id) {
  const info = await sessionHead(id);
  return (info && info.instructions) || "";
}

async function openForm() {
  const id = view.id;
  let text;
  try {
    text = await listedStanding(id);
  } catch (e) {
    showError($("session-status"), e, "standing-error");
    return;
  }
  if (id !== view.id) return;
  $("standing-input").value = text;
  clear($("standing-status"));
  $("standing-form").hidden = false;
  $("standing-session").setAttribute("aria-expanded", "true");
  $("standing-input").focus();
}

function closeForm(refocus) {
  $("standing-form").hidden = true;
  $("standing-session").setAttribute("aria-expanded", "false");
  clear($("standing-status"));
  if (refocus) $("standing-session").focus();
}

// save sends text as the session's instructions ("" clears them) and
// loads the session again (its version went up, and the plan may differ);
// the server's refusal (a text too long) shows under the form.
async function save(text) {
  const id = view.id;
  const form = $("standing-form");
  form.querySelectorAll("button").forEach((b) => (b.disabled = true));
  try {
    await updateSettings(id, { instructions: text });
    if (id === view.id) {
      closeForm(true);
      reloadSession();
    }
  } catch (e) {
    if (id === view.id) showError($("standing-status"), e, "standing-error");
  } finally {
    form.querySelectorAll("button").forEach((b) => (b.disabled = false));
  }
}

// initStanding wires the form and keeps the marks as the session list has
// them; another session on screen closes the form.
export function initStanding() {
  on("sessions changed", showStanding);
  on("session loaded", showStanding);
  on("session switched", () => closeForm(false));
  $("standing-session").addEventListener("click", () => ($("standing-form").hidden ? openForm() : closeForm(true)));
  $("standing-cancel").addEventListener("click", () => closeForm(true));
  $("standing-clear").addEventListener("click", () => save(""));
  $("standing-form").addEventListener("submit", (ev) => {
    ev.preventDefault();
    save($("standing-input").value);
  });
  $("standing-form").addEventListener("keydown", (e) => {
    if (e.key === "Escape") {
      e.preventDefault();
      e.stopPropagation();
      closeForm(true);
    }
  });
}
