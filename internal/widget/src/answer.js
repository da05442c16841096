// What a checker shows: an answer of GET /free/check, the published answer
// of a route (the static matrix of its passport), or a message when there is
// none. Each view is a list of nodes for the live region.
import { h, link } from "./dom.js";
import { names } from "./countries.js";
import { words, parts, fill, count, longDate } from "./words.js";

// The tone of every requirement value, from the service (entrycheck.Tones):
// ok, act, no or unknown.
// eslint-disable-next-line no-undef
const tones = REQUIREMENT_TONES;

/**
 * answer renders a check result (spec 2.1), asked in the checker's
 * language: its entry rules come in words in the answer itself
 * (entry_rule_lines and entry_rules_not_cited, the lines of the route
 * page), shown as they are.
 * @param {any} b the JSON body
 * @param {string} page the route page on the site
 */
export function answer(b, page) {
  const own = b.passport.iso3 === b.destination.iso3;
  return verdict(b.passport, b, b.verdict_verification, page, {
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
 * old; null when it has no answer for d. The matrix is in English: the
 * checker words its values itself, from its catalog.
 * @param {any} m the static matrix
 * @param {string} d the destination's code
 * @param {string} page the route page on the site
 */
export function published(m, d, page) {
  const e = (m.destinations || []).find((x) => x.destination.iso3 === d);
  if (!e || !m.verdict_age) return null;
  const today = new Date().toISOString().slice(0, 10);
  return verdict(m.passport, e, { ...m.verdict_age, old: today >= m.verdict_age.old_from }, page, {});
}

/** nameOf names a country of an answer in the checker's language. */
const nameOf = (c) => names.get(c.iso3) || c.name;

/**
 * verdict lays out a route's verdict, the same for both sources: the
 * route, the requirement and stay, its date, what to do, the route page
 * and the disclaimer; a check's answer adds its statements and entry rules.
 * @param {{iso3: string, name: string}} passport
 * @param {any} r the route's answer: destination, requirement, requirement_label, allowed_stay_days, action, apply
 * @param {any} age as_of, old, old_after_days
 * @param {string} page
 * @param {{own?: boolean, said?: Node[], listed?: (Node|false|null)[]}} more the own-country sentence, the official statements and the entry rules
 */
function verdict(passport, r, age, page, { own = false, said = [], listed = [] }) {
  const days = r.allowed_stay_days;
  const stay = own ? "" : days != null ? count(words.days, days) : r.requirement === "visa_free" ? words.not_stated : "";
  // Conditional parts are false when absent; the live region takes nodes only.
  return [
    h("p", { class: "route" }, routeWords(nameOf(passport), nameOf(r.destination))),
    h("p", { class: `verdict ${tones[r.requirement] || "unk"}` }, words.requirement[r.requirement] || r.requirement_label),
    stay && h("p", { class: "stay" }, fill(words.fact, { label: words.allowed_stay, text: stay })),
    own && h("p", {}, words.own_country),
    asOf(age),
    ...said,
    r.action === "check_official_authority" && h("p", {}, words.no_verdict),
    r.apply && h("p", { class: "apply" }, link(r.apply.url, words.apply[r.apply.kind] || r.apply.kind)),
    ...listed,
    h("p", {}, link(page, words.all_rules)),
    h("p", { class: "note" }, words.disclaimer),
  ].filter(Boolean);
}

/** asOf says what date the verdict is as of, or, when that is old, that it must be confirmed. */
function asOf(v) {
  if (!v || !v.as_of) return false;
  const date = longDate(v.as_of);
  return v.old
    ? h("p", { class: "asof old" }, count(words.old, v.old_after_days, { date }))
    : h("p", { class: "asof" }, fill(words.as_of, { date }));
}

/**
 * standing says how a statement bears on the verdict, as the site does:
 * "in force, from 1 January 2026; conflicts with the secondary visa table".
 * A statement whose source gives no start holds from the day it was read.
 */
function standing(s) {
  const from = s.effective_from ? longDate(s.effective_from) : fill(words.read_day, { date: longDate(s.source.retrieved_at) });
  const period = s.effective_until ? fill(words.between, { from, until: longDate(s.effective_until) }) : fill(words.from, { date: from });
  const comparison = words.comparison[s.status !== "in_force" ? "not_applied" : s.agrees_with_matrix ? "agrees" : "conflicts"];
  return fill(words.standing, { status: words.status[s.status] || s.status, period, comparison });
}

/** statements shows the official statements in force or upcoming; ended ones are history, left to the route page. */
function statements(v) {
  return ((v && v.official_statements) || [])
    .filter((s) => s.status !== "ended")
    .map((s) => {
      const label = fill(words.sentence, { text: fill(words.statement, { label: words.official_statement, standing: standing(s) }) });
      return h("p", { class: "statement" }, h("strong", {}, label + " "), s.text, " ", source(s.source));
    });
}

/** source cites the page a fact was read from. */
function source(c) {
  return h("span", { class: "src" }, ...parts(words.fact, { label: words.source, text: link(c.url, c.name) }));
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
      ...parts(words.fact, { label: h("strong", { class: "label" }, l.label), text: h("span", { class: "text" }, l.text) }),
      l.detail && " ", l.detail && h("span", { class: "detail" }, l.detail),
      l.url && " ", l.url && h("span", { class: "url" }, link(l.url, l.url)),
      " ", source(l.source))));
  const gap = notCited && h("p", { class: "gaps" },
    ...(notCited.label ? parts(words.fact, { label: h("strong", {}, notCited.label), text: notCited.text }) : [notCited.text]));
  return [list, gap];
}

/**
 * routeWords names a route as its page heads it: "Passport of Germany to Thailand".
 * @param {string} passport
 * @param {string} destination
 */
export function routeWords(passport, destination) {
  return fill(words.route, { passport, destination });
}

/**
 * message is one of the checker's sentences; its {page}, where it has one,
 * is a link to the route's page named by route.
 * @param {string} sentence
 * @param {string} [page]
 * @param {string} [route]
 */
export function message(sentence, page, route) {
  return [h("p", { class: "msg" }, ...parts(sentence, { page: page ? link(page, route) : route || "" }))];
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
    h("p", {}, words.own_country),
    h("p", {}, link(page, fill(words.every_destination, { country: name }))),
  ];
}
