#!/usr/bin/env node
// The architecture review's counts (issue "Architecture before the money grows"), over the source
// (app, components, lib, proxy.ts, server.ts; no tests, migrations or .d.ts): non-null assertions and
// `as never` casts (TypeScript's AST), files over 300 lines, writes of the merchant row outside
// lib/domain/merchants, requirement lists merged by hand, scopes built by hand, AppError turned into
// an answer outside the edge helpers, and Content-Security-Policies written outside lib/net/csp.ts.
import fs from "node:fs";
import path from "node:path";

import ts from "typescript";

import { root, sourceFiles } from "./source-files.mjs";

const files = sourceFiles().filter((rel) => /^(app|components|lib)\/|^(proxy|server)\.ts$/.test(rel));

let nonNull = 0;
let asNever = 0;
let anyTypes = 0;
const long = [];
const counts = {
  merchantWrites: [],
  handMerged: [],
  handScopes: [],
  errorConversions: [],
  cspOutside: [],
  // The money issue's three (issue "Money read in one place"): the ledger's tables read outside
  // lib/ledger, "now" read without the clock in the money folders, a settlement's id kept on a source row.
  ledgerReadsOutside: [],
  clockReads: [],
  settlementIdColumns: [],
};
for (const file of files) {
  const text = fs.readFileSync(path.join(root, file), "utf8");
  const lines = text.split("\n").length;
  if (lines > 300) long.push(`${file} (${lines})`);
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  (function visit(node) {
    if (ts.isNonNullExpression(node)) nonNull++;
    if (node.kind === ts.SyntaxKind.AnyKeyword) anyTypes++;
    if (ts.isAsExpression(node) && node.type.kind === ts.SyntaxKind.NeverKeyword) asNever++;
    ts.forEachChild(node, visit);
  })(source);
  const where = (re, list, allowed) => {
    if (allowed?.test(file)) return;
    for (const m of text.matchAll(re)) list.push(`${file}:${text.slice(0, m.index).split("\n").length}`);
  };
  where(/\.update\(merchants\)/g, counts.merchantWrites, /^lib\/domain\/merchants\//);
  where(
    /currently_due: \[\.\.\.new Set|\.currently_due\.filter\(|errors: \[\s*\.\.\.\(\w+\??\.errors/g,
    counts.handMerged,
    /^lib\/domain\/merchants\/requirements\.ts$/,
  );
  where(/\{ isvAccountId: \w+\.isvAccountId, merchantId: \w+\.id \}/g, counts.handScopes, /^lib\/domain\/scope\.ts$/);
  where(/instanceof AppError/g, counts.errorConversions, /^lib\/(api\/app|actions\/result|home\/route|errors)\.ts$/);
  where(/["'`]default-src /g, counts.cspOutside, /^lib\/net\/csp\.ts$/);
  where(
    /\bledger(Postings|Entries)\b|\bledger_(postings|entries)\b/g,
    counts.ledgerReadsOutside,
    /^lib\/(ledger|db)\//,
  );
  if (/^lib\/(domain|ledger|jobs|payouts)\//.test(file)) where(/new Date\(\)|Date\.now\(\)/g, counts.clockReads);
}
// The source rows' settlement ids (charges, refunds, disputes): the ledger's postings say what a settlement took.
// Every schema file but the ledger's and the settlements' own (a payout's settlement is provenance).
const exempt = new Set(["lib/db/schema/ledger.ts", "lib/db/schema/settlements.ts", "lib/db/schema/payouts.ts"]);
for (const file of files.filter((f) => f.startsWith("lib/db/schema/") && !exempt.has(f))) {
  const text = fs.readFileSync(path.join(root, file), "utf8");
  for (const m of text.matchAll(/text\("(\w*settlement_id)"\)/g))
    counts.settlementIdColumns.push(`${file}:${text.slice(0, m.index).split("\n").length} (${m[1]})`);
}
console.log(`source files: ${files.length}`);
console.log(`non-null assertions: ${nonNull}; as never: ${asNever}; any: ${anyTypes}`);
console.log(`files over 300 lines: ${long.length}${long.length ? ` (${long.join(", ")})` : ""}`);
// The ledger's readers by file (how many references each), not line by line.
const byFile = new Map();
for (const at of counts.ledgerReadsOutside) byFile.set(at.split(":")[0], (byFile.get(at.split(":")[0]) ?? 0) + 1);
console.log(
  `ledger tables read outside lib/ledger: ${counts.ledgerReadsOutside.length} references in ${byFile.size} files` +
    [...byFile].map(([file, n]) => `\n  ${file} (${n})`).join(""),
);
delete counts.ledgerReadsOutside;
for (const [name, list] of Object.entries(counts))
  console.log(`${name}: ${list.length}${list.length ? `\n  ${list.join("\n  ")}` : ""}`);
