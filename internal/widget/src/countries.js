// The 199 countries of the matrix, named in the bundle's language (CLDR's
// names) and sorted as that language sorts them, inlined at build time by
// the widget's Go bundler as "AFGAfghanistan|ALBAlbania|...": the ISO3
// code, then the name.
import list from "entrycheck:countries";

/** @type {Map<string, string>} ISO3 code to name */
export const names = new Map(list.split("|").map((s) => [s.slice(0, 3), s.slice(3)]));

/** label is what the pickers show and accept: "Germany (DEU)". */
export const label = (code) => `${names.get(code)} (${code})`;

/**
 * codeOf reads a picker's value: a code in any case, a label, or a name.
 * @param {string} value
 * @returns {string|null} the ISO3 code, or null when no country matches
 */
export function codeOf(value) {
  const v = value.trim();
  const code = (/^\(?([a-z]{3})\)?$/i.exec(v) || /\(([a-z]{3})\)$/i.exec(v) || [])[1];
  if (code && names.has(code.toUpperCase())) return code.toUpperCase();
  const lower = v.toLowerCase();
  for (const [c, n] of names) if (n.toLowerCase() === lower) return c;
  return null;
}
