import { randomUUID } from "node:crypto";
import fs from "node:fs";

import { afterAll, beforeAll, describe, expect, test } from "vitest";

import { startTestApi, type TestApi } from "./helpers/api";
import { application } from "./helpers/fixtures";
import { onboardMerchant, openLink } from "./helpers/onboarding";
import { appFor, nextCode } from "./helpers/sign-in";

// Every curl example of the README and the guides runs as written (issue 71: an example once sent a
// field the API refuses), in its document's order, against the real HTTP app: the shell's words
// read as a shell reads them (quotes, $VAR, the command substitutions the docs use), the
// placeholders the prose explains (`mer_…` the merchant just made, `pr_…` the request, `tok_…` the
// token, `pk_test_…` the merchant's publishable key, `<the link's url>`) taken from the answers
// before, and the steps the prose asks of a person (the merchant fills the wizard) done between.
// Each must answer 2xx. A command the runner cannot read fails the test: write the example so it can.

const DOCS = ["README.md", "docs/quickstart.md", "docs/webhooks.md"] as const;

let api: TestApi;
let isv: Awaited<ReturnType<TestApi["newIsv"]>>;
beforeAll(async () => {
  api = await startTestApi({ worker: true });
  isv = await api.newIsv("Docs ISV");
}, 60_000);
afterAll(() => api?.close());

/** The shell commands of a document's sh/bash blocks, continued lines joined, comments kept out. */
function shellCommands(markdown: string): string[] {
  const out: string[] = [];
  for (const block of markdown.matchAll(/^```(?:sh|bash)\n([\s\S]*?)^```/gm)) {
    const text = (block[1] ?? "").replace(/<<'EOF'\n[\s\S]*?\nEOF\n/g, "<<'EOF'\n");
    let current = "";
    for (const line of text.split("\n")) {
      current += line;
      if (current.endsWith("\\")) current = current.slice(0, -1);
      else if (openQuote(current)) current += "\n";
      else {
        if (current.trim()) out.push(current.trim());
        current = "";
      }
    }
  }
  return out;
}

/** Whether a shell line ends inside a quoted string (the command goes on on the next line). */
function openQuote(line: string) {
  let quote: string | null = null;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (quote === null && c === "\\") i++;
    else if (quote === '"' && c === "\\") i++;
    else if (quote === null && (c === "'" || c === '"')) quote = c;
    else if (c === quote) quote = null;
    else if (quote === null && c === "#" && (i === 0 || /\s/.test(line[i - 1] ?? ""))) break;
  }
  return quote !== null;
}

/** A command's words as a shell splits them: quotes removed, $VAR and $(…) expanded by `expand`. */
function shellWords(command: string, expand: (name: string) => string, substitute: (cmd: string) => string) {
  const words: string[] = [];
  let word: string | null = null;
  let i = 0;
  const add = (s: string) => (word = (word ?? "") + s);
  const variable = () => {
    if (command[i + 1] === "(") {
      let depth = 0;
      let j = i + 1;
      for (; j < command.length; j++) {
        if (command[j] === "(") depth++;
        else if (command[j] === ")" && --depth === 0) break;
      }
      const inner = command.slice(i + 2, j);
      i = j + 1;
      return substitute(inner);
    }
    const m = /^\$\{?([A-Za-z_][A-Za-z0-9_]*)\}?/.exec(command.slice(i));
    if (!m) {
      i++;
      return "$";
    }
    i += m[0].length;
    return expand(m[1] ?? "");
  };
  while (i < command.length) {
    const c = command[i] ?? "";
    if (/\s/.test(c)) {
      if (word !== null) words.push(word);
      word = null;
      i++;
    } else if (c === "#" && word === null) break;
    else if (c === "'") {
      const end = command.indexOf("'", i + 1);
      if (end < 0) fail(`an unclosed quote in ${command}`);
      add(command.slice(i + 1, end));
      i = end + 1;
    } else if (c === '"') {
      i++;
      add("");
      while (i < command.length && command[i] !== '"') {
        if (command[i] === "\\" && /["\\$`]/.test(command[i + 1] ?? "")) {
          add(command[i + 1] ?? "");
          i += 2;
        } else if (command[i] === "$") add(variable());
        else add(command[i++] ?? "");
      }
      if (i >= command.length) fail(`an unclosed quote in ${command}`);
      i++;
    } else if (c === "$") add(variable());
    else if (c === "\\") {
      add(command[i + 1] ?? "");
      i += 2;
    } else add(command[i++] ?? "");
  }
  if (word !== null) words.push(word);
  return words;
}

type Answer = { status: number; text: string; json: any };

/** What the answers so far have named, for the placeholders. */
class Context {
  vars: Record<string, string> = {};
  last = new Map<string, string>(); // an id's prefix → the latest such id
  publishable: string | null = null;
  linkUrl: string | null = null;
  merchantStatus = new Map<string, string>();

  remember(json: any) {
    if (!json || typeof json !== "object") return;
    if (typeof json.id === "string") {
      const prefix = /^([a-z]+)_/.exec(json.id)?.[1];
      if (prefix) this.last.set(prefix, json.id);
    }
    if (json.object === "onboarding_link" && typeof json.url === "string") this.linkUrl = json.url;
    if (typeof json.id === "string" && json.id.startsWith("mer_") && json.lead_onboarding_status)
      this.merchantStatus.set(json.id, json.lead_onboarding_status);
    const pk = json.payment?.tokenizer_publishable_key;
    if (typeof pk === "string") this.publishable = pk;
  }

  /** `mer_…`, `pr_…`, `tok_…`, `pk_test_…` and `<the link's url>` as the answers before named them. */
  fill(word: string) {
    return word
      .replace(/\bpk_test_…/g, () => this.publishable ?? fail("pk_test_… before any merchant with keys"))
      .replace(
        /\b([a-z]+)_…/g,
        (_, prefix: string) => this.last.get(prefix) ?? fail(`${prefix}_… before any such object`),
      )
      .replace(/<the link's url>/g, () => this.linkUrl ?? fail("a link's url before any onboarding link"));
  }
}

function fail(message: string): never {
  throw new Error(`the example cannot be run: ${message}`);
}

/** The prose's person: the merchant fills in the wizard (the sample application), signs and submits; then approval. */
async function onboardLatestMerchant(ctx: Context) {
  const id = ctx.last.get("mer") ?? fail("a merchant to onboard");
  const approved = await onboardMerchant(api, isv, id);
  ctx.remember(approved);
}

/** Runs one curl command's words with fetch; the answer. */
async function curl(words: string[], ctx: Context): Promise<Answer> {
  let method: string | null = null;
  let body: string | null = null;
  let url: string | null = null;
  const headers: Record<string, string> = {};
  for (let i = 1; i < words.length; i++) {
    const w = words[i] ?? "";
    if (w === "-u") {
      headers.authorization = `Basic ${Buffer.from(ctx.fill(words[++i] ?? "")).toString("base64")}`;
    } else if (w === "-X") method = words[++i] ?? null;
    else if (w === "-H") {
      const [name, ...value] = ctx.fill(words[++i] ?? "").split(":");
      headers[(name ?? "").trim().toLowerCase()] = value.join(":").trim();
    } else if (w === "-d") body = ctx.fill(words[++i] ?? "");
    else if (w === "-s" || w === "-i") continue;
    else if (/^https?:\/\//.test(w)) url = ctx.fill(w);
    else fail(`curl option ${w}`);
  }
  if (!url) fail(`a URL in ${words.join(" ")}`);
  const target = new URL(url);
  const res = await fetch(api.baseUrl + target.pathname + target.search, {
    method: method ?? (body !== null ? "POST" : "GET"),
    headers,
    body,
  });
  const text = await res.text();
  let json: any = null;
  try {
    json = JSON.parse(text);
  } catch {
    // not JSON (a PDF, a PNG): the status says enough
  }
  ctx.remember(json);
  return { status: res.status, text, json };
}

async function runDocument(file: string) {
  const ctx = new Context();
  const ran: string[] = [];
  const user = {
    ACCOUNT_SID: isv.account_sid,
    SECRET_KEY: isv.secret_key,
    DEMO_EMAIL: isv.user_email,
    DEMO_PASSWORD: isv.password,
    // The six digits of the owner's authenticator app, set up as the README says (in the dashboard).
    CODE: nextCode(await appFor(api.db, isv.user_email)),
  };
  Object.assign(ctx.vars, user, { API: "http://localhost:3000", BASE: "http://localhost:3000" });
  const expand = (name: string) => ctx.vars[name] ?? fail(`$${name} is not set by the document`);
  const substitute = (inner: string) => {
    if (inner.trim() === "uuidgen") return randomUUID();
    if (inner.trim() === "cat application.json") return JSON.stringify({ ...application(), tin: "000000000" });
    return fail(`$(${inner})`);
  };
  const commands = shellCommands(fs.readFileSync(file, "utf8"));
  for (const command of commands) {
    const session = /^(\w+)=\$\(curl .*"<the link's url>".*onboarding_session=/.exec(command);
    if (session) {
      ctx.vars[session[1] ?? ""] = (await openLink(api, ctx.fill("<the link's url>"))).replace(/^Bearer /, "");
      continue;
    }
    const exported = /^export (\w+)=(\S+)/.exec(command);
    if (exported) {
      ctx.vars[exported[1] ?? ""] = ctx.fill(shellWords(exported[2] ?? "", expand, substitute)[0] ?? "");
      continue;
    }
    if (!command.startsWith("curl ")) continue;
    const words = shellWords(command, expand, substitute);
    const path = new URL(ctx.fill(words.find((w) => /^https?:\/\//.test(w)) ?? fail(command))).pathname;
    // The prose's steps between the commands: a payment needs the merchant approved (the README's
    // merchant fills the wizard in a browser), and a pay call a request still to pay.
    if (path === "/v1/scan_to_pay") await onboardLatestMerchant(ctx);
    // "Invoices and manual requests can also be paid by bank account": the ACH example pays an invoice.
    if (path === "/v1/tokens" && command.includes('"bank_account"')) {
      const invoice = await api.call("POST", "/v1/invoice", {
        auth: isv.auth,
        body: { merchant_id: ctx.last.get("mer"), amount: 4_000, send_via: "none" },
      });
      expect(invoice.status, invoice.text).toBe(200);
      ctx.remember(invoice.json);
    }
    if (/^\/v1\/payment_requests\/[^/]+\/pay$/.test(path) && path.includes("…")) {
      const open = ctx.last.get("pr");
      const state = open ? (await api.call("GET", `/v1/payment_requests/${open}`, { auth: isv.auth })).json : null;
      if (state?.status !== "PENDING") fail("a pay call without a request still to pay");
    }
    const answer = await curl(words, ctx);
    ran.push(`${answer.status} ${command.slice(0, 100)}`);
    expect(answer.status, `${file}: ${command}\n→ ${answer.text.slice(0, 400)}`).toBeLessThan(300);
  }
  return { ran, curls: commands.filter((c) => c.startsWith("curl ")).length };
}

describe("the documents' curl examples run as written", () => {
  for (const file of DOCS)
    test(
      file,
      async () => {
        const { ran, curls } = await runDocument(file);
        expect(curls, `${file} has curl examples`).toBeGreaterThan(0);
        expect(ran, "every curl example ran").toHaveLength(curls);
      },
      90_000,
    );
});
