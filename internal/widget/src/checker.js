// One checker: a closed shadow root holding the form, the live result region
// and the attribution link. The host page's selectors do not reach into a
// shadow root; the :host rules of style.css (important, so they win over the
// page's own important rules on the host element) keep the host displayed and
// visible, and every inherited property is reset inside.
import css from "./style.css";
import { h, link } from "./dom.js";
import { names, label, codeOf } from "./countries.js";
import { answer, published, ownCountry, message } from "./answer.js";

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

const credit = "Entry requirements by entrycheck";

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
  const [passport, pbox] = field("passport", "Passport");
  const [destination, dbox] = field("destination", "Destination");
  const list = h("datalist", { id: "countries" }, ...[...names.keys()].map((c) => h("option", { value: label(c) })));
  const form = h("form", { novalidate: "" }, pbox, dbox, h("button", { type: "submit" }, "Check"));
  const out = h("div", { class: "out", "aria-live": "polite" });
  const by = h("p", { class: "by" });
  const wrap = h("section", { class: dark ? "w dark" : "w", lang: "en", dir: "ltr", "aria-label": "Entry requirements checker" },
    form, h("p", { id: "hint", class: "hint" }, "Type a country name or its three-letter code."), list, out, by);
  root.append(wrap);

  let href = `${base}/`;
  // guard puts the attribution back as it must be: present, last, visible,
  // linking to the site (the route page once a route is chosen).
  const guard = () => {
    const a = link(href, credit);
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
  // check shows "Checking…", then the view get resolves to, unless a later
  // check has started meanwhile.
  const check = async (p, d, get) => {
    const n = ++seq;
    const page = pageOf(p, d);
    const route = `${names.get(p)} passport to ${names.get(d)}`;
    href = page;
    out.setAttribute("aria-busy", "true");
    show(message("Checking…"));
    const view = await get(p, d, page, route);
    if (n !== seq) return;
    out.removeAttribute("aria-busy");
    show(view);
  };

  // live asks GET /free/check: a check made, counted against the visitor's
  // free checks.
  const live = async (p, d, page, route) => {
    try {
      const r = await fetch(`${base}/free/check?passport=${p}&destination=${d}`, {
        credentials: "omit",
        headers: { Accept: "application/json" },
      });
      if (r.status === 429) return message("The daily limit of free checks is reached. The answer is on entrycheck:", page, route);
      if (!r.ok) return message("entrycheck could not answer this check just now. Try again later, or see", page, route);
      return answer(await r.json(), page);
    } catch {
      return message("The checker could not reach entrycheck. Check the connection and try again, or see", page, route);
    }
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
    return view || message("The checker could not load the answer from entrycheck just now. It is on", page, route);
  };

  const mark = (input, ok) => (ok ? input.removeAttribute("aria-invalid") : input.setAttribute("aria-invalid", "true"));
  form.addEventListener("submit", (e) => {
    e.preventDefault();
    const p = codeOf(passport.value), d = codeOf(destination.value);
    mark(passport, p);
    mark(destination, d);
    if (p && d) {
      check(p, d, live);
      return;
    }
    const which = p ? "destination" : "passport";
    seq++; // an answer still on its way is no longer wanted
    out.removeAttribute("aria-busy");
    show(message(`Choose a ${which} from the list, or type its three-letter code (DEU for Germany).`));
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
      problems.push(...message(`This checker was set up with the ${what} "${v.slice(0, 40)}", which is not a country it knows. Choose a ${what} above.`));
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
