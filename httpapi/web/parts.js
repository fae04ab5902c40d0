// The parts of a message: text, thinking, media, data, and tool calls.

import { h, plural, prettyJSON, safeURL, shortURL } from "./dom.js";
import { renderMarkdown } from "./markdown.js";

// renderParts shows the parts of a message. Text is Markdown, except in a
// tool's output (mono), which is shown as it is, in a monospace font.
export function renderParts(body, parts, { mono = false } = {}) {
  for (const p of parts) {
    switch (p.type) {
      case "text":
        body.append(mono ? h("pre", { class: "code tool-output", "data-testid": "text-part" }, p.text) : textBlock(p.text));
        break;
      case "think":
        body.append(renderThink(p));
        break;
      case "image_url":
      case "audio_url":
      case "video_url":
        body.append(renderMedia(p));
        break;
      case "data":
        body.append(
          h("figure", { class: "data-part", "data-testid": "data-part" }, h("figcaption", { class: "part-label" }, "data"), h("pre", { class: "code" }, prettyJSON(p.data))),
        );
        break;
      default:
        body.append(h("figure", { class: "data-part" }, h("figcaption", { class: "part-label" }, String(p.type)), h("pre", { class: "code" }, prettyJSON(p))));
    }
  }
}

// textBlock shows text as Markdown; long text is clipped, with a button to
// show it all.
function textBlock(text) {
  const div = h("div", { class: "md", "data-testid": "text-part" }, renderMarkdown(text));
  const lines = text.split("\n").length;
  if (text.length > 2400 || lines > 40) {
    div.classList.add("is-clipped");
    const btn = h("button", { type: "button", class: "btn btn-ghost btn-small", "aria-expanded": "false" }, `Show all (${plural(lines, "line")})`);
    btn.addEventListener("click", () => {
      const clipped = div.classList.toggle("is-clipped");
      btn.setAttribute("aria-expanded", String(!clipped));
      btn.textContent = clipped ? `Show all (${plural(lines, "line")})` : "Show less";
    });
    return h("div", { class: "text-wrap" }, div, btn);
  }
  return div;
}

function renderThink(p) {
  const n = [...(p.think || "")].length;
  return h(
    "details",
    { class: "think", "data-testid": "think" },
    h("summary", null, h("span", { class: "think-label" }, "thinking"), h("span", { class: "muted" }, ` ${plural(n, "character")}`), p.encrypted ? h("span", { class: "badge badge-quiet" }, "signed") : null),
    h("div", { class: "think-text" }, p.think || ""),
  );
}

function renderMedia(p) {
  const kind = p.type.replace("_url", "");
  const obj = p[p.type] || {};
  const raw = typeof obj.url === "string" ? obj.url : "";
  const src = safeURL(raw, kind);
  const link = safeURL(raw, "link");
  const caption = h(
    "figcaption",
    { class: "part-label" },
    kind,
    obj.id ? h("code", null, " " + obj.id) : null,
    " ",
    link ? h("a", { href: link, target: "_blank", rel: "noopener noreferrer" }, shortURL(raw)) : h("span", { class: "muted" }, shortURL(raw) || "(no url)"),
  );
  let media = null;
  if (src && isRemote(src)) {
    media = loadButton(kind, src, () => mediaElement(kind, src, link, obj));
  } else if (src) {
    media = mediaElement(kind, src, link, obj);
  } else if (raw) {
    media = h("p", { class: "muted" }, "This URL is not shown: its scheme is not http, https or a matching data URL.");
  }
  return h("figure", { class: `media media-${kind}`, "data-testid": "media", "data-kind": kind }, media, caption);
}

// isRemote says whether src is fetched from another origin: such media
// loads only on a click, so that viewing a session tells no one.
function isRemote(src) {
  const u = new URL(src, document.baseURI);
  return (u.protocol === "http:" || u.protocol === "https:") && u.origin !== location.origin;
}

// loadButton stands in for remote media until it is clicked; then make()
// builds the element that takes its place.
function loadButton(kind, src, make) {
  const host = new URL(src).host;
  const btn = h("button", { type: "button", class: "btn btn-ghost btn-small", "data-testid": "media-load" }, `Load ${kind} from ${host}`);
  btn.addEventListener("click", () => btn.replaceWith(make()));
  return h("p", { class: "media-remote" }, btn, h("span", { class: "muted" }, " Remote media is not fetched until you ask."));
}

function mediaElement(kind, src, link, obj) {
  if (kind === "image") {
    const img = h("img", { src, alt: obj.id ? `image ${obj.id}` : "image from the conversation", loading: "lazy", decoding: "async", "data-testid": "media-image" });
    return link ? h("a", { href: link, target: "_blank", rel: "noopener noreferrer", class: "thumb-link" }, img) : img;
  }
  if (kind === "audio") return h("audio", { src, controls: true, preload: "none", "data-testid": "media-audio" });
  return h("video", { src, controls: true, preload: "metadata", "data-testid": "media-video" });
}

export function renderToolCall(c, anchor) {
  const fn = c.function || {};
  const args = fn.arguments;
  const pretty = args === undefined || args === null ? "" : prettyJSON(args);
  return h(
    "details",
    { class: "tool-call", id: anchor, "data-testid": "tool-call", "data-call-id": c.id || "", open: pretty.length <= 600 ? true : null },
    h(
      "summary",
      null,
      h("span", { class: "part-label" }, "tool call"),
      " ",
      h("code", { class: "tool-name", "data-testid": "tool-call-name" }, fn.name || "(unnamed)"),
      " ",
      h("code", { class: "call-id" }, c.id || ""),
    ),
    pretty ? h("pre", { class: "code", "data-testid": "tool-call-args" }, pretty) : h("p", { class: "muted" }, "(no arguments)"),
    c.extras ? h("div", null, h("p", { class: "part-label" }, "extras"), h("pre", { class: "code" }, prettyJSON(c.extras))) : null,
  );
}
