import { describe, expect, test } from "vitest";

import { fileDownloadHeaders, safeDownloadName } from "./file";

describe("safeDownloadName", () => {
  test.each([
    ["statement.pdf", "pdf", "statement.pdf"],
    ["evil.html", "pdf", "evil.pdf"],
    ["photo.jpeg", "jpg", "photo.jpg"],
    ["no-extension", "png", "no-extension.png"],
    ["invoice\u202Efdp.exe", "pdf", "invoicefdp.pdf"],
    ["a\u2066b\u2069c\u200F.pdf", "pdf", "abc.pdf"],
    ["../../etc/passwd", "pdf", "_.pdf"],
    ['a"b\r\nc.pdf', "pdf", "a_bc.pdf"],
    ["\u202E", "jpg", "document.jpg"],
    [".htaccess", "pdf", "document.pdf"],
    ["x".repeat(300) + ".pdf", "pdf", "x".repeat(100) + ".pdf"],
  ])("%j as %s is saved as %j", (name, type, expected) => {
    expect(safeDownloadName(name, type)).toBe(expected);
  });

  test("the download header carries the safe name only", () => {
    const headers = fileDownloadHeaders({ filename: "evil\u202Elmth.pdf", type: "pdf" }, 10);
    expect(headers["Content-Disposition"]).toBe(`attachment; filename="evillmth.pdf"; filename*=UTF-8''evillmth.pdf`);
  });
});
