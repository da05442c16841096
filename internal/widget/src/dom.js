// Elements are built with createElement and textContent only: nothing the
// API returns is parsed as markup, and no style attribute is written, so the
// widget works under host pages' CSP and Trusted Types.

/**
 * h creates an element with attributes and children (nodes or strings).
 * @param {string} tag
 * @param {Record<string, string>} [attrs]
 * @param {...(Node|string|null|false|undefined)} children
 */
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, v);
  for (const c of children) if (c || c === "") el.append(c);
  return el;
}

/**
 * link opens in a new tab; addresses that are not http(s) are not linked.
 * @param {string} href
 * @param {string} text
 */
export function link(href, text) {
  if (!/^https?:\/\//i.test(href || "")) return document.createTextNode(text);
  return h("a", { href, target: "_blank", rel: "noopener" }, text);
}

/**
 * ready calls start once the page's elements are all parsed: at once when
 * they are, else when the document says so.
 * @param {() => void} start
 */
export function ready(start) {
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
}
