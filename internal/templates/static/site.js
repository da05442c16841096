// The home page's live checker. The form itself goes to /go, which sends
// the visitor to the route's static page at no cost; the live check is an
// explicit extra that asks the API and uses one of the free daily checks.
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
  var live = form.querySelector("[data-live]"), hint = form.querySelector("[data-live-hint]");
  if (!live) return;
  live.hidden = false;
  if (hint) hint.hidden = false;
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
