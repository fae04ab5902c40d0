// The summary message a compaction leaves, shown as a card with its
// sections. The summary form (its prefix, its section names) belongs to the
// compaction type of the session's agent, and comes from the server: GET
// /v1/compaction for kimi's, ?agent=NAME for that agent's type's.

import { h, plural } from "./dom.js";
import { renderMarkdown } from "./markdown.js";
import { call } from "./api.js";

// format is how a summary of the session on screen looks: its type, its
// prefix, its sections, in order, and the section kompact may append after
// them (the fidelity appendix); kimi's until a session's agent is known.
export const format = { type: "", prefix: null, sections: [], appendix: "" };

// kimi is kimi's form (GET /v1/compaction), which every session may hold
// (a summary made before its agent changed type); forms caches the form of
// each agent read (a promise).
let kimi = null;
const forms = new Map();

function formOf(data) {
  return {
    type: data.type || "kimi",
    prefix: data.summary_prefix,
    sections: data.sections.map((name) => [name, name[0].toUpperCase() + name.slice(1).replaceAll("_", " ")]),
    appendix: data.appendix_section || "",
  };
}

// loadFormat asks the server for kimi's summary form, the form on screen
// until a session's agent's is read.
export async function loadFormat() {
  kimi = formOf(await call("GET", "compaction"));
  if (format.prefix === null) Object.assign(format, kimi);
}

// useFormatOf makes the form of agent's compaction type the one on screen
// (read once per agent); a failed read keeps kimi's.
export async function useFormatOf(agent) {
  if (!agent) return kimi && Object.assign(format, kimi);
  if (!forms.has(agent)) forms.set(agent, call("GET", `compaction?agent=${encodeURIComponent(agent)}`).then(formOf, () => (forms.delete(agent), kimi)));
  const f = await forms.get(agent);
  if (f) Object.assign(format, f);
}

// firstText is the text of m's first text part, or null.
function firstText(m) {
  const first = (m.content || []).find((p) => p.type === "text");
  return first ? first.text : null;
}

// formFor is the form whose prefix m's text starts with: the one on screen,
// else kimi's; null for none.
function formFor(m) {
  const text = m && m.role === "user" ? firstText(m) : null;
  if (text === null) return null;
  for (const f of [format, kimi]) if (f && f.prefix && text.startsWith(f.prefix)) return f;
  return null;
}

export function isSummary(m) {
  return !!formFor(m);
}

// summaryText is the summary a summary message holds, without its prefix.
export function summaryText(m) {
  const texts = (m.content || []).filter((p) => p.type === "text").map((p) => p.text);
  let all = texts.join("");
  all = all.slice((formFor(m) || format).prefix.length);
  return all.startsWith("\n") ? all.slice(1) : all;
}

// appendixOf takes kompact's appended section (docs/fidelity.md) out of
// rest, the text besides the six sections: {rest, appendix}, appendix
// null without one.
function appendixOf(rest, form) {
  const open = `<${form.appendix}>`;
  const close = `</${form.appendix}>`;
  const a = form.appendix ? rest.lastIndexOf(open) : -1;
  const b = a >= 0 ? rest.indexOf(close, a) : -1;
  if (b < 0) return { rest, appendix: null };
  const body = rest.slice(a + open.length, b).replace(/^\s*\n/, "").replace(/\n\s*$/, "");
  return { rest: (rest.slice(0, a) + rest.slice(b + close.length)).trim(), appendix: body };
}

// parseSummary splits a summary into its six sections. A section counts as
// present when both its opening and closing tags appear (the server's rule).
function parseSummary(text, form = format) {
  const sections = [];
  let rest = text;
  for (const [name, label] of form.sections) {
    const open = `<${name}>`;
    const close = `</${name}>`;
    const present = text.includes(open) && text.includes(close);
    let body = "";
    const a = text.indexOf(open);
    const b = a >= 0 ? text.indexOf(close, a + open.length) : -1;
    if (a >= 0 && b >= 0) {
      body = text.slice(a + open.length, b).replace(/^\s*\n/, "").replace(/\n\s*$/, "");
      rest = rest.replace(text.slice(a, b + close.length), "");
    }
    sections.push({ name, label, present, body });
  }
  return { sections, ...appendixOf(rest.trim(), form) };
}

// renderSummary shows a summary message; remembered is what the last
// outcome said about it, {summary, missing}, if anything.
export function renderSummary(m, remembered) {
  const text = summaryText(m);
  const card = renderSummaryText(text, remembered && remembered.summary === text ? remembered.missing : null, formFor(m) || format);
  card.append(h("details", { class: "raw" }, h("summary", null, "Raw summary message"), h("pre", { class: "code" }, (m.content || []).filter((p) => p.type === "text").map((p) => p.text).join(""))));
  return card;
}

// missingOf lists the sections a summary text lacks (the server's rule).
export function missingOf(text) {
  return parseSummary(text).sections.filter((s) => !s.present).map((s) => s.name);
}

// renderSummaryText shows a summary (without its prefix) as a card, its
// sections rendered as Markdown; missing overrides the sections flagged.
export function renderSummaryText(text, missingList, form = format) {
  const { sections, rest, appendix } = parseSummary(text, form);
  const missing = new Set(missingList || sections.filter((s) => !s.present).map((s) => s.name));
  const card = h("div", { class: "summary-card", "data-testid": "summary-card", "data-missing": [...missing].join(" ") });
  card.append(h("p", { class: "summary-lead" }, "The earlier conversation was compacted into this summary."));
  if (missing.size) {
    card.append(
      h(
        "p",
        { class: "warn-line", "data-testid": "missing-sections" },
        h("span", { class: "badge badge-warn" }, "⚠ " + plural(missing.size, "section") + " missing"),
        " The model's summary lacks: ",
        [...missing].map((n, k) => [k ? ", " : "", h("code", null, n)]),
      ),
    );
  }
  const list = h("div", { class: "summary-sections" });
  for (const s of sections) {
    const isMissing = missing.has(s.name);
    list.append(
      h(
        "section",
        { class: "summary-section" + (isMissing ? " is-missing" : ""), "data-testid": "summary-section", "data-section": s.name, "data-missing": isMissing ? "true" : "false" },
        h(
          "h4",
          null,
          s.label,
          " ",
          h("code", { class: "section-tag" }, s.name),
          isMissing ? h("span", { class: "badge badge-warn", "data-testid": "missing-section", "data-section": s.name }, "⚠ missing") : null,
        ),
        isMissing && !s.body ? h("p", { class: "muted" }, "Not in the summary.") : h("div", { class: "md" }, s.body ? renderMarkdown(s.body) : "(empty)"),
      ),
    );
  }
  if (appendix !== null) {
    list.append(
      h(
        "section",
        { class: "summary-section summary-appendix", "data-testid": "summary-appendix" },
        h("h4", null, "Preserved artifacts", " ", h("code", { class: "section-tag" }, form.appendix)),
        h("p", { class: "muted" }, "Added by kompact after the model's summary: artifacts it lost."),
        h("div", { class: "md" }, renderMarkdown(appendix)),
      ),
    );
  }
  card.append(list);
  if (rest) card.append(h("section", { class: "summary-section summary-rest" }, h("h4", null, form.sections.length ? "Other text" : "Summary"), h("div", { class: "md" }, renderMarkdown(rest))));
  return card;
}
