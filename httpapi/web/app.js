// kompact's web page. It talks only to the HTTP API under v1/
// (docs/http-api.md), through api.js; each panel of the page is a module.
// The panels share state.js and tell each other what happened through
// events.js; this module starts them, and no panel imports one that
// imports it back (webimports_internal_test.go checks).

import { $ } from "./dom.js";
import { call, initToken } from "./api.js";
import { initTokenForm } from "./token.js";
import { closeSessionsPanel, initSessions, loadAgents, loadSessions } from "./sessions.js";
import { onRoute } from "./route.js";
import { initConversation } from "./conversation.js";
import { closeMenu, initMenus } from "./menu.js";
import { loadFormat } from "./summary.js";
import { initRange } from "./range.js";
import { cancelRun, initCompaction } from "./compaction.js";
import { initPreview } from "./preview.js";
import { initOpenPreviews } from "./openpreviews.js";
import { initHistory } from "./history.js";
import { initCovers } from "./covers.js";
import { initContinue } from "./continue.js";
import { initTitle } from "./title.js";
import { initStanding } from "./standing.js";
import { initPins } from "./pins.js";
import { initPrune } from "./prune.js";

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

// The skip links move the focus without touching the address, whose hash
// names the session on screen.
function initSkipLinks() {
  for (const a of document.querySelectorAll(".skip-link")) {
    a.addEventListener("click", (e) => {
      const target = $(a.getAttribute("href").slice(1));
      if (!target || target.hidden) return;
      e.preventDefault();
      target.focus({ preventScroll: true });
      target.scrollIntoView({ block: "start" });
    });
  }
}

// Escape closes an open menu first, then the session list opened over the
// page, else cancels the running action.
function initEscape() {
  document.addEventListener("keydown", (e) => {
    if (e.key !== "Escape" || e.defaultPrevented) return;
    if (closeMenu(true)) return;
    if (closeSessionsPanel(true)) return;
    if (cancelRun()) e.preventDefault();
  });
}

// init starts the panels; the order of the init calls is the order in which
// their subscribers run.
function init() {
  initToken();
  initTokenForm(loadAll);
  initSessions();
  initSkipLinks();
  initConversation();
  initMenus();
  initRange();
  initCompaction();
  initEscape();
  initPreview();
  initOpenPreviews();
  initHistory();
  initCovers();
  initContinue();
  initTitle();
  initStanding();
  initPins();
  initPrune();
  window.addEventListener("hashchange", onRoute);
  loadAll();
}

init();
