// Markdown in messages and summaries. markdown-it (vendor/markdown-it.js,
// built by _build/, see docs/web.md) only parses: it turns the text into
// tokens, and this module builds the elements from them with createElement
// and text nodes. Raw HTML is never parsed as HTML (html: false, and a
// token this module does not know becomes text), only the tags and
// attributes below are ever created, and links keep only the http:, https:
// and mailto: schemes.

import MarkdownIt from "./vendor/markdown-it.js";

// LINK_SCHEMES are the only link targets a message may carry.
const LINK_SCHEMES = /^(https?|mailto):/i;

export function safeLink(url) {
  return typeof url === "string" && LINK_SCHEMES.test(url.trim()) ? url.trim() : "";
}

const md = new MarkdownIt({ html: false, linkify: true, typographer: false, breaks: true });
md.validateLink = (url) => safeLink(url) !== "";
// Only links written with their scheme: "main.py" stays text.
md.linkify.set({ fuzzyLink: false, fuzzyEmail: false, fuzzyIP: false });

// OPENERS maps the token types that open and close an element to its tag.
// Headings keep their level; lists, tables and quotes their structure.
const OPENERS = {
  paragraph_open: "p",
  heading_open: null, // the token's own h1..h6
  bullet_list_open: "ul",
  ordered_list_open: "ol",
  list_item_open: "li",
  blockquote_open: "blockquote",
  table_open: "table",
  thead_open: "thead",
  tbody_open: "tbody",
  tr_open: "tr",
  th_open: "th",
  td_open: "td",
  em_open: "em",
  strong_open: "strong",
  s_open: "s",
  link_open: "a",
};

const HEADINGS = new Set(["h1", "h2", "h3", "h4", "h5", "h6"]);

// renderMarkdown returns a fragment holding text rendered as Markdown.
export function renderMarkdown(text) {
  const frag = document.createDocumentFragment();
  let tokens;
  try {
    tokens = md.parse(String(text ?? ""), {});
  } catch {
    frag.append(document.createTextNode(String(text ?? "")));
    return frag;
  }
  build(frag, tokens);
  return frag;
}

// build appends the elements of tokens to root: an opening token pushes
// its element, a closing one pops it, the others are leaves.
function build(root, tokens) {
  const stack = [root];
  const top = () => stack[stack.length - 1];
  for (const t of tokens) {
    if (t.hidden && (t.type === "paragraph_open" || t.type === "paragraph_close")) continue; // tight lists
    if (t.nesting === 1) {
      const el = opener(t);
      top().append(el);
      stack.push(el);
    } else if (t.nesting === -1) {
      if (stack.length > 1) stack.pop();
    } else if (t.type === "inline") {
      build(top(), t.children || []);
    } else {
      const leaf = leafOf(t);
      if (leaf) top().append(leaf);
    }
  }
}

function opener(t) {
  const tag = t.type === "heading_open" ? (HEADINGS.has(t.tag) ? t.tag : "p") : OPENERS[t.type];
  if (!tag) return document.createElement("span"); // unknown: a neutral container
  const el = document.createElement(tag);
  if (HEADINGS.has(tag)) el.className = "md-heading";
  if (tag === "ol") {
    const raw = t.attrGet("start");
    const start = raw === null ? 1 : Number(raw);
    if (Number.isInteger(start) && start !== 1) el.setAttribute("start", String(start));
  }
  if (tag === "th" || tag === "td") {
    const align = /text-align:(left|right|center)/.exec(t.attrGet("style") || "");
    if (align) el.className = "md-align-" + align[1];
  }
  if (tag === "a") {
    const href = safeLink(t.attrGet("href"));
    if (href) {
      el.setAttribute("href", href);
      el.setAttribute("target", "_blank");
      el.setAttribute("rel", "noopener noreferrer nofollow");
    }
    const title = t.attrGet("title");
    if (title) el.setAttribute("title", title);
  }
  return el;
}

function leafOf(t) {
  switch (t.type) {
    case "text":
      return document.createTextNode(t.content);
    case "code_inline": {
      const code = document.createElement("code");
      code.textContent = t.content;
      return code;
    }
    case "softbreak":
    case "hardbreak":
      return document.createElement("br");
    case "hr":
      return document.createElement("hr");
    case "fence":
    case "code_block":
      return codeBlock(t);
    case "image":
      return imageLink(t);
    default:
      // html_block, html_inline (never produced with html: false) and any
      // other token: its source, as text.
      return t.content ? document.createTextNode(t.content) : null;
  }
}

// codeBlock is fenced or indented code: monospace, scrolled sideways.
function codeBlock(t) {
  const pre = document.createElement("pre");
  pre.className = "code md-code";
  const code = document.createElement("code");
  const lang = (t.info || "").trim().split(/\s+/, 1)[0];
  if (lang) pre.dataset.lang = lang.slice(0, 40);
  code.textContent = t.content.endsWith("\n") ? t.content.slice(0, -1) : t.content;
  pre.append(code);
  return pre;
}

// imageLink shows a Markdown image as a link to it: a message does not
// make the page load images from anywhere it names.
function imageLink(t) {
  const alt = (t.children || []).map((c) => c.content).join("") || "image";
  const href = safeLink(t.attrGet("src"));
  if (!href) return document.createTextNode(`[${alt}]`);
  const a = document.createElement("a");
  a.setAttribute("href", href);
  a.setAttribute("target", "_blank");
  a.setAttribute("rel", "noopener noreferrer nofollow");
  a.textContent = `[image: ${alt}]`;
  return a;
}
