// What a checker shows: an answer of GET /free/check, or a message when
// there is none. Each view is a list of nodes for the live region.
import { h, link } from "./dom.js";

const tones = { visa_free: "ok", visa_on_arrival: "act", eta: "act", e_visa: "act", visa_required: "no", no_admission: "no" };

const applyLabels = {
  official_portal: "Apply online (official portal)",
  official_info: "How to apply (official information)",
  embassy_finder: "Find the embassy or consulate",
};

const countedFrom = { entry: "on entry", departure: "on departure", end_of_permitted_stay: "at the end of the permitted stay" };

const onward = { required: "Required", may_be_asked: "May be asked for", not_required: "Not required" };

/**
 * answer renders a check result (spec 2.1).
 * @param {any} b the JSON body
 * @param {string} page the route page on the site
 */
export function answer(b, page) {
  const own = b.passport.iso3 === b.destination.iso3;
  const stay = own ? "" : b.allowed_stay_days != null ? `up to ${b.allowed_stay_days} days` : b.requirement === "visa_free" ? "not stated" : "";
  const out = [
    h("p", { class: "route" }, `${b.passport.name} passport to ${b.destination.name}`),
    h("p", { class: `verdict ${tones[b.requirement] || "unk"}` }, b.requirement_label),
    stay && h("p", { class: "stay" }, `Allowed stay: ${stay}`),
    own && h("p", {}, "Citizens may enter their own country."),
  ];
  if (b.action === "check_official_authority") {
    out.push(h("p", {}, "There is no reliable verdict for this route: check with the destination's official authority."));
  }
  if (b.apply) out.push(h("p", { class: "apply" }, link(b.apply.url, applyLabels[b.apply.kind] || "Apply")));
  out.push(rules(b.entry_rules || {}));
  out.push(h("p", {}, link(page, "Every entry rule and its source")));
  out.push(h("p", { class: "note" }, b.disclaimer));
  return out;
}

function rules(r) {
  const pv = r.passport_validity, ot = r.onward_ticket, yf = r.yellow_fever;
  if (!pv && !ot && !yf) {
    return h("p", {}, "The entry rules of this destination are not curated yet: check with its official authority.");
  }
  const item = (name, rule, text) =>
    h("li", {}, h("strong", {}, `${name}: `), rule ? text : "no official source yet.", rule && h("span", { class: "src" }, "Source: ", link(rule.source.url, rule.source.name)));
  return h("ul", { class: "rules" },
    item("Passport validity", pv, pv && validity(pv.value)),
    item("Onward or return ticket", ot, ot && `${onward[ot.value.required] || ot.value.text}.`),
    item("Yellow fever certificate", yf, yf && yellowFever(yf)),
  );
}

function validity(v) {
  if (v.min_months_remaining === 0 && v.counted_from === "departure") return "valid for the whole stay.";
  const from = countedFrom[v.counted_from];
  return `at least ${v.min_months_remaining} months left${from ? ` ${from}` : ""}.`;
}

function yellowFever(yf) {
  if (yf.applies_to_this_passport === true) return "required for this passport.";
  if (yf.applies_to_this_passport === false) {
    return yf.value.certificate_required === "from_risk_countries"
      ? "not required for this passport, unless you arrive from or through a risk country."
      : "not required.";
  }
  return yf.value.text;
}

/**
 * message is a sentence and, when the route is known, a link to its page.
 * @param {string} text
 * @param {string} [page]
 * @param {string} [route]
 */
export function message(text, page, route) {
  return [h("p", { class: "msg" }, text, page ? " " : "", page ? link(page, route) : "")];
}
