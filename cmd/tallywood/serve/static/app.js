// The game page's script: options picked by click or key without
// reloading the page, and what happened shown one step at a time. Without
// it the page works as plain forms.
"use strict";

(function () {
  const main = document.getElementById("game");
  if (!main) return;

  let busy = false;

  // post sends a form's change as JSON and puts the answer in the page.
  async function post(form, body) {
    if (busy) return;
    busy = true;
    main.setAttribute("aria-busy", "true");
    try {
      const res = await fetch(form.action, {
        method: "POST",
        headers: {"Content-Type": "application/json", "Accept": "application/json"},
        body: JSON.stringify(body),
        credentials: "same-origin",
      });
      const answer = await res.json();
      if (!res.ok) {
        showError(answer.error || ("The server refused it (" + res.status + ")."));
        return;
      }
      main.innerHTML = answer.html;
      setUp(true);
    } catch (e) {
      showError("The server could not be reached: nothing was lost. Check the connection and pick again.");
    } finally {
      busy = false;
      main.removeAttribute("aria-busy");
    }
  }

  function showError(msg) {
    let p = main.querySelector(".error");
    if (!p) {
      p = document.createElement("p");
      p.className = "error";
      p.setAttribute("role", "alert");
      const d = main.querySelector(".decision") || main.querySelector(".play");
      d.prepend(p);
    }
    p.textContent = msg;
  }

  // steps: the Opposition's turn shown one step at a time after a change.
  let shown = 0;
  function steps() { return [...main.querySelectorAll(".steps > .step")]; }
  function showSteps(n) {
    const all = steps();
    shown = Math.min(n, all.length);
    all.forEach((s, i) => { s.hidden = i >= shown; });
    const bar = main.querySelector(".stepper");
    if (!bar) return;
    bar.hidden = shown >= all.length;
    const count = bar.querySelector(".step-count");
    if (count) count.textContent = "step " + shown + " of " + all.length;
    if (shown > 0) all[shown - 1].classList.add("current");
  }
  function nextStep() {
    steps().forEach((s) => s.classList.remove("current"));
    showSteps(shown + 1);
    const all = steps();
    if (shown > 0) all[shown - 1].scrollIntoView({block: "nearest"});
  }
  function allSteps() { showSteps(steps().length); }

  function setUp(afterChange) {
    const form = main.querySelector("form.options");
    if (form) {
      form.addEventListener("submit", (ev) => {
        ev.preventDefault();
        const button = ev.submitter;
        if (!button || !button.value) return;
        post(form, {n: Number(form.elements.n.value), option: button.value, csrf: form.elements.csrf.value});
      });
    }
    const hint = main.querySelector("form.hint-form");
    if (hint) {
      hint.addEventListener("submit", (ev) => {
        ev.preventDefault();
        post(hint, {csrf: hint.elements.csrf.value});
      });
    }
    const next = main.querySelector(".next-step");
    if (next) next.addEventListener("click", nextStep);
    const all = main.querySelector(".all-steps");
    if (all) all.addEventListener("click", allSteps);
    // After a change, the Opposition's steps one at a time; on a page
    // (re)loaded, all of them.
    showSteps(afterChange ? 1 : steps().length);
    if (afterChange) {
      const d = main.querySelector("#decision");
      if (d) d.focus({preventScroll: true});
    }
  }

  document.addEventListener("keydown", (ev) => {
    if (ev.altKey || ev.ctrlKey || ev.metaKey) return;
    const t = ev.target;
    if (t && (t.tagName === "INPUT" || t.tagName === "TEXTAREA" || t.tagName === "SELECT")) return;
    if (ev.key === "n") { nextStep(); ev.preventDefault(); return; }
    if (ev.key === "a") { allSteps(); ev.preventDefault(); return; }
    if (ev.key === "h") {
      const h = main.querySelector("form.hint-form button:not([disabled])");
      if (h) { h.click(); ev.preventDefault(); }
      return;
    }
    if (/^[0-9]$/.test(ev.key)) {
      const b = main.querySelector('form.options button[data-key="' + ev.key + '"]');
      if (b) { b.focus(); b.click(); ev.preventDefault(); }
    }
  });

  setUp(false);
})();
