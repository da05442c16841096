// The home page's live checker. The form itself goes to /go, which sends
// the visitor to the route's static page at no cost; the live check is an
// explicit extra that asks the API and uses one of the free daily checks,
// as the sentence beside its button says before it is used. Its words are
// the page's language's, handed in the form's data-words.
(function () {
  "use strict";
  var form = document.querySelector("[data-checker]");
  var out = document.querySelector("[data-result]");
  if (!form || !out || !form.hasAttribute("data-words")) return;
  var words = JSON.parse(form.getAttribute("data-words"));
  var lang = document.documentElement.lang || "en";
  function fill(text, values) {
    return text.replace(/\{(\w+)\}/g, function (all, name) { return name in values ? values[name] : all; });
  }
  function show(parts) {
    out.textContent = "";
    parts.forEach(function (p) {
      var el = document.createElement(p.href ? "a" : "p");
      el.textContent = p.text;
      if (p.href) el.href = p.href;
      out.appendChild(el);
    });
  }
  // digits writes a number as the page's language does, without grouping
  // for the parts of a date.
  function digits(n, grouping) {
    return new Intl.NumberFormat(lang, { useGrouping: grouping }).format(n);
  }
  function longDate(iso) {
    var p = String(iso || "").split("-").map(Number);
    if (p.length !== 3 || !p[1]) return String(iso);
    return fill(words.date, { day: digits(p[2], false), month: words.months[p[1] - 1], year: digits(p[0], false) });
  }
  function days(n) {
    var form = words.days[new Intl.PluralRules(lang).select(n)] || words.days.other;
    return fill(form, { n: digits(n, true) });
  }
  var box = form.querySelector("[data-live-box]"), live = form.querySelector("[data-live]");
  if (!box || !live) return;
  box.hidden = false;
  // codeOf finds the ISO3 code of what was typed: a name offered by the
  // type-ahead, or a three-letter code.
  function codeOf(input) {
    var typed = input.value.trim().toLowerCase();
    var opts = form.querySelectorAll("datalist option");
    for (var i = 0; i < opts.length; i++) {
      if (opts[i].value.toLowerCase() === typed || opts[i].getAttribute("data-code").toLowerCase() === typed) return opts[i].getAttribute("data-code");
    }
    return "";
  }
  var prefix = words.lang === "en" ? "" : "/" + words.lang;
  live.addEventListener("click", function () {
    if (!form.reportValidity()) return;
    var p = codeOf(form.passport), d = codeOf(form.destination);
    if (!p || !d) {
      show([{ text: p ? words.choose_destination : words.choose_passport }]);
      return;
    }
    var page = prefix + "/passports/" + p.toLowerCase() + "/" + d.toLowerCase() + "/";
    show([{ text: words.checking }]);
    fetch("/free/check?passport=" + encodeURIComponent(p) + "&destination=" + encodeURIComponent(d) + "&lang=" + encodeURIComponent(words.lang), { headers: { Accept: "application/json" } })
      .then(function (r) { return r.json().then(function (body) { return { status: r.status, body: body }; }); })
      .then(function (res) {
        var b = res.body;
        if (res.status === 429) {
          show([{ text: fill(words.used_up, { scope: b.scope }) }, { text: words.open_page, href: page }]);
          return;
        }
        if (res.status !== 200) {
          show([{ text: b.message || words.failed }]);
          return;
        }
        var verdict = b.allowed_stay_days ? fill(words.with_stay, { requirement: b.requirement_label, stay: days(b.allowed_stay_days) }) : b.requirement_label;
        var v = b.verdict_verification || {};
        var asOf = fill(words.as_of, { date: longDate(v.as_of) }) + (v.old && v.confirm ? " " + v.confirm : "");
        show([{ text: verdict + "." }, { text: asOf }, { text: b.disclaimer }, { text: words.full_answer, href: page }]);
      })
      .catch(function () {
        show([{ text: words.unreachable }, { text: words.open_page, href: page }]);
      });
  });
})();

// The English home page's offer of the visitor's language: the browser's
// preferred languages (navigator.languages, which follow Accept-Language)
// are read in order, and the first the site has, before English, shows
// its notice, written in that language and linking to its home page. The
// page never moves on its own.
(function () {
  "use strict";
  var offers = document.querySelectorAll("[data-language-offer]");
  if (!offers.length) return;
  var preferred = navigator.languages && navigator.languages.length ? navigator.languages : [navigator.language || ""];
  for (var i = 0; i < preferred.length; i++) {
    var code = String(preferred[i]).toLowerCase().split("-")[0];
    if (code === "en") return;
    for (var j = 0; j < offers.length; j++) {
      if (offers[j].getAttribute("data-language-offer") === code) {
        offers[j].hidden = false;
        return;
      }
    }
  }
})();

// The indexes' filter: the list is whole without the script, which shows
// the input and hides the countries whose name (or code, in the link)
// does not contain what is typed, accents and case aside.
(function () {
  "use strict";
  var box = document.querySelector("[data-filter-box]"), list = document.querySelector("[data-filtered]");
  if (!box || !list) return;
  var input = box.querySelector("[data-filter]"), only = box.querySelector("[data-filter-marked]");
  var none = document.querySelector("[data-filter-none]");
  function fold(s) {
    return s.normalize("NFD").replace(/[\u0300-\u036f]/g, "").toLowerCase().trim();
  }
  var items = Array.prototype.map.call(list.children, function (li) {
    var a = li.querySelector("a");
    var code = (a.getAttribute("href").split("/").filter(Boolean).pop() || "").toLowerCase();
    return { li: li, name: fold(a.textContent), code: code, marked: li.hasAttribute("data-marked") };
  });
  function apply() {
    var typed = fold(input.value), shown = 0;
    items.forEach(function (it) {
      var ok = (typed === "" || it.name.indexOf(typed) >= 0 || it.code === typed) && (!only || !only.checked || it.marked);
      it.li.hidden = !ok;
      if (ok) shown++;
    });
    if (none) none.hidden = shown > 0;
  }
  input.addEventListener("input", apply);
  if (only) only.addEventListener("change", apply);
  box.hidden = false;
  apply(); // a value the browser restored
})();
