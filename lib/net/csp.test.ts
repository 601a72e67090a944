import { describe, expect, test } from "vitest";

import { docsCsp, downloadCsp, embedFrameCsp, linkPageCsp, pagesCsp, tokenizerCsp } from "./csp";

// The policies as browsers receive them: a change here is a change of what pages may load or who
// may frame them, and must be meant.
describe("the service's Content-Security-Policies", () => {
  test("pages: nonce scripts, the card frame's origin, framed by the component's host only", () => {
    expect(pagesCsp({ nonce: "n1", dev: false, tokenizerOrigin: "https://t.example", ancestors: "'none'" })).toBe(
      "default-src 'self'; script-src 'self' 'nonce-n1' 'strict-dynamic'; style-src 'self' 'unsafe-inline'; img-src 'self' https: data: blob:; font-src 'self'; connect-src 'self'; frame-src 'self' https://t.example; frame-ancestors 'none'; base-uri 'none'; form-action 'self'",
    );
    expect(pagesCsp({ nonce: "n", dev: true, tokenizerOrigin: "x", ancestors: "https://isv.example" })).toContain(
      "script-src 'self' 'nonce-n' 'strict-dynamic' 'unsafe-eval'; ",
    );
  });

  test("the card frame, link pages, embed frames, docs and downloads", () => {
    expect(tokenizerCsp({ nonce: "abc", parentOrigin: "https://pay.example" })).toBe(
      "default-src 'none'; script-src 'self'; style-src 'nonce-abc'; connect-src 'self'; frame-ancestors https://pay.example; base-uri 'none'; form-action 'none'",
    );
    expect(linkPageCsp).toBe(
      "default-src 'none'; style-src 'unsafe-inline'; img-src https: http: data: 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
    );
    expect(embedFrameCsp([])).toBe(
      "default-src 'none'; script-src 'self'; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
    );
    expect(embedFrameCsp(["https://a.example", "https://b.example"])).toMatch(
      /frame-ancestors https:\/\/a\.example https:\/\/b\.example$/,
    );
    expect(docsCsp).toBe(
      "default-src 'self'; script-src 'self' 'unsafe-inline' 'unsafe-eval'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; font-src 'self' data:; connect-src 'self'",
    );
    expect(downloadCsp).toBe("default-src 'none'; sandbox");
  });
});
