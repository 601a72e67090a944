// The tokenizer frame's script (runs in the browser, inside /tokenizer/card and
// /tokenizer/bank_account only). The card or bank fields live in this frame alone: the page around
// it never sees the card number, the CVC or the account number. It checks them with the same rules
// as the server (lib/payments/card-check.ts, the ABA checksum), sends them to POST /v1/tokens with
// the merchant's publishable key, and hands the page only the token.

import { must } from "../must";
import { type CardProblem, checkCard, typedCardNetwork } from "../payments/card-check";
import { abaChecksumValid, isAccountNumber } from "../schemas/aba";

type Messages = Record<CardProblem["code"] | "required" | "network" | "declined", string>;
type Field = "number" | "exp" | "cvc";

// The elements and attributes below are the frame's own page's (written by the server): always there.
const root = must(document.getElementById("tokenizer"), "#tokenizer");
const key = must(root.dataset.key, "key");
const isBank = root.dataset.kind === "bank_account";
/** The pay page framing this one (checked by the server against the service's hosts): the only origin messages go to or come from. */
const parentOrigin = must(root.dataset.parent, "parent origin");
const messages = JSON.parse(must(root.dataset.messages, "messages")) as Messages;
const inputs: Record<Field, HTMLInputElement> = {
  number: document.getElementById("card-number") as HTMLInputElement,
  exp: document.getElementById("card-exp") as HTMLInputElement,
  cvc: document.getElementById("card-cvc") as HTMLInputElement,
};
const fieldOf = (problem: CardProblem["field"]): Field =>
  problem === "number" ? "number" : problem === "cvc" ? "cvc" : "exp";

function post(message: Record<string, unknown>) {
  window.parent.postMessage({ source: "tokenizer", ...message }, parentOrigin);
}

function showErrors(errors: Partial<Record<Field, string>>) {
  for (const field of Object.keys(inputs) as Field[]) {
    const input = inputs[field];
    const slot = must(document.getElementById(`${input.id}-error`), `#${input.id}-error`);
    const message = errors[field];
    slot.textContent = message ?? "";
    if (message) input.setAttribute("aria-invalid", "true");
    else input.removeAttribute("aria-invalid");
  }
  const first = (Object.keys(inputs) as Field[]).find((f) => errors[f]);
  if (first) inputs[first].focus();
  resize();
}

function resize() {
  // The form, not the document: a document is never shorter than its frame, so it could not shrink.
  // (The form is its own formatting context: its last field's margin is inside its height.)
  post({ type: "resize", height: root.getBoundingClientRect().height });
}

// The frame grows to its form, so it never scrolls: a focused field scrolled into view while an
// error line grew the form (before the page resized the frame) would leave the first field hidden
// above a blank band. The page around it scrolls instead.
window.addEventListener("scroll", () => {
  if (window.scrollY !== 0 || window.scrollX !== 0) window.scrollTo(0, 0);
});

// Card number in groups of four as typed; expiry as MM / YY.
if (!isBank) wireCardFields();
function wireCardFields() {
  // The card's network shown beside the number once its first digits say it (Visa, Mastercard...).
  const brand = document.getElementById("card-brand");
  inputs.number.addEventListener("input", () => {
    const digits = inputs.number.value.replace(/\D/g, "").slice(0, 19);
    inputs.number.value = digits.replace(/(\d{4})(?=\d)/g, "$1 ");
    if (brand) brand.textContent = typedCardNetwork(digits) ?? "";
  });
  inputs.exp.addEventListener("input", () => {
    const digits = inputs.exp.value.replace(/\D/g, "").slice(0, 4);
    inputs.exp.value = digits.length > 2 ? `${digits.slice(0, 2)} / ${digits.slice(2)}` : digits;
  });
  inputs.cvc.addEventListener("input", () => {
    inputs.cvc.value = inputs.cvc.value.replace(/\D/g, "").slice(0, 4);
  });
}
// Enter in any field pays (the page's button), in both kinds of frame.
for (const input of Array.from(root.querySelectorAll("input"))) {
  input.addEventListener("keydown", (event) => {
    if (event.key === "Enter") {
      event.preventDefault();
      post({ type: "submit" });
    }
  });
}

// The bank account: digits only as typed; the routing number's checksum before anything is sent.
type BankField = "holder" | "routing" | "account";
const bankInputs: Record<BankField, HTMLInputElement> = {
  holder: document.getElementById("bank-holder") as HTMLInputElement,
  routing: document.getElementById("bank-routing") as HTMLInputElement,
  account: document.getElementById("bank-account") as HTMLInputElement,
};
if (isBank)
  for (const field of ["routing", "account"] as const)
    bankInputs[field].addEventListener("input", () => {
      bankInputs[field].value = bankInputs[field].value.replace(/\D/g, "");
    });

function showBankErrors(errors: Partial<Record<BankField, string>>) {
  for (const field of Object.keys(bankInputs) as BankField[]) {
    const input = bankInputs[field];
    must(document.getElementById(`${input.id}-error`), `#${input.id}-error`).textContent = errors[field] ?? "";
    if (errors[field]) input.setAttribute("aria-invalid", "true");
    else input.removeAttribute("aria-invalid");
  }
  const first = (Object.keys(bankInputs) as BankField[]).find((f) => errors[f]);
  if (first) bankInputs[first].focus();
  resize();
}

async function tokenizeBank() {
  const m = messages as unknown as Record<
    "required" | "invalid_routing" | "invalid_account" | "network" | "declined",
    string
  >;
  const account = {
    account_holder_name: bankInputs.holder.value.trim(),
    routing_number: bankInputs.routing.value,
    account_number: bankInputs.account.value,
    account_type: (document.getElementById("bank-type") as HTMLSelectElement).value,
  };
  const errors: Partial<Record<BankField, string>> = {};
  if (!account.account_holder_name) errors.holder = m.required;
  if (!account.routing_number) errors.routing = m.required;
  else if (!abaChecksumValid(account.routing_number)) errors.routing = m.invalid_routing;
  if (!account.account_number) errors.account = m.required;
  else if (!isAccountNumber(account.account_number)) errors.account = m.invalid_account;
  if (Object.keys(errors).length) {
    showBankErrors(errors);
    post({ type: "invalid" });
    return;
  }
  showBankErrors({});
  try {
    const res = await fetch("/v1/tokens", {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${key}` },
      body: JSON.stringify({ bank_account: account }),
    });
    const body = await res.json();
    if (res.ok) {
      post({ type: "token", token: body.id, bank_account: { last4: body.bank_account.last4 } });
      return;
    }
    const fromServer: Partial<Record<BankField, string>> = {};
    for (const e of body.error?.errors ?? []) {
      const param = String(e.param);
      if (param.endsWith("routing_number")) fromServer.routing = m.invalid_routing;
      else if (param.endsWith("account_number")) fromServer.account = m.invalid_account;
      else if (param.endsWith("account_holder_name")) fromServer.holder = m.required;
    }
    if (Object.keys(fromServer).length) {
      showBankErrors(fromServer);
      post({ type: "invalid" });
    } else post({ type: "error", message: res.status === 403 ? m.declined : m.network });
  } catch {
    post({ type: "error", message: m.network });
  }
}

async function tokenize() {
  const [month = "", year = ""] = inputs.exp.value.split("/").map((p) => p.trim());
  const card = {
    number: inputs.number.value.replace(/\s/g, ""),
    exp_month: month,
    exp_year: year.length === 2 ? `20${year}` : year,
    cvc: inputs.cvc.value,
  };
  const errors: Partial<Record<Field, string>> = {};
  if (!card.number) errors.number = messages.required;
  if (!inputs.exp.value) errors.exp = messages.required;
  if (!card.cvc) errors.cvc = messages.required;
  const checked = checkCard(card);
  if (!checked.ok) for (const p of checked.problems) errors[fieldOf(p.field)] ??= messages[p.code];
  if (Object.keys(errors).length) {
    showErrors(errors);
    post({ type: "invalid" });
    return;
  }
  showErrors({});
  try {
    const res = await fetch("/v1/tokens", {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${key}` },
      body: JSON.stringify({
        card: { number: card.number, exp_month: Number(month), exp_year: Number(card.exp_year), cvc: card.cvc },
      }),
    });
    const body = await res.json();
    if (res.ok) {
      post({ type: "token", token: body.id, card: { brand: body.card.brand, last4: body.card.last4 } });
      return;
    }
    const fromServer: Partial<Record<Field, string>> = {};
    for (const e of body.error?.errors ?? []) {
      const field = String(e.param).replace("card.", "") as CardProblem["field"];
      fromServer[fieldOf(field)] ??=
        messages.invalid_number && field === "number"
          ? messages.invalid_number
          : field === "cvc"
            ? messages.invalid_cvc
            : messages.invalid_expiry;
    }
    if (Object.keys(fromServer).length) {
      showErrors(fromServer);
      post({ type: "invalid" });
    } else {
      post({ type: "error", message: res.status === 403 ? messages.declined : messages.network });
    }
  } catch {
    post({ type: "error", message: messages.network });
  }
}

window.addEventListener("message", (event) => {
  if (event.origin !== parentOrigin || event.source !== window.parent) return;
  const data = event.data as { type?: string };
  if (data?.type === "tokenize") void (isBank ? tokenizeBank() : tokenize());
  if (data?.type === "focus") (isBank ? bankInputs.holder : inputs.number).focus();
  // The page may start listening after this frame loaded: it asks for the height again.
  if (data?.type === "measure") resize();
});
new ResizeObserver(resize).observe(root);
// Marked for whoever waits on the frame (the journeys): its fields now answer.
root.dataset.ready = "true";
post({ type: "ready" });
