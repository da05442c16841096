// The words of one checker, in the language of its bundle: the messages of
// the service's catalog for that language, given by the build (see
// wordsOf in widget.go), and how to fill them in. The checker writes no
// word of its own.
import words from "entrycheck:words";

export { words };

const plural = new Intl.PluralRules(words.lang);

/**
 * parts splits one of the catalog's sentences at its {placeholders} and
 * puts each value in its place, a string or a node (a link, a button), so
 * that the words keep the order of the language they are written in.
 * @param {string} sentence
 * @param {Record<string, string|Node>} values
 * @returns {(string|Node)[]}
 */
export function parts(sentence, values) {
  return sentence
    .split(/(\{\w+\})/)
    .map((p) => {
      const name = /^\{(\w+)\}$/.exec(p);
      return name && name[1] in values ? values[name[1]] : p;
    })
    .filter((p) => p !== "");
}

/**
 * fill is a sentence with words in its placeholders.
 * @param {string} sentence
 * @param {Record<string, string>} values
 */
export function fill(sentence, values) {
  return parts(sentence, values).join("");
}

/**
 * number writes a whole number in the language's digits ("٦٠" in Arabic).
 * The checker writes days, years and days of the month, which no language
 * groups below a thousand.
 * @param {number} n
 */
export function number(n) {
  return String(n).replace(/\d/g, (d) => words.digits[+d]);
}

/**
 * count is a counted message for n in the plural form the language's CLDR
 * rules give n: forms maps each category ("one", "few", "other"...) to its
 * sentence, whose {n} is the number.
 * @param {Record<string, string>} forms
 * @param {number} n
 * @param {Record<string, string>} [values]
 */
export function count(forms, n, values = {}) {
  return fill(forms[plural.select(n)] || forms.other, { ...values, n: number(n) });
}

/**
 * longDate writes a YYYY-MM-DD date in full as the language does:
 * "17 February 2026", "17 de febrero de 2026", "2026年2月17日".
 * @param {string} iso
 */
export function longDate(iso) {
  const [y, m, d] = (iso || "").split("-").map(Number);
  return y && m && d ? fill(words.date, { day: number(d), month: words.months[m - 1], year: number(y) }) : iso;
}
