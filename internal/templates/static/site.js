// The home page's live checker. The form itself goes to /go, which sends
// the visitor to the route's static page at no cost; the live check is an
// explicit extra that asks the API and uses one of the free daily checks,
// as the sentence beside its button says before it is used.
(function () {
  "use strict";
  var form = document.querySelector("[data-checker]");
  var out = document.querySelector("[data-result]");
  if (!form || !out) return;
  function show(parts) {
    out.textContent = "";
    parts.forEach(function (p) {
      var el = document.createElement(p.href ? "a" : "p");
      el.textContent = p.text;
      if (p.href) el.href = p.href;
      out.appendChild(el);
    });
  }
  var months = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"];
  function longDate(iso) {
    var p = String(iso || "").split("-").map(Number);
    return p.length === 3 && p[1] ? p[2] + " " + months[p[1] - 1] + " " + p[0] : String(iso);
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
  live.addEventListener("click", function () {
    if (!form.reportValidity()) return;
    var p = codeOf(form.passport), d = codeOf(form.destination);
    if (!p || !d) {
      show([{ text: "Choose the " + (p ? "destination" : "passport") + " from the list, or use the button above: it understands other names and codes too." }]);
      return;
    }
    var page = "/passports/" + p.toLowerCase() + "/" + d.toLowerCase() + "/";
    show([{ text: "Checking…" }]);
    fetch("/free/check?passport=" + encodeURIComponent(p) + "&destination=" + encodeURIComponent(d), { headers: { Accept: "application/json" } })
      .then(function (r) { return r.json().then(function (body) { return { status: r.status, body: body }; }); })
      .then(function (res) {
        var b = res.body;
        if (res.status === 429) {
          show([{ text: "The daily free checks are used up (" + b.scope + "). Every answer is also on its page:" }, { text: "Open the page", href: page }]);
          return;
        }
        if (res.status !== 200) {
          show([{ text: b.message || "The check failed." }]);
          return;
        }
        var stay = b.allowed_stay_days ? ", up to " + b.allowed_stay_days + " days" : "";
        var v = b.verdict_verification || {};
        var asOf = "As of " + longDate(v.as_of) + "." + (v.old ? " This is more than " + v.old_after_days + " days old: the rule may have changed, so confirm it with the official authority." : "");
        show([{ text: b.requirement_label + stay + "." }, { text: asOf }, { text: b.disclaimer }, { text: "Full answer with the entry rules and their sources", href: page }]);
      })
      .catch(function () {
        show([{ text: "The checker could not reach the service. The answer is on its page:" }, { text: "Open the page", href: page }]);
      });
  });
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
