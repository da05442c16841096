// The entry point of one language's bundle, /embed.<lang>.<hash>.js, which
// the loader (/embed.js) adds to the page: every checker of the page that
// speaks this bundle's language (languageOf, with the loader's data-lang
// passed on) becomes a checker in it.
//
// The service's address is the directory of this script's own URL, so the
// widget calls the API and links back to the site it was loaded from and
// never names a host.
import { mount } from "./checker.js";
import { ready } from "./dom.js";
import { languageOf } from "./language.js";
import { words } from "./words.js";

const script = document.currentScript;

if (script && script.src) {
  const base = new URL(".", script.src).href.replace(/\/$/, "");
  ready(() => {
    for (const el of document.querySelectorAll("[data-entrycheck]")) {
      if (languageOf(el, script.dataset.lang) === words.lang) mount(el, base);
    }
  });
}
