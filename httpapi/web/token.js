// The token form: shown when the server answers 401.

import { $ } from "./dom.js";
import { hasToken, onUnauthorized, setToken } from "./api.js";

let needToken = false;

// needsToken reports whether the page waits for a token.
export function needsToken() {
  return needToken;
}

function askForToken() {
  needToken = true;
  $("token-form").hidden = false;
  $("token-message").textContent = hasToken()
    ? "The server refused this token. Enter the one kompact serve was started with (--token or $KOMPACT_TOKEN)."
    : "This server needs an access token: the one kompact serve was started with (--token or $KOMPACT_TOKEN).";
}

// initTokenForm wires the form; reload runs once a token is entered.
export function initTokenForm(reload) {
  onUnauthorized(askForToken);
  $("token-form").addEventListener("submit", (ev) => {
    ev.preventDefault();
    const t = $("token-input").value.trim();
    if (!t) return;
    setToken(t);
    needToken = false;
    $("token-form").hidden = true;
    $("token-input").value = "";
    $("token-message").textContent = "";
    reload();
  });
}
