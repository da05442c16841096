// One checker: a closed shadow root holding the form, the live result region
// and the attribution link. The host page's selectors do not reach into a
// shadow root; the :host rules of style.css (important, so they win over the
// page's own important rules on the host element) keep the host displayed and
// visible, and every inherited property is reset inside.
import css from "./style.css";
import { h, link } from "./dom.js";
import { names, label, codeOf } from "./countries.js";
import { answer, published, ownCountry, message, routeWords } from "./answer.js";
import { words, parts, fill } from "./words.js";

/** @type {CSSStyleSheet|undefined} one constructed sheet for every checker */
let sheet;

// Constructed stylesheets are CSSOM, which CSP's style-src does not govern:
// the widget needs no style-src exception on our pages or on the host's.
function style(root) {
  try {
    if (!sheet) {
      sheet = new CSSStyleSheet();
      sheet.replaceSync(css);
    }
    root.adoptedStyleSheets = [sheet];
  } catch {
    root.append(h("style", {}, css)); // browsers before 2023
  }
}

// What the attribution keeps, whatever else happens inside the widget.
const shown = { display: "inline", visibility: "visible", opacity: "1", position: "static", "font-size": "13px" };

/**
 * mount turns a marker element into a checker; an element that already has
 * a shadow root (a second copy of the script) is left alone.
 * @param {HTMLElement} host
 * @param {string} base the service's address, without a trailing slash
 */
export function mount(host, base) {
  let root;
  try {
    root = host.attachShadow({ mode: "closed" });
  } catch {
    return;
  }
  style(root);
  const dark = host.dataset.theme === "dark";
  const field = (id, text) => {
    const input = h("input", { id, list: "countries", autocomplete: "off", spellcheck: "false", "aria-describedby": "hint" });
    return [input, h("div", { class: "f" }, h("label", { for: id }, text), input)];
  };
  const [passport, pbox] = field("passport", words.passport);
  const [destination, dbox] = field("destination", words.destination);
  const list = h("datalist", { id: "countries" }, ...[...names.keys()].map((c) => h("option", { value: label(c) })));
  const form = h("form", { novalidate: "" }, pbox, dbox, h("button", { type: "submit" }, words.check));
  const out = h("div", { class: "out", "aria-live": "polite" });
  const by = h("p", { class: "by" });
  // The checker's language and direction are its bundle's, whatever the
  // page around it is written in.
  const wrap = h("section", { class: dark ? "w dark" : "w", lang: words.lang, dir: words.dir, "aria-label": words.name },
    form, h("p", { id: "hint", class: "hint" }, words.hint), list, out, by);
  root.append(wrap);

  let href = `${base}/`;
  // guard puts the attribution back as it must be: present, last, visible,
  // linking to the site (the route page once a route is chosen).
  const guard = () => {
    const a = link(href, words.credit);
    for (const [k, v] of Object.entries(shown)) a.style.setProperty(k, v, "important");
    by.replaceChildren(a);
    if (wrap.lastChild !== by) wrap.append(by);
    if (root.lastChild !== wrap) root.append(wrap);
  };
  guard();

  const show = (nodes) => {
    out.replaceChildren(...nodes);
    guard();
  };

  // The route's page; a passport and its own country have none, the
  // passport's page stands in.
  const pageOf = (p, d) => `${base}/passports/${p.toLowerCase()}/${p === d ? "" : `${d.toLowerCase()}/`}`;

  let seq = 0;
  // check shows that it is checking, then the view get resolves to, unless a later
  // check has started meanwhile. p and d are codes, or for the live check
  // what was typed when the pickers do not know it: the service then
  // answers or suggests.
  const check = async (p, d, get) => {
    const n = ++seq;
    const known = names.has(p) && names.has(d);
    const page = known ? pageOf(p, d) : `${base}/`;
    const route = known ? routeWords(names.get(p), names.get(d)) : "entrycheck";
    href = page;
    out.setAttribute("aria-busy", "true");
    show(message(words.checking));
    const view = await get(p, d, page, route);
    if (n !== seq) return;
    out.removeAttribute("aria-busy");
    show(view);
  };

  // live asks GET /free/check, in the checker's language: a check made,
  // counted against the visitor's free checks. A country the service does
  // not understand counts nothing: its answer (400) suggests the countries
  // it probably means, as /go does.
  const live = async (p, d, page, route) => {
    try {
      const r = await fetch(`${base}/free/check?passport=${encodeURIComponent(p)}&destination=${encodeURIComponent(d)}&lang=${words.lang}`, {
        credentials: "omit",
        headers: { Accept: "application/json" },
      });
      if (r.status === 429) return message(words.limit, page, route);
      if (r.status === 400) {
        const view = suggestions(await r.json());
        if (view) return view;
      }
      if (!r.ok) return message(words.failed, page, route);
      const b = await r.json();
      passport.value = label(b.passport.iso3);
      destination.value = label(b.destination.iso3);
      href = pageOf(b.passport.iso3, b.destination.iso3);
      return answer(b, href);
    } catch {
      return message(words.offline, page, route);
    }
  };

  // suggestions turns the problems of a refused check into "Did you mean
  // Germany?" for each field not understood, each country a button that
  // takes it and checks; null when the refusal is about something else.
  const suggestions = (body) => {
    const inputs = { passport, destination };
    const view = [];
    for (const problem of body.problems || []) {
      const input = inputs[problem.field];
      if (!input) return null;
      mark(input, false);
      const meant = (problem.suggestions || []).map((c) => c.iso3).filter((c) => names.has(c));
      if (!meant.length) {
        view.push(...message(choose(problem.field)));
        continue;
      }
      const take = (c) => {
        const b = h("button", { type: "button", class: "meant" }, names.get(c));
        b.addEventListener("click", () => {
          input.value = label(c);
          form.requestSubmit();
        });
        return b;
      };
      // The sentence is the catalog's, with the first country in its
      // place; the others follow it.
      view.push(h("p", { class: "msg" }, ...parts(words.did_you_mean, { country: take(meant[0]) }), ...meant.slice(1).flatMap((c) => [" ", take(c)])));
    }
    return view.length ? view : null;
  };

  // fromSite reads the answer the site publishes, the static matrix of the
  // passport beside its page: no check is made, so none is counted. When it
  // cannot be read the checker says so, and does not spend a check instead.
  const fromSite = async (p, d, page, route) => {
    let view = null;
    try {
      const r = await fetch(`${base}/passports/${p.toLowerCase()}/index.json`, {
        credentials: "omit",
        headers: { Accept: "application/json" },
      });
      if (r.ok) view = published(await r.json(), d, page);
    } catch {
      // said below
    }
    return view || message(words.unread, page, route);
  };

  // choose asks for a field's country, with the code of one as an example.
  const choose = (field) => fill(words.choose[field], { code: "DEU", country: names.get("DEU") || "DEU" });

  function mark(input, ok) {
    if (ok) input.removeAttribute("aria-invalid");
    else input.setAttribute("aria-invalid", "true");
  }
  form.addEventListener("submit", (e) => {
    e.preventDefault();
    // What the pickers do not know goes to the service as it was typed:
    // it may know the name ("Deutschland"), or suggests what was meant.
    const p = codeOf(passport.value) || passport.value.trim(), d = codeOf(destination.value) || destination.value.trim();
    mark(passport, p);
    mark(destination, d);
    if (p && d) {
      check(p, d, live);
      return;
    }
    const which = p ? "destination" : "passport";
    seq++; // an answer still on its way is no longer wanted
    out.removeAttribute("aria-busy");
    show(message(choose(which)));
    (p ? destination : passport).focus();
  });

  // data-passport and data-destination preselect, by code or name; with both set the
  // checker answers at once from what the site publishes, spending none of
  // the visitor's free checks (a later submission of the form is a check).
  // A value it does not know is said plainly.
  const problems = [];
  const preset = (input, attr, what) => {
    const v = (host.getAttribute(attr) || "").trim();
    if (!v) return null;
    const c = codeOf(v);
    if (c) input.value = label(c);
    else {
      mark(input, false);
      problems.push(...message(fill(words.preset[what], { value: v.slice(0, 40) })));
    }
    return c;
  };
  const p = preset(passport, "data-passport", "passport"), d = preset(destination, "data-destination", "destination");
  if (problems.length) show(problems);
  else if (p && p === d) {
    href = pageOf(p, d);
    show(ownCountry(names.get(p), href));
  } else if (p && d) check(p, d, fromSite);
}
