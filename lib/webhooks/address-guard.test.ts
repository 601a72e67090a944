import { describe, expect, test } from "vitest";

import { assertPublicHost, isPublicAddress } from "./address-guard";

describe("isPublicAddress", () => {
  test.each([
    "127.0.0.1",
    "10.1.2.3",
    "172.16.0.1",
    "172.31.255.255",
    "192.168.1.1",
    "169.254.169.254",
    "100.64.0.1",
    "0.0.0.0",
    "::1",
    "fe80::1",
    "fd00::1",
    "::ffff:127.0.0.1",
    "224.0.0.1",
    // IPv4 inside IPv6: mapped in hex, compatible, translated, 6to4, Teredo.
    "::ffff:7f00:1",
    "::ffff:a00:1",
    "::7f00:1",
    "::127.0.0.1",
    "::ffff:0:7f00:1",
    "2002:7f00:1::1",
    "2001:0:4136:e378:8000:63bf:3fff:fdd2",
    "100::1",
  ])("%s is not public", (a) => expect(isPublicAddress(a)).toBe(false));
  test.each(["8.8.8.8", "1.1.1.1", "172.32.0.1", "2606:4700:4700::1111", "::ffff:8.8.8.8"])("%s is public", (a) =>
    expect(isPublicAddress(a)).toBe(true),
  );
  test("localhost is refused", async () => {
    await expect(assertPublicHost("localhost")).rejects.toThrow(/private|resolve/);
    await expect(assertPublicHost("127.0.0.1")).rejects.toThrow(/private/);
  });
});

describe("delivery-time guard", () => {
  test("a connection to a name that resolves to loopback is refused before it is made", async () => {
    const { sendWebhook } = await import("./send");
    const result = await sendWebhook("http://localhost:9/hooks", "{}", {}, { publicOnly: true });
    expect(result.statusCode).toBeNull();
    expect(result.error).toMatch(/private or reserved/);
  });
  test.each(["http://127.0.0.1:9/hooks", "http://[::1]:9/hooks", "http://10.0.0.1/hooks"])(
    "an address literal (%s), which Node connects to without a lookup, is refused too",
    async (url) => {
      const { sendWebhook } = await import("./send");
      const result = await sendWebhook(url, "{}", {}, { publicOnly: true });
      expect(result).toMatchObject({ statusCode: null, error: expect.stringMatching(/private or reserved/) });
    },
  );
  test("sandbox reaches this machine's loopback (by name or literal) and nothing else private", async () => {
    const http = await import("node:http");
    const { sendWebhook } = await import("./send");
    const server = http.createServer((req, res) =>
      req.resume().on("end", () => res.writeHead(200).end("internal secret")),
    );
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    const port = (server.address() as { port: number }).port;
    try {
      for (const url of [`http://127.0.0.1:${port}/hooks`, `http://localhost:${port}/hooks`]) {
        expect(await sendWebhook(url, "{}", {}, { publicOnly: true, allowLoopback: true })).toMatchObject({
          statusCode: 200,
          error: null,
        });
      }
      for (const url of [
        "http://10.0.0.1/hooks",
        "http://169.254.169.254/latest",
        "http://192.168.1.1/",
        "http://[fd00::1]/",
      ]) {
        const result = await sendWebhook(url, "{}", {}, { publicOnly: true, allowLoopback: true });
        expect(result).toMatchObject({
          statusCode: null,
          excerpt: null,
          error: expect.stringMatching(/private or reserved/),
        });
      }
    } finally {
      server.close();
    }
  });
});
