// kompact's web page. It talks only to the HTTP API under v1/
// (docs/http-api.md), through api.js; each panel of the page is a module.

import { $ } from "./dom.js";
import { call, initToken } from "./api.js";
import { initTokenForm } from "./token.js";
import { initSessions, loadAgents, loadSessions } from "./sessions.js";
import { onRoute } from "./route.js";
import { initConversation } from "./conversation.js";
import { initMenus } from "./menu.js";
import { loadFormat } from "./summary.js";
import { initRange } from "./range.js";
import { initCompaction } from "./compaction.js";
import { initPreview } from "./preview.js";
import { initHistory } from "./history.js";
import { initContinue } from "./continue.js";

async function loadHealth() {
  try {
    const data = await call("GET", "health");
    if (data && data.version) $("server-version").textContent = "server " + data.version;
  } catch {
    /* the other calls report problems */
  }
}

async function loadAll() {
  // The summary format first: the session view needs it to show summaries.
  await Promise.all([loadHealth(), loadAgents(), loadSessions(), loadFormat().catch(() => {})]);
  onRoute();
}

function init() {
  initToken();
  initTokenForm(loadAll);
  initSessions();
  initConversation();
  initMenus();
  initRange();
  initCompaction();
  initPreview();
  initHistory();
  initContinue();
  window.addEventListener("hashchange", onRoute);
  loadAll();
}

init();
