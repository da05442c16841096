// Which language a checker speaks. The loader (embed.js) and each
// language's bundle (checkers.js) ask the same question of the same page,
// so they agree on the answer without writing it into the host's markup.
import languages from "entrycheck:languages";

/**
 * spoken is the language of a BCP 47 tag if the widget speaks it: a
 * regional or script variant is its language (pt-BR is pt, zh-Hans zh).
 * @param {string} tag
 * @returns {string|null}
 */
function spoken(tag) {
  const code = String(tag).trim().toLowerCase().split(/[-_]/)[0];
  return languages.includes(code) ? code : null;
}

/**
 * languageOf is the language of the checker el, by the first of these that
 * is given: its data-lang, its script element's data-lang (scriptLang),
 * the lang of the page around it (the nearest element that has one, up to
 * <html>), else the first language of the browser's the widget speaks. A
 * language it does not speak is English, the first of languages.
 * @param {HTMLElement} el
 * @param {string|undefined} scriptLang
 */
export function languageOf(el, scriptLang) {
  const asked = el.dataset.lang || scriptLang || (el.closest("[lang]") || {}).lang;
  if (asked) return spoken(asked) || languages[0];
  for (const tag of navigator.languages || [navigator.language]) {
    const code = tag && spoken(tag);
    if (code) return code;
  }
  return languages[0];
}
