// Routing: the address #/s/ID shows session ID. The session view follows
// "route changed".

import { emit } from "./events.js";

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
  if (location.hash === hash) emit("route changed", id);
  else location.hash = hash;
}

export function onRoute() {
  emit("route changed", routeId());
}
