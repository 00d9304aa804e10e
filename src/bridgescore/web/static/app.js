// bridgescore pages: call the JSON API as you type. No framework, no build step.
"use strict";

const $ = (id) => document.getElementById(id);

async function post(path, body) {
  const response = await fetch(path, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });
  const data = await response.json().catch(() => ({ detail: response.statusText }));
  if (!response.ok) {
    throw new Error(typeof data.detail === "string" ? data.detail : response.statusText);
  }
  return data;
}

function cell(tag, text, attrs) {
  const element = document.createElement(tag);
  element.textContent = text;
  for (const [key, value] of Object.entries(attrs || {})) element.setAttribute(key, value);
  return element;
}

// ---- Score ---------------------------------------------------------------

function initScore() {
  const input = $("result");
  const vulnerable = $("vulnerable");
  const error = $("result-error");
  let pending = 0;

  async function update() {
    const ticket = ++pending;
    const text = input.value;
    if (!text.trim()) {
      error.textContent = "";
      input.removeAttribute("aria-invalid");
      $("answer").hidden = true;
      return;
    }
    try {
      const data = await post("/api/score", { result: text, vulnerable: vulnerable.checked });
      if (ticket !== pending) return; // a newer keystroke has answered or will
      error.textContent = "";
      input.removeAttribute("aria-invalid");
      showScore(data);
    } catch (problem) {
      if (ticket !== pending) return;
      error.textContent = problem.message;
      input.setAttribute("aria-invalid", "true");
      $("answer").hidden = true;
    }
  }

  function showScore(data) {
    $("answer").hidden = false;
    $("answer-result").textContent = data.result;
    $("answer-vul").textContent = data.vulnerable ? "vulnerable" : "not vulnerable";
    $("score").textContent = data.score;
    $("ns-score").textContent =
      data.ns_score === null ? "" : "NS " + (data.ns_score > 0 ? "+" : "") + data.ns_score;
    const body = $("breakdown").tBodies[0];
    body.replaceChildren();
    for (const [name, value] of Object.entries(data.breakdown)) {
      if (!value) continue;
      const row = cell("tr", "", { "data-part": name });
      row.append(cell("th", name.replaceAll("_", " ")), cell("td", String(value)));
      body.append(row);
    }
    $("breakdown-total").textContent = data.score;
  }

  function fromPickers() {
    const level = Number($("pick-level").value);
    const declarer = $("pick-declarer").value;
    const tricks = Number($("pick-tricks").value);
    const relative = tricks - level - 6;
    const outcome = relative === 0 ? "=" : (relative > 0 ? "+" : "") + relative;
    input.value =
      level + $("pick-strain").value + $("pick-doubling").value + declarer + outcome;
    const vul = $("pick-vulnerability").value;
    const side = declarer === "N" || declarer === "S" ? "NS" : "EW";
    vulnerable.checked = vul === "Both" || vul === side;
    update();
  }

  input.addEventListener("input", update);
  vulnerable.addEventListener("change", update);
  for (const id of ["pick-level", "pick-strain", "pick-doubling", "pick-declarer",
                    "pick-vulnerability", "pick-tricks"]) {
    $(id).addEventListener("change", fromPickers);
  }
  $("score-form").addEventListener("submit", (event) => {
    event.preventDefault();
    update();
  });
}

// ---- Deal ----------------------------------------------------------------

const SUITS = [["S", "♠"], ["H", "♥"], ["D", "♦"], ["C", "♣"]];
const PBN_STRAINS = ["NT", "S", "H", "D", "C"];
const PBN_SEATS = ["N", "S", "E", "W"];

function initDeal() {
  const error = $("deal-error");
  let pending = 0;

  function fail(problem) {
    error.textContent = problem.message;
    $("pbn").setAttribute("aria-invalid", "true");
  }

  function showHands(info) {
    $("deal-answer").hidden = false;
    $("deal-pbn").textContent = info.deal + (info.seed === null ? "" : "  (seed " + info.seed + ")");
    for (const hand of document.querySelectorAll("#diagram .hand")) {
      const seat = hand.dataset.seat;
      hand.replaceChildren(cell("div", seat + " · " + info.hcp[seat] + " HCP", { class: "seat" }));
      for (const [letter, symbol] of SUITS) {
        const line = cell("div", "", { class: "suit suit-" + letter });
        line.append(cell("span", symbol, { class: "symbol" }),
                    document.createTextNode(" " + (info.hands[seat][letter] || "—")));
        hand.append(line);
      }
    }
    const body = $("dd-grid").tBodies[0];
    body.replaceChildren();
    $("dd-hex").textContent = "solving…";
    $("par-neutral").textContent = "";
    $("par-dealer").textContent = "";
    $("review").hidden = true;
    $("review-board").replaceChildren();
  }

  function showTable(solved) {
    const body = $("dd-grid").tBodies[0];
    for (const strain of PBN_STRAINS) {
      const row = cell("tr", "", { "data-strain": strain });
      row.append(cell("th", strain === "NT" ? "NT" : SUITS.find((s) => s[0] === strain)[1]));
      for (const seat of PBN_SEATS) row.append(cell("td", String(solved.table[seat][strain])));
      body.append(row);
    }
    $("dd-hex").textContent = "PBN DoubleDummyTricks " + solved.dd;
  }

  function showPar(target, par) {
    target.replaceChildren(cell("strong", par.score === 0 ? "0" : (par.score > 0 ? "NS +" + par.score : "EW +" + -par.score)));
    const list = cell("ul", "");
    for (const contract of par.contracts) list.append(cell("li", contract));
    if (!par.contracts.length) list.append(cell("li", "passed out"));
    target.append(list);
  }

  async function analyse(info) {
    const ticket = ++pending;
    showHands(info);
    const solved = await post("/api/solve", { deal: info.deal });
    if (ticket !== pending) return;
    showTable(solved);
    const vulnerability = $("deal-vulnerability").value;
    const seat = $("deal-dealer").value;
    const [neutral, dealer] = await Promise.all([
      post("/api/par", { dd: solved.dd, vulnerability, dealer: null }),
      post("/api/par", { dd: solved.dd, vulnerability, dealer: seat }),
    ]);
    if (ticket !== pending) return;
    $("par-neutral-label").textContent = "Neutral · vul " + vulnerability;
    $("par-dealer-label").textContent = "Dealer first · " + seat + " deals";
    showPar($("par-neutral"), neutral);
    showPar($("par-dealer"), dealer);
    if (info.played) {
      // A record with its auction and play: the review, as `bridgescore analyse --html`
      // draws it (server-built HTML, every text escaped there).
      const reviewed = await post("/api/analyse", { deal: $("pbn").value });
      if (ticket !== pending) return;
      $("review-board").innerHTML = reviewed.html;
      $("review").hidden = false;
    }
  }

  async function run(getInfo) {
    error.textContent = "";
    $("pbn").removeAttribute("aria-invalid");
    try {
      await analyse(await getInfo());
    } catch (problem) {
      fail(problem);
    }
  }

  $("deal-form").addEventListener("submit", (event) => {
    event.preventDefault();
    run(async () => {
      const info = await post("/api/deal", { deal: $("pbn").value });
      // A LIN record or handviewer link names its dealer and vulnerability: use them.
      if (info.dealer) $("deal-dealer").value = info.dealer;
      if (info.vulnerability) $("deal-vulnerability").value = info.vulnerability;
      return info;
    });
  });
  $("random").addEventListener("click", () => {
    run(async () => {
      const seed = $("seed").value.trim();
      const response = await fetch("/api/deal/random" + (seed ? "?seed=" + encodeURIComponent(seed) : ""));
      const data = await response.json();
      if (!response.ok) throw new Error(typeof data.detail === "string" ? data.detail : response.statusText);
      $("pbn").value = data.deal;
      $("seed").value = data.seed;
      return data;
    });
  });
  for (const id of ["deal-vulnerability", "deal-dealer"]) {
    $(id).addEventListener("change", () => {
      if ($("pbn").value.trim()) run(() => post("/api/deal", { deal: $("pbn").value }));
    });
  }
}

document.addEventListener("DOMContentLoaded", () => {
  const page = document.body.dataset.page;
  if (page === "score") initScore();
  if (page === "deal") initDeal();
});
