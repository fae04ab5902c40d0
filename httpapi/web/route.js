// Routing: the address #/s/ID shows session ID.

import { closeSession, openSession } from "./conversation.js";

function routeId() {
  const m = /^#\/s\/(.+)$/.exec(location.hash);
  if (!m) return "";
  try {
    return decodeURIComponent(m[1]);
  } catch {
    return "";
  }
}

export function openSessionRoute(id) {
  const hash = "#/s/" + encodeURIComponent(id);
  if (location.hash === hash) openSession(id);
  else location.hash = hash;
}

export function onRoute() {
  const id = routeId();
  if (id) openSession(id);
  else closeSession();
}
