// entrycheck embeddable checker: the entry point of /embed.js, the loader.
//
// Every element carrying data-entrycheck becomes a checker, in the
// language it asks for (languageOf). The loader holds no words: it adds to
// the page the bundle of each language its checkers speak, one file per
// language named after its content (/embed.<lang>.<hash>.js), with that
// file's Subresource Integrity digest, so a page that pins this loader
// with its own digest runs exactly the checkers it reviewed. The bundles
// are found beside this script, on the site it was loaded from.
import bundles from "entrycheck:bundles";
import { ready } from "./dom.js";
import { languageOf } from "./language.js";

const script = document.currentScript;

/**
 * policy lets a page that enforces Trusted Types take the bundles'
 * addresses (allowed with "trusted-types entrycheck"); null where the
 * browser has no Trusted Types or the page does not allow the policy, and
 * a plain address is then what the page accepts, if anything.
 */
function policy() {
  try {
    return window.trustedTypes ? window.trustedTypes.createPolicy("entrycheck", { createScriptURL: (url) => url }) : null;
  } catch {
    return null;
  }
}

/**
 * load adds the bundle of language code to the page. It carries the
 * loader's data-lang, so that it picks the same checkers, and its nonce,
 * for pages whose Content-Security-Policy allows scripts by nonce.
 * @param {string} code
 * @param {any} trusted the Trusted Types policy, or null
 */
function load(code, trusted) {
  const [file, integrity] = bundles[code];
  const url = new URL(file, script.src).href;
  const s = document.createElement("script");
  s.src = trusted ? trusted.createScriptURL(url) : url;
  s.integrity = integrity;
  s.crossOrigin = "anonymous";
  if (script.nonce) s.nonce = script.nonce;
  if (script.dataset.lang) s.dataset.lang = script.dataset.lang;
  document.head.append(s);
}

if (script && script.src) {
  ready(() => {
    const codes = new Set();
    for (const el of document.querySelectorAll("[data-entrycheck]")) codes.add(languageOf(el, script.dataset.lang));
    if (codes.size === 0) return;
    const trusted = policy();
    for (const code of codes) load(code, trusted);
  });
} else {
  console.error("entrycheck: load embed.js with a <script src> element, not as a module or inline");
}
