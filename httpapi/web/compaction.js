// The compaction panel: the actions a session's agent offers, their
// progress while they run, and their outcome.

import { $, add, clear, errorBox, h, plural } from "./dom.js";
import { outcome as postAction } from "./api.js";
import { job, models, offersRange, preview, view } from "./state.js";
import { on } from "./events.js";
import { loadSessions, renderSessions, sessionInfo } from "./sessions.js";
import { reloadSession } from "./conversation.js";
import { fillRangeSelects, markRange } from "./range.js";
import { hidePreview, showPreview } from "./preview.js";
import { setOutcome, setProgress } from "./outcome.js";
import { approx } from "./estimate.js";
import { isSummary, summaryText } from "./summary.js";
import { keptText } from "./fidelity.js";
import { reveal } from "./window.js";

function renderTools(uiError) {
  const s = view.session;
  const panel = $("compact-panel");
  const off = $("compact-off");
  const any = view.actions.size > 0;
  panel.hidden = !any;
  off.hidden = any;
  if (any) {
    const conv = view.actions.get("compact_conversation");
    $("range-controls").hidden = !offersRange();
    const btn = $("compact-conversation");
    btn.hidden = !conv;
    if (conv) btn.textContent = conv.label || "Compact conversation";
    btn.disabled = !!job.busy || runsElsewhere() || !view.total;
    if (conv) fillRangeSelects();
    markRange();
    refreshPlan();
  } else {
    const text = clear($("compact-off-text"));
    if (uiError) text.append(errorBox(uiError, "ui-elements-error"));
    else add(text, ["Compaction is not enabled for agent ", h("b", null, s.agent || "(none)"), ", so there is nothing to offer here."]);
  }
  $("history-panel").hidden = false;
}

let planSeq = 0;

// refreshPlan asks the server what Compact would do now (a dry run: the
// range is chosen exactly as the action chooses it, without an LLM call),
// says it in the panel, and marks the messages it would replace and keep.
async function refreshPlan() {
  const s = view.session;
  if (!s || !view.actions.has("compact_conversation")) return;
  const seq = ++planSeq;
  const id = view.id;
  let plan;
  if (!view.total) {
    plan = { status: "dry_run", noop: true, reason: "the session has no messages" };
  } else {
    const body = { dry_run: true };
    if (view.range.start) body.start = view.range.start;
    if (view.range.end) body.end = view.range.end;
    plan = await postAction(`sessions/${encodeURIComponent(id)}/actions/compact_conversation`, body);
    if (seq !== planSeq || id !== view.id) return;
  }
  view.plan = plan;
  renderPlan();
}

// renderPlan says in the panel what Compact would do, or, while a run of
// this session or its preview is on screen, the range that one replaces
// (a "Compact up to here" or a range, not the automatic plan), and marks
// the messages accordingly.
function renderPlan() {
  const line = $("will-compact");
  const plan = view.plan;
  const shown = shownSpan();
  clear(line);
  if (shown) {
    line.dataset.state = shown.state;
    line.append(shown.state === "running" ? `Compacting ${spanText(shown.span)}…` : `The preview replaces ${spanText(shown.span)}.`);
  } else if (!plan) {
    delete line.dataset.state;
  } else if (plan.status !== "dry_run") {
    line.dataset.state = "error";
    line.append(h("span", { class: "badge badge-error" }, (plan.error && plan.error.code) || "error"), " ", (plan.error && plan.error.message) || "The range cannot be compacted.");
  } else if (plan.noop) {
    line.dataset.state = "noop";
    line.append(h("b", null, "Nothing to compact: "), plan.reason || "");
  } else {
    line.dataset.state = "ready";
    line.append(planText(plan));
  }
  $("compact-conversation").disabled = !!job.busy || runsElsewhere() || !plan || plan.status !== "dry_run" || plan.noop;
  markPlan();
}

// shownSpan is the range of the run of the session on screen, else of its
// preview on screen: {state, span}; null for neither.
function shownSpan() {
  const run = job.busy;
  if (run && run.span) return { state: "running", span: run.span };
  const p = preview.pending;
  if (!run && p && p.sessionId === view.id && p.span) return { state: "preview", span: p.span };
  return null;
}

// spanOfPlan is the range a dry run would replace.
function spanOfPlan(p) {
  return p && p.status === "dry_run" && !p.noop ? { first: p.first, last: p.last, total: p.messages } : null;
}

// spanText: "#2–#21 (20 messages)".
export function spanText(span) {
  const n = span.last - span.first + 1;
  return `${span.first === span.last ? `#${span.first}` : `#${span.first}–#${span.last}`} (${plural(n, "message")})`;
}

// planText: "Will compact #2–#58 (57 messages, ~1,591 tokens), keep
// #59–#61; #1 stays first."
function planText(p) {
  const span = (a, b) => (a === b ? `#${a}` : `#${a}–#${b}`);
  const pinned = p.pinned_messages ? `; ${p.pinned_messages.toLocaleString()} pinned stay verbatim after the summary` : "";
  let text = `Will compact ${span(p.first, p.last)} (${plural(p.replaced_messages, "message")}, ${approx(p.estimated_tokens)}${pinned})`;
  text += p.preserved_messages ? `, keep ${span(p.last + 1, p.messages)}` : ", keep nothing after it";
  if (p.first > 1) text += `; ${span(1, p.first - 1)} ${p.first === 2 ? "stays" : "stay"} before the summary`;
  return text + ".";
}

// markPlan marks the messages the plan would replace, and the kept tail.
function markPlan() {
  const shown = shownSpan();
  const p = shown ? shown.span : spanOfPlan(view.plan);
  const ok = !!p;
  for (const art of document.querySelectorAll("#messages article.msg")) {
    const n = Number(art.dataset.index) + 1;
    const kept = ok && n > p.last;
    art.classList.toggle("in-plan", ok && n >= p.first && n <= p.last);
    art.classList.toggle("kept-tail", kept);
    const tag = art.querySelector("[data-plan-tag]");
    if (tag) tag.textContent = kept ? "kept" : "";
  }
}

function actionOptions() {
  const o = {};
  const instr = $("instructions").value;
  if (instr !== "") o.instructions = instr;
  if ($("preview-toggle").checked) o.preview = true;
  return o;
}

function compactConversation() {
  const body = actionOptions();
  if (view.range.start) body.start = view.range.start;
  if (view.range.end) body.end = view.range.end;
  runAction("compact_conversation", body, { span: spanOfPlan(view.plan), from: "" });
}

// compactUpToHere compacts up to message id, as the menu of message from
// offered it: at is the menu's choice (anchors.js upToHere).
export function compactUpToHere(id, at, from) {
  const span = at ? { first: at.first, last: at.last, total: view.total } : null;
  runAction("compact_up_to_here", { message_id: id, ...actionOptions() }, { span, from: from || id });
}

// renderBusy shows the state of the session on screen: its run's
// progress and Cancel, or neither; its buttons are off only while it runs.
function renderBusy() {
  const run = job.busy;
  for (const b of document.querySelectorAll("[data-action-button]")) b.disabled = !!run || runsElsewhere();
  renderPlan();
  $("preview-apply").disabled = !!run;
  $("cancel-action").hidden = !run;
  $("activity").classList.toggle("is-busy", !!run);
  if (run) renderRun(run);
}

function progressText(p) {
  const parts = [];
  if (p.waiting) parts.push("Waiting to retry");
  else if (!p.chars) parts.push("Sending the compaction request…");
  else parts.push(`Receiving summary… ${plural(p.chars, "character")}`);
  if (p.attempt > 1) parts.push(`attempt ${p.attempt}${p.max_attempts ? " of " + p.max_attempts : ""}`);
  if (p.request > 1) parts.push(`request ${p.request}`);
  if (p.dropped) parts.push(`${plural(p.dropped, "oldest message")} left out to fit the context window`);
  return parts.join(" · ");
}

// elapsed: "0:07".
function elapsed(ms) {
  const s = Math.floor(ms / 1000);
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

// renderRun shows a run's progress: what it is doing, the time since it
// started, the retry lines (the server's own words), and the summary
// text as it streams in.
function renderRun(run) {
  const el = clear($("progress"));
  el.append(
    run.span ? h("span", { class: "progress-what", "data-testid": "progress-what" }, `Compacting ${spanText(run.span)}`) : null,
    run.span ? " · " : null,
    h("span", { class: "progress-text", "data-testid": "progress-text" }, run.last ? progressText(run.last) : run.title),
    " ",
    h("span", { class: "progress-elapsed", "data-testid": "progress-elapsed", title: "Time since the action started" }, elapsed(Date.now() - run.started)),
  );
  if (run.notes.length) el.append(h("ul", { class: "progress-notes", "data-testid": "progress-notes" }, run.notes.map((n) => h("li", null, n))));
  if (run.text) {
    const box = h("div", { class: "progress-stream", "data-testid": "progress-stream", "aria-live": "off", "aria-label": "The summary as it arrives" }, run.text);
    el.append(box);
    box.scrollTop = box.scrollHeight;
  }
}

// onProgress takes one progress event of run: the deltas build the text,
// which starts again when the request or the attempt changes.
function onProgress(run, p) {
  const prev = run.last;
  if (prev && (prev.request !== p.request || prev.attempt !== p.attempt)) run.text = "";
  if (p.delta) run.text += p.delta;
  if (p.waiting && run.notes[run.notes.length - 1] !== p.waiting) run.notes.push(p.waiting);
  run.last = p;
  if (job.busy === run) renderRun(run);
}

let ticker = 0;

// tick keeps the elapsed time of the run on screen current.
function tick() {
  const run = job.busy;
  const el = document.querySelector('[data-testid="progress-elapsed"]');
  if (run && el) el.textContent = elapsed(Date.now() - run.started);
  if (!job.runs.size) {
    clearInterval(ticker);
    ticker = 0;
  }
}

// runAction runs action on the session on screen. span is the range it
// replaces ({first, last, total}: 1-based numbers, the session's size),
// from where it was started: the id of the message whose menu started it,
// or "" for the compact panel; a failure is shown there too.
async function runAction(action, body, { span = null, from = "" } = {}) {
  if (job.busy) return;
  const sessionId = view.id;
  clearActionError();
  const run = {
    sessionId,
    span,
    from,
    ctrl: new AbortController(),
    title: span ? "Sending the compaction request…" : action === "compact_up_to_here" ? "Compacting up to the chosen message…" : "Compacting the conversation…",
    started: Date.now(),
    version: view.session && view.version, // to tell a commit the cancel came too late for
    last: null,
    text: "",
    notes: [],
  };
  job.runs.set(sessionId, run);
  if (!ticker) ticker = setInterval(tick, 1000);
  setOutcome(null, "running");
  hidePreview();
  renderBusy();
  renderSessions(); // the list marks the session as running
  const path = `sessions/${encodeURIComponent(sessionId)}/actions/${encodeURIComponent(action)}`;
  let outcome;
  try {
    // The page confirms a result with warnings before it is written: the
    // server keeps it as a preview (without this, it commits it).
    const held = { ...body, hold_on_warnings: true };
    outcome = await postAction(path, held, { signal: run.ctrl.signal, onProgress: (p) => onProgress(run, p) });
  } catch {
    outcome = { status: "cancelled" }; // only an abort throws
  } finally {
    job.runs.delete(sessionId);
  }
  const here = sessionId === view.id;
  if (here) renderBusy();
  const last = run.last || { chars: 0 };
  const doneNote = last.chars ? ` (${plural(last.chars, "character")} received${last.attempt > 1 ? `, attempt ${last.attempt}` : ""}, ${elapsed(Date.now() - run.started)})` : "";
  const finals = {
    compacted: "Compaction finished" + doneNote + ".",
    preview: ((outcome.warnings || []).length ? "The summary is ready, with warnings to confirm" : "The proposed summary is ready") + doneNote + ".",
    noop: "Nothing was compacted.",
    error: "The compaction failed.",
    cancelled: "Cancelled. Checking whether the server had committed it already…",
  };
  if (here) setProgress(finals[outcome.status] || "Done.", run.notes);
  await handleOutcome(sessionId, outcome, { run });
  // The list's marks (running, a summary to review); a compaction reloads it already.
  if (outcome.status !== "compacted") loadSessions();
}

async function handleOutcome(sessionId, o, { applied = false, run = null } = {}) {
  const here = sessionId === view.id;
  switch (o.status) {
    case "compacted": {
      const r = o.result;
      job.lastMissing.set(sessionId, { summary: r.summary, missing: r.missing_sections });
      const summaryMsg = ((r.session && r.session.messages) || []).find((m) => isSummary(m) && summaryText(m) === r.summary);
      if (summaryMsg && summaryMsg.id && o.model) models.set(summaryMsg.id, o.model);
      if (here) {
        setOutcome(compactedCard(o, applied), "compacted");
        if (applied) setProgress("The summary was applied.");
        await Promise.all([reloadSession(), loadSessions()]);
        showResult(summaryMsg && summaryMsg.id);
      } else {
        loadSessions();
      }
      break;
    }
    case "preview":
      // A preview (with warnings, perhaps) waits for its session to open.
      if (here) showPreview(sessionId, o, run && run.span);
      else job.previews.set(sessionId, { outcome: o, span: run && run.span });
      break;
    case "noop":
      if (here) setOutcome(h("div", { class: "outcome-card info" }, h("p", { class: "outcome-title" }, "Nothing to compact"), h("p", { "data-testid": "noop-reason" }, o.reason || "The server gave no reason.")), "noop");
      break;
    case "cancelled":
      if (here) await checkCancelled(sessionId, run);
      break;
    default: {
      const err = o.error || { code: "error", message: "Unknown outcome " + o.status };
      if (here) {
        setOutcome(h("div", { class: "outcome-card bad" }, h("p", { class: "outcome-title" }, "Compaction failed: nothing was changed"), errorBox(err, "outcome-error")), "error");
        view.actionError = { from: run ? run.from : "", error: err, span: run && run.span };
        showActionError(true);
      }
    }
  }
}

// checkCancelled says what a cancelled run of session id left: the server
// may have committed the compaction before the cancel reached it, so the
// page reloads the session and tells which it was.
async function checkCancelled(sessionId, run) {
  setOutcome(h("div", { class: "outcome-card info" }, h("p", { class: "outcome-title" }, "Cancelled"), h("p", null, "Checking whether the server had committed the compaction already…")), "cancelled");
  await Promise.all([reloadSession(), loadSessions()]);
  if (view.id !== sessionId) return;
  const changed = run && view.session && view.version !== run.version;
  setProgress(changed ? "Cancelled too late: the server had committed the compaction." : "Cancelled. Nothing was changed.", run ? run.notes : []);
  setOutcome(
    h(
      "div",
      { class: "outcome-card info", "data-testid": "cancel-result", "data-changed": changed ? "true" : "false" },
      h("p", { class: "outcome-title" }, changed ? "Cancelled too late" : "Cancelled"),
      h("p", null, changed ? "The server had committed the compaction before the cancel reached it: the session, reloaded, shows it (the history can undo it)." : "The request was stopped. The session is unchanged."),
    ),
    "cancelled",
  );
}

// showActionError puts the failure of the last action beside where it
// was started: under the message whose menu started it, or in the compact
// panel under its button. The outcome card at the top says it too, but it
// may be off screen. reveal scrolls it into view.
function showActionError(reveal) {
  for (const old of document.querySelectorAll('[data-testid="action-error"]')) old.remove();
  const a = view.actionError;
  if (!a) return;
  const box = h(
    "div",
    { class: "action-error", "data-testid": "action-error", "data-from": a.from || "panel" },
    h("p", { class: "action-error-title" }, a.span ? `Compacting ${spanText(a.span)} failed: nothing was changed.` : "The compaction failed: nothing was changed."),
    errorBox(a.error, "action-error-box"),
  );
  const dismiss = h("button", { type: "button", class: "btn btn-small btn-ghost", "data-testid": "action-error-dismiss" }, "Dismiss");
  dismiss.addEventListener("click", clearActionError);
  box.append(dismiss);
  const art = a.from ? document.querySelector(`#messages article.msg[data-id="${CSS.escape(a.from)}"]`) : null;
  if (art) art.querySelector(".msg-head").after(box);
  else $("compact-conversation").after(box);
  if (reveal) box.scrollIntoView({ block: "nearest" });
}

function clearActionError() {
  view.actionError = null;
  showActionError(false);
}

// showRunningElsewhere says in the progress line that the server runs a
// compaction of the session on screen that this page did not start (another
// client, an automatic compaction), and clears that when it has ended; the
// session is reloaded then ("run ended").
function showRunningElsewhere() {
  const el = $("progress");
  const shown = el.querySelector('[data-testid="running-elsewhere"]');
  const elsewhere = runsElsewhere();
  if (elsewhere && !shown) {
    clear(el).append(h("span", { class: "progress-text", "data-testid": "running-elsewhere" }, "A compaction of this session is running on the server, started elsewhere (another client, an automatic or a gateway compaction); Compact waits until it ends. The page shows the session again when it ends."));
  } else if (!elsewhere && shown) clear(el);
  if (elsewhere !== !!shown && !job.busy) renderBusy(); // Compact is offered again only once it ended
}

// runsElsewhere says whether the server runs a compaction of the session on
// screen that this page did not start: the server would refuse another
// (409), so Compact is not offered meanwhile.
function runsElsewhere() {
  const info = view.id ? sessionInfo(view.id) : null;
  return !!(info && info.running && !job.busy);
}

// showWaitingPreview shows the preview that arrived for the session on
// screen while another one was open.
function showWaitingPreview() {
  const waiting = job.previews.get(view.id);
  if (!waiting || job.busy) return;
  job.previews.delete(view.id);
  renderSessions();
  setProgress("The proposed summary arrived while another session was open.");
  showPreview(view.id, waiting.outcome, waiting.span);
}

// showResult brings the new summary into view (not the top of the page),
// with the outcome announced beside it.
async function showResult(summaryId) {
  $("outcome").focus({ preventScroll: true });
  const card = summaryId ? await reveal(summaryId, "start") : null;
  if (!card) $("outcome").scrollIntoView({ block: "start" });
}

function compactedCard(o, applied) {
  const r = o.result || {};
  const missing = r.missing_sections || [];
  const u = r.usage;
  return h(
    "div",
    { class: "outcome-card ok" },
    h("p", { class: "outcome-title" }, applied ? "Applied: compacted" : "Compacted"),
    h(
      "ul",
      { class: "facts" },
      h("li", null, `${plural(r.replaced_messages ?? r.compacted_messages ?? 0, "message")} replaced by one summary; ${r.pinned_messages ? `${r.pinned_messages.toLocaleString()} pinned and ` : ""}${(r.preserved_messages ?? 0).toLocaleString()} kept after it.`),
      r.estimated_tokens_before !== undefined ? h("li", null, `Estimated tokens: ${r.estimated_tokens_before.toLocaleString()} → ${(r.estimated_tokens_after ?? 0).toLocaleString()}.`) : null,
      o.model ? h("li", null, "Model: ", h("code", null, o.model)) : null,
      u ? h("li", null, `Compaction call: ${(u.input_other + u.input_cache_read + u.input_cache_creation).toLocaleString()} input tokens (${u.input_cache_read.toLocaleString()} cached), ${u.output.toLocaleString()} output tokens.`) : null,
      r.prompt ? h("li", null, `Prompt: ${r.prompt.source}${r.prompt.genuine ? " (kimi-cli's own)" : ""}.`) : null,
      r.fidelity ? h("li", { "data-testid": "outcome-fidelity" }, fidelityFact(r.fidelity)) : null,
    ),
    r.dropped_messages ? h("p", { class: "warn-line" }, h("span", { class: "badge badge-warn" }, "⚠ left out"), ` The ${plural(r.dropped_messages, "oldest message")} did not fit the model's context window: the summary does not cover them.`) : null,
    missing.length ? h("p", { class: "warn-line" }, h("span", { class: "badge badge-warn" }, "⚠ " + plural(missing.length, "section") + " missing"), " ", missing.join(", ")) : null,
  );
}

// fidelityFact: "The summary kept 25 of the 45 artifacts sent to the
// model (12 not sent); its card lists the lost ones.": what the model was
// sent first, as the card says it.
function fidelityFact(f) {
  if (!f.artifacts) return "The replaced messages had no artifacts (paths, commands, errors…) to keep.";
  const sent = f.artifacts - f.not_sent;
  const kept = sent ? `kept ${f.sent_kept.toLocaleString()} of the ${plural(sent, "artifact")} sent to the model` : `${keptText(f)}, none of them sent to the model`;
  return `The summary ${kept}${sent && f.not_sent ? ` (${f.not_sent.toLocaleString()} not sent)` : ""}${f.artifacts > f.kept ? "; its card lists the lost ones" : ""}.`;
}

// cancelRun cancels the run of the session on screen, if any, and says
// whether there was one.
export function cancelRun() {
  if (!job.busy) return false;
  job.busy.ctrl.abort();
  return true;
}

// initCompaction wires the panel's controls, and follows the session on
// screen: its run, its tools and plan, its waiting preview.
export function initCompaction() {
  $("compact-conversation").addEventListener("click", compactConversation);
  $("cancel-action").addEventListener("click", cancelRun);
  on("session switched", () => {
    view.actionError = null;
    renderBusy();
  });
  on("session loaded", ({ uiError }) => renderTools(uiError));
  on("messages rendered", () => {
    markPlan();
    showActionError(false);
  });
  on("preview changed", renderPlan);
  on("session shown", showWaitingPreview);
  on("sessions changed", showRunningElsewhere);
  on("range changed", refreshPlan);
  on("preview applied", ({ sessionId, outcome }) => handleOutcome(sessionId, outcome, { applied: true }));
}
