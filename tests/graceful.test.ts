import http from "node:http";

import { afterAll, expect, test } from "vitest";

import type { TestApi } from "./helpers/api";
import { approvedMerchant } from "./helpers/payments";
import { createIsvWithCli, groupAlive, serverProcesses, until } from "./helpers/server-process";

// Graceful shutdown (docs/reference.md section 17): on SIGTERM the server stops accepting, lets what
// is in flight finish, ends the status streams with a hint to reconnect, and exits 0.

const servers = serverProcesses({ name: "graceful", portFrom: 4300, ports: 400 });
afterAll(async () => {
  expect((await servers.killAll()).length).toBe(0);
});

/**
 * A file upload in flight: the headers and the first half of its body now, the rest when `finish`
 * is called; answers the status and body once the server has answered.
 */
function slowUpload(base: string, auth: string, merchantId: string) {
  const boundary = "----graceful" + Date.now();
  const pdf = "%PDF-1.4\n% slow upload\n1 0 obj<</Type/Catalog>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n";
  const body = Buffer.from(
    [
      `--${boundary}\r\nContent-Disposition: form-data; name="purpose"\r\n\r\nadditional_verification\r\n`,
      `--${boundary}\r\nContent-Disposition: form-data; name="merchant_id"\r\n\r\n${merchantId}\r\n`,
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="slow.pdf"\r\nContent-Type: application/pdf\r\n\r\n${pdf}\r\n`,
      `--${boundary}--\r\n`,
    ].join(""),
  );
  const url = new URL("/v1/files", base);
  const req = http.request(url, {
    method: "POST",
    headers: {
      authorization: auth,
      "content-type": `multipart/form-data; boundary=${boundary}`,
      "content-length": body.length,
    },
  });
  const answer = new Promise<{ status: number; text: string }>((resolve, reject) => {
    req.once("response", (res) => {
      let text = "";
      res.on("data", (chunk) => (text += chunk));
      res.once("end", () => resolve({ status: res.statusCode ?? 0, text }));
    });
    req.once("error", reject);
  });
  const half = Math.floor(body.length / 2);
  req.write(body.subarray(0, half));
  return { answer, finish: () => req.end(body.subarray(half)) };
}

/** The helpers' API client, against a server process. */
function client(base: string) {
  return {
    baseUrl: base,
    async call(method: string, path: string, init: { auth?: string; body?: unknown } = {}) {
      const res = await fetch(base + path, {
        method,
        headers: {
          ...(init.auth ? { authorization: init.auth } : {}),
          ...(init.body !== undefined ? { "content-type": "application/json" } : {}),
        },
        body: init.body === undefined ? undefined : JSON.stringify(init.body),
        redirect: "manual",
      });
      const text = await res.text();
      return { status: res.status, headers: res.headers, text, json: text ? JSON.parse(text) : undefined };
    },
  } as unknown as TestApi;
}

test("SIGTERM: an upload still arriving is answered in full, the open status stream ends with a reconnect hint, the process exits 0 within the grace period", async () => {
  const child = await servers.start();
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  const isv = await createIsvWithCli(servers.env, "Graceful ISV");
  const api = client(servers.base);
  const merchant = await approvedMerchant(api, isv);
  const request = await api.call("POST", "/v1/scan_to_pay", {
    auth: isv.auth,
    body: { merchant_id: merchant.id, amount: 1500 },
  });
  expect(request.status).toBe(200);

  const stream = await fetch(`${servers.base}/v1/payment_requests/${request.json.id}/stream`);
  expect(stream.status).toBe(200);
  const reader = stream.body!.getReader();
  const decoder = new TextDecoder();
  let text = "";
  await until(
    async () => {
      const { value } = await reader.read();
      text += decoder.decode(value ?? new Uint8Array());
      return text.includes("event: payment_request");
    },
    Boolean,
    10_000,
    "the stream's first event",
  );

  // A request in flight: an upload whose body is still arriving when the signal comes.
  const upload = slowUpload(servers.base, isv.auth, merchant.id);
  await new Promise((resolve) => setTimeout(resolve, 300));

  const signalled = Date.now();
  process.kill(child.pid!, "SIGTERM");
  // The rest of the upload's body a second after the signal: it is still answered, in full.
  await new Promise((resolve) => setTimeout(resolve, 1_000));
  upload.finish();
  const uploaded = await upload.answer;
  expect(uploaded.status, uploaded.text).toBe(200);
  expect(JSON.parse(uploaded.text)).toMatchObject({ object: "file", purpose: "additional_verification" });
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    text += decoder.decode(value);
  }
  expect(text).toMatch(/event: reconnect\ndata: \{\}\n(id: .*\n)?retry: 1000\n/);
  expect(await exited).toBe(0);
  expect(Date.now() - signalled).toBeLessThan(10_000);
  // Nothing of it stays behind (its esbuild helper follows it out).
  await until(() => !groupAlive(child.pid!), Boolean, 20_000, "the server's process group to be gone");
  expect(servers.output()).not.toMatch(/still busy after the grace period/);
}, 120_000);
