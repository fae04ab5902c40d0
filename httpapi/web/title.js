// The session's title in its header: rename it in place, or delete the
// session after a confirmation.

import { $, clear, showError } from "./dom.js";
import { view } from "./state.js";
import { on } from "./events.js";
import { askDelete, renameSession, sessionInfo } from "./sessions.js";

// showTitle puts the session's title (its id when it has none) in the
// header.
export function showTitle() {
  const info = sessionInfo(view.id);
  $("session-title").textContent = (info && info.title) || view.id;
}

function startRename() {
  const info = sessionInfo(view.id);
  $("rename-input").value = (info && info.title) || "";
  $("session-title").hidden = true;
  $("rename-form").hidden = false;
  $("rename-input").focus();
  $("rename-input").select();
}

function endRename() {
  $("rename-form").hidden = true;
  $("session-title").hidden = false;
}

async function saveRename(ev) {
  ev.preventDefault();
  const id = view.id;
  const slot = clear($("session-status"));
  try {
    await renameSession(id, $("rename-input").value.trim());
    endRename();
    if (id === view.id) showTitle();
  } catch (e) {
    showError(slot, e, "rename-error");
  }
}

// initTitle wires the header's Rename and Delete, and keeps the title as
// the session list has it (but not over a rename in progress).
export function initTitle() {
  on("sessions changed", () => {
    if (view.id && $("rename-form").hidden) showTitle();
  });
  $("rename-session").addEventListener("click", startRename);
  $("rename-cancel").addEventListener("click", endRename);
  $("rename-form").addEventListener("submit", saveRename);
  $("rename-input").addEventListener("keydown", (e) => {
    if (e.key === "Escape") {
      e.preventDefault();
      endRename();
    }
  });
  $("delete-session").addEventListener("click", () => askDelete(view.id, $("session-status")));
}
