// Routing: the address #/s/ID shows session ID, #/s/ID/m/MESSAGE_ID shows
// it at that message. The session view follows "route changed".

import { emit } from "./events.js";

function decode(s) {
  try {
    return decodeURIComponent(s);
  } catch {
    return "";
  }
}

// routeOf reads the address: {id, message}, "" for what it does not name.
export function routeOf() {
  const m = /^#\/s\/([^/]+)(?:\/m\/([^/]+))?$/.exec(location.hash);
  if (!m) return { id: "", message: "" };
  return { id: decode(m[1]), message: m[2] ? decode(m[2]) : "" };
}

// messageLink is the address of message mid of session id.
export function messageLink(id, mid) {
  return "#/s/" + encodeURIComponent(id) + "/m/" + encodeURIComponent(mid);
}

export function openSessionRoute(id) {
  const hash = "#/s/" + encodeURIComponent(id);
  if (location.hash === hash) emit("route changed", id);
  else location.hash = hash;
}

export function onRoute() {
  emit("route changed", routeOf().id);
}
