#!/usr/bin/env node
// The import graph of the house, folder by folder (docs/decisions.md "Layers"): for each view (the
// whole house, lib, lib/domain), the rooms (folders one level down), the arrows between them, and the
// arrows that run back up: the fewest arrows whose removal leaves no circle between rooms (found
// exactly for small tangles), each named file → file. Usage: node scripts/import-graph.mjs [view ...]
import fs from "node:fs";
import path from "node:path";

import { root, sourceFiles } from "./source-files.mjs";

const files = sourceFiles();
const known = new Set(files.map((f) => path.normalize(f)));
const resolve = (from, spec) => {
  let base;
  if (spec.startsWith("@/")) base = spec.slice(2);
  else if (spec.startsWith(".")) base = path.join(path.dirname(from), spec);
  else return null;
  for (const candidate of [base, `${base}.ts`, `${base}.tsx`, `${base}/index.ts`, `${base}/index.tsx`])
    if (known.has(path.normalize(candidate))) return path.normalize(candidate);
  return null;
};
const edges = [];
for (const file of known) {
  const text = fs.readFileSync(path.join(root, file), "utf8");
  for (const m of text.matchAll(/(?:from|import)\s*\(?\s*"([^"]+)"/g)) {
    const to = resolve(file, m[1]);
    if (to && to !== file) edges.push([file, to]);
  }
}

function roomOf(view, file) {
  if (view !== "." && !file.startsWith(`${view}/`)) return null;
  const rest = view === "." ? file : file.slice(view.length + 1);
  const parts = rest.split("/");
  if (view === "." && parts[0] === "lib" && parts.length > 1)
    return parts.length > 2 ? `lib/${parts[1]}` : `lib/${parts[1]}`;
  return parts.length > 1 ? parts[0] : parts[0].replace(/\.tsx?$/, "");
}

function sccs(nodes, adj) {
  let index = 0;
  const idx = new Map(),
    low = new Map(),
    stack = [],
    on = new Set(),
    out = [];
  const visit = (v) => {
    idx.set(v, index);
    low.set(v, index);
    index++;
    stack.push(v);
    on.add(v);
    for (const w of adj.get(v) ?? []) {
      if (!idx.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v), low.get(w)));
      } else if (on.has(w)) low.set(v, Math.min(low.get(v), idx.get(w)));
    }
    if (low.get(v) === idx.get(v)) {
      const comp = [];
      let w;
      do {
        w = stack.pop();
        on.delete(w);
        comp.push(w);
      } while (w !== v);
      out.push(comp);
    }
  };
  for (const v of nodes) if (!idx.has(v)) visit(v);
  return out;
}

/** The fewest room-to-room arrows (weighted by import count, fewest imports first) to cut for no circle. */
function feedbackArcs(comp, pairs) {
  const inside = [...pairs.entries()].filter(([k]) => {
    const [a, b] = k.split("→");
    return comp.includes(a) && comp.includes(b);
  });
  const acyclic = (cut) => {
    const adj = new Map();
    for (const [k] of inside)
      if (!cut.has(k)) {
        const [a, b] = k.split("→");
        adj.set(a, [...(adj.get(a) ?? []), b]);
      }
    return sccs(comp, adj).every((c) => c.length === 1);
  };
  for (let size = 1; size <= Math.min(inside.length, 4); size++) {
    let best = null;
    const choose = (start, picked) => {
      if (picked.length === size) {
        const cut = new Set(picked);
        if (acyclic(cut)) {
          const weight = picked.reduce((n, k) => n + pairs.get(k).length, 0);
          if (!best || weight < best.weight) best = { cut: picked, weight };
        }
        return;
      }
      for (let i = start; i < inside.length; i++) choose(i + 1, [...picked, inside[i][0]]);
    };
    choose(0, []);
    if (best) return best.cut;
  }
  return inside.map(([k]) => k);
}

const views = process.argv.slice(2).length ? process.argv.slice(2) : [".", "lib", "lib/domain"];
for (const view of views) {
  const pairs = new Map();
  const rooms = new Set();
  for (const [from, to] of edges) {
    const a = roomOf(view, from),
      b = roomOf(view, to);
    if (a) rooms.add(a);
    if (b) rooms.add(b);
    if (!a || !b || a === b) continue;
    const key = `${a}→${b}`;
    pairs.set(key, [...(pairs.get(key) ?? []), `${from} → ${to}`]);
  }
  const adj = new Map();
  for (const k of pairs.keys()) {
    const [a, b] = k.split("→");
    adj.set(a, [...(adj.get(a) ?? []), b]);
  }
  const tangles = sccs([...rooms], adj).filter((c) => c.length > 1);
  const back = tangles.flatMap((c) => feedbackArcs(c, pairs));
  const imports = back.reduce((n, k) => n + pairs.get(k).length, 0);
  console.log(
    `${view}: ${rooms.size} rooms, ${pairs.size} arrows, ${tangles.length} tangle(s), ${imports} import(s) running back up`,
  );
  for (const c of tangles) console.log(`  tangle: ${c.sort().join(", ")}`);
  for (const k of back) for (const line of pairs.get(k)) console.log(`  back up: ${line}`);
}
