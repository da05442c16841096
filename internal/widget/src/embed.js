// entrycheck embeddable checker: the entry point of /embed.js.
//
// Every element carrying data-entrycheck becomes a checker. The service's
// address is the directory of this script's own URL, so the widget calls the
// API and links back to the site it was loaded from and never names a host.
import { mount } from "./checker.js";

const script = document.currentScript;

if (script && script.src) {
  const base = new URL(".", script.src).href.replace(/\/$/, "");
  const start = () => {
    for (const el of document.querySelectorAll("[data-entrycheck]")) mount(el, base);
  };
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
} else {
  console.error("entrycheck: load embed.js with a <script src> element, not as a module or inline");
}
