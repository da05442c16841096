// What a checker shows: an answer of GET /free/check, the published answer
// of a route (the static matrix of its passport), or a message when there is
// none. Each view is a list of nodes for the live region.
import { h, link } from "./dom.js";

// The tone of every requirement value, from the service (entrycheck.Tones):
// ok, act, no or unknown.
const tones = REQUIREMENT_TONES;

// The site's words for the facts of an answer, given by the build. The
// entry rules come in words in the answer itself (entry_rule_lines and
// entry_rules_not_cited, the lines of the route page), shown as they are.
// eslint-disable-next-line no-undef
const words = LABELS;

/**
 * answer renders a check result (spec 2.1).
 * @param {any} b the JSON body
 * @param {string} page the route page on the site
 */
export function answer(b, page) {
  const own = b.passport.iso3 === b.destination.iso3;
  return verdict(b.passport, b, b.verdict_verification, b.disclaimer, page, {
    own,
    said: statements(b.verdict_verification),
    // A line for other passports is a hint, left to the route page.
    listed: rules((b.entry_rule_lines || []).filter((l) => l.for_this_passport), b.entry_rules_not_cited),
  });
}

/**
 * published renders the route to destination d from the static matrix of
 * its passport (/passports/<iso3>/index.json, the API's passport matrix):
 * the verdict without the entry rules, which the route page gives. The
 * matrix dates its verdicts (as_of) and says from which day (UTC) they are
 * old; null when it has no answer for d.
 * @param {any} m the static matrix
 * @param {string} d the destination's code
 * @param {string} page the route page on the site
 */
export function published(m, d, page) {
  const e = (m.destinations || []).find((x) => x.destination.iso3 === d);
  if (!e || !m.verdict_age) return null;
  const today = new Date().toISOString().slice(0, 10);
  return verdict(m.passport, e, { ...m.verdict_age, old: today >= m.verdict_age.old_from }, m.disclaimer, page, {});
}

/**
 * verdict lays out a route's verdict, the same for both sources: the
 * route, the requirement and stay, its date, what to do, the route page
 * and the disclaimer; a check's answer adds its statements and entry rules.
 * @param {{name: string}} passport
 * @param {any} r the route's answer: destination, requirement, requirement_label, allowed_stay_days, action, apply
 * @param {any} age as_of, old, old_after_days
 * @param {string} disclaimer
 * @param {string} page
 * @param {{own?: boolean, said?: Node[], listed?: (Node|false|null)[]}} more the own-country sentence, the official statements and the entry rules
 */
function verdict(passport, r, age, disclaimer, page, { own = false, said = [], listed = [] }) {
  const days = r.allowed_stay_days;
  const stay = own ? "" : days != null ? `${days} ${days === 1 ? "day" : "days"}` : r.requirement === "visa_free" ? words.not_stated : "";
  // Conditional parts are false when absent; the live region takes nodes only.
  return [
    h("p", { class: "route" }, routeWords(passport.name, r.destination.name)),
    h("p", { class: `verdict ${tones[r.requirement] || "unk"}` }, r.requirement_label),
    stay && h("p", { class: "stay" }, `${words.allowed_stay}: ${stay}`),
    own && h("p", {}, "Citizens may enter their own country."),
    asOf(age),
    ...said,
    r.action === "check_official_authority" && h("p", {}, words.no_verdict),
    r.apply && h("p", { class: "apply" }, link(r.apply.url, words.apply[r.apply.kind] || r.apply.kind)),
    ...listed,
    h("p", {}, link(page, "Every entry rule and its source")),
    h("p", { class: "note" }, disclaimer),
  ].filter(Boolean);
}

const months = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"];

/** longDate writes a YYYY-MM-DD date as "17 February 2026". */
function longDate(iso) {
  const [y, m, d] = (iso || "").split("-").map(Number);
  return y && m && d ? `${d} ${months[m - 1]} ${y}` : iso;
}

/** asOf says what date the verdict is as of, and warns when that is old. */
function asOf(v) {
  if (!v || !v.as_of) return false;
  const text = `${words.as_of} ${longDate(v.as_of)}.`;
  return v.old
    ? h("p", { class: "asof old" }, `${text} This is more than ${v.old_after_days} days old: the rule may have changed, so confirm it with the official authority.`)
    : h("p", { class: "asof" }, text);
}

/** standing says how a statement bears on the verdict, as the site does: "in force, from 1 January 2026; conflicts with the secondary visa table". */
function standing(s) {
  const from = s.effective_from && longDate(s.effective_from), until = s.effective_until && longDate(s.effective_until);
  const period = from && until ? `${from} to ${until}` : from ? `from ${from}` : until ? `until ${until}` : "no period given";
  const verdict = s.status !== "in_force" ? words.not_applied : s.agrees_with_matrix ? words.agrees : words.conflicts;
  return `${s.status.replace(/_/g, " ")}, ${period}; ${verdict}`;
}

/** statements shows the official statements in force or upcoming; ended ones are history, left to the route page. */
function statements(v) {
  return ((v && v.official_statements) || [])
    .filter((s) => s.status !== "ended")
    .map((s) => h("p", { class: "statement" }, h("strong", {}, `${words.official_statement}, ${standing(s)}. `), s.text, " ", source(s.source)));
}

/** source cites the page a fact was read from. */
function source(c) {
  return h("span", { class: "src" }, `${words.source}: `, link(c.url, c.name));
}

/**
 * rules lists the entry rules in the route page's words: each line's label,
 * text, detail, official link and source, then which rules no official
 * source covers yet.
 * @param {{label: string, text: string, detail?: string, url?: string, source: any}[]} lines
 * @param {{label?: string, text: string}|null} notCited
 */
function rules(lines, notCited) {
  const list = lines.length > 0 && h("ul", { class: "rules" }, ...lines.map((l) =>
    h("li", {},
      h("strong", { class: "label" }, `${l.label}: `),
      h("span", { class: "text" }, l.text),
      l.detail && " ", l.detail && h("span", { class: "detail" }, l.detail),
      l.url && " ", l.url && h("span", { class: "url" }, link(l.url, l.url)),
      " ", source(l.source))));
  const gap = notCited && h("p", { class: "gaps" }, notCited.label ? h("strong", {}, `${notCited.label}: `) : "", notCited.text);
  return [list, gap];
}

/**
 * message is a sentence and, when the route is known, a link to its page.
 * @param {string} text
 * @param {string} [page]
 * @param {string} [route]
 */
/**
 * fill puts names into one of the site's sentences: "{passport}" and the
 * like stand for them, so the words keep their order in any language.
 * @param {string} sentence
 * @param {Record<string, string>} names
 */
function fill(sentence, names) {
  return sentence.replace(/\{(\w+)\}/g, (all, k) => names[k] ?? all);
}

/**
 * routeWords names a route as its page heads it: "Passport of Germany to Thailand".
 * @param {string} passport
 * @param {string} destination
 */
export function routeWords(passport, destination) {
  return fill(words.route, { passport, destination });
}

export function message(text, page, route) {
  return [h("p", { class: "msg" }, text, page ? " " : "", page ? link(page, route) : "")];
}

/**
 * ownCountry answers a passport and its own country without asking the
 * service; the passport's page stands in for the route page.
 * @param {string} name the country's name
 * @param {string} page the passport's page on the site
 */
export function ownCountry(name, page) {
  return [
    h("p", { class: "route" }, routeWords(name, name)),
    h("p", {}, "Citizens may enter their own country."),
    h("p", {}, link(page, fill(words.every_destination, { country: name }))),
  ];
}
