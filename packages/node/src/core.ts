import { apiErrorOf, OnbConnectionError, OnbError } from "./errors.js";
import { type List, type ListCursor, ListPromise } from "./pagination.js";

/** What `new Onb(...)` takes. */
export type ClientOptions = {
  /** The deployment's address: your sandbox's or your production's (each deployment has its own). */
  baseUrl: string;
  /** Your account SID and secret key (Basic authentication), from the CLI or your dashboard. */
  accountSid?: string;
  secretKey?: string;
  /** Or a token from `auth.signIn` (Bearer). */
  bearerToken?: string;
  /** The API version to ask for (`Onb-Version`); default: the version this SDK was generated for. */
  apiVersion?: string;
  /** How many times a request is tried again after a 429, a 5xx or a network error (default 2). */
  maxRetries?: number;
  /** A request's time limit in milliseconds, each try (default 60,000). */
  timeoutMs?: number;
  /** The longest wait between tries in milliseconds, whatever Retry-After says (default 30,000). */
  maxRetryDelayMs?: number;
  /** A fetch of your own (default: the global fetch). */
  fetch?: typeof fetch;
};

/** What each call may add. */
export type RequestOptions = {
  /**
   * The key that makes a POST safe to send twice (default: one is made for each call, and the
   * call's retries send the same one). Send your own to make a call you may repeat yourself safe.
   */
  idempotencyKey?: string;
  /** This call's `Onb-Version`. */
  apiVersion?: string;
  /**
   * A credential for this call instead of the client's: a merchant's onboarding session token, a
   * merchant's publishable key (tokens), or a signed-in token.
   */
  bearerToken?: string;
  maxRetries?: number;
  timeoutMs?: number;
  signal?: AbortSignal;
  /** More headers to send. */
  headers?: Record<string, string>;
};

/** A download's answer: its bytes, its type and, when the API names one, its file name. */
export type BinaryResponse = {
  contentType: string;
  filename: string | undefined;
  data: Uint8Array;
  /** The bytes as UTF-8 text (a CSV). */
  text(): string;
};

/** How an operation is called (written by the generator, one per operation). */
export type Operation = {
  id: string;
  method: "GET" | "POST" | "PATCH" | "PUT" | "DELETE";
  path: string;
  /** Whose credentials it takes: the client's, a merchant's session or publishable key, or none. */
  auth: "client" | "bearer" | "none";
  body?: "json" | "multipart";
  response: "json" | "binary" | "stream";
  /** A list's cursor field on its items. */
  cursor?: string;
};

export type Call = {
  pathParams?: Record<string, string>;
  query?: object;
  body?: object;
};

/** A server-sent event of a stream (`paymentRequests.stream`). */
export type ServerSentEvent = { event: string; id: string | undefined; data: unknown };

const retryableStatus = (status: number) => status === 429 || status >= 500;

/** The wait before try `attempt` (1-based): Retry-After when the answer gave one, else exponential backoff; jittered. */
export function retryDelayMs(attempt: number, retryAfter: string | null, maxDelayMs: number): number {
  let base: number | undefined;
  if (retryAfter) {
    const seconds = Number(retryAfter);
    if (Number.isFinite(seconds)) base = Math.max(0, seconds) * 1000;
    else {
      const at = Date.parse(retryAfter);
      if (!Number.isNaN(at)) base = Math.max(0, at - Date.now());
    }
  }
  if (base !== undefined) return Math.min(maxDelayMs, base + Math.random() * 250);
  const backoff = Math.min(maxDelayMs, 500 * 2 ** (attempt - 1));
  // Full jitter between half and all of the backoff: clients retrying together spread out.
  return backoff / 2 + Math.random() * (backoff / 2);
}

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener(
      "abort",
      () => {
        clearTimeout(timer);
        reject(signal.reason);
      },
      { once: true },
    );
  });

function encodeQuery(query: object | undefined): string {
  if (!query) return "";
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined || value === null) continue;
    if (Array.isArray(value)) for (const v of value) params.append(key, String(v));
    else if (value instanceof Date) params.append(key, value.toISOString());
    else params.append(key, String(value));
  }
  const text = params.toString();
  return text ? `?${text}` : "";
}

function multipartOf(body: object): FormData {
  const form = new FormData();
  const fields = body as Record<string, unknown>;
  const filename = typeof fields.filename === "string" ? fields.filename : undefined;
  for (const [key, value] of Object.entries(fields)) {
    if (value === undefined || value === null || key === "filename") continue;
    if (value instanceof Blob) form.append(key, value, filename ?? (value instanceof File ? value.name : "upload"));
    else if (value instanceof Uint8Array || value instanceof ArrayBuffer)
      form.append(key, new Blob([value as BlobPart]), filename ?? "upload");
    else form.append(key, String(value));
  }
  return form;
}

function filenameOf(disposition: string | null): string | undefined {
  if (!disposition) return undefined;
  const star = /filename\*=UTF-8''([^;]+)/i.exec(disposition)?.[1];
  if (star) return decodeURIComponent(star);
  return /filename="?([^";]+)"?/i.exec(disposition)?.[1];
}

/** The transport every resource shares: credentials, version, idempotency, retries, errors. */
export class Transport {
  readonly baseUrl: string;
  readonly apiVersion: string;
  readonly #options: ClientOptions;
  readonly #fetch: typeof fetch;

  constructor(options: ClientOptions, generatedFor: string) {
    if (!options.baseUrl) throw new OnbError("baseUrl is required: your sandbox's or production's address");
    this.baseUrl = options.baseUrl.replace(/\/+$/, "");
    this.apiVersion = options.apiVersion ?? generatedFor;
    this.#options = options;
    this.#fetch = options.fetch ?? globalThis.fetch.bind(globalThis);
  }

  #authorization(operation: Operation, options: RequestOptions): string | undefined {
    if (options.bearerToken) return `Bearer ${options.bearerToken}`;
    if (operation.auth === "none") return undefined;
    if (operation.auth === "bearer")
      throw new OnbError(
        `${operation.id} takes options.bearerToken: a merchant's onboarding session token or publishable key`,
      );
    const { accountSid, secretKey, bearerToken } = this.#options;
    if (bearerToken) return `Bearer ${bearerToken}`;
    if (accountSid && secretKey) return `Basic ${btoa(`${accountSid}:${secretKey}`)}`;
    throw new OnbError(`${operation.id} needs credentials: give the client accountSid and secretKey, or bearerToken`);
  }

  /** Sends one operation, trying again after a 429, a 5xx or a network error; answers the success's body. */
  async request(operation: Operation, call: Call, options: RequestOptions = {}): Promise<unknown> {
    const path = operation.path.replace(/\{([^}]+)\}/g, (_, name: string) => {
      const value = call.pathParams?.[name];
      if (value === undefined || value === "") throw new OnbError(`${operation.id}: ${name} is required`);
      return encodeURIComponent(value);
    });
    const url = `${this.baseUrl}${path}${encodeQuery(call.query)}`;
    const headers: Record<string, string> = {
      accept: operation.response === "json" ? "application/json" : "*/*",
      "onb-version": options.apiVersion ?? this.apiVersion,
      ...options.headers,
    };
    const authorization = this.#authorization(operation, options);
    if (authorization) headers.authorization = authorization;
    if (operation.method === "POST") headers["idempotency-key"] = options.idempotencyKey ?? crypto.randomUUID();
    let body: string | FormData | undefined;
    if (call.body !== undefined) {
      if (operation.body === "multipart") body = multipartOf(call.body);
      else {
        body = JSON.stringify(call.body);
        headers["content-type"] = "application/json";
      }
    } else if (operation.body === "json" && operation.method !== "GET") {
      body = "{}";
      headers["content-type"] = "application/json";
    }

    // A stream is not tried again: it is long-lived, and its caller reconnects.
    const maxRetries = operation.response === "stream" ? 0 : (options.maxRetries ?? this.#options.maxRetries ?? 2);
    const timeoutMs = options.timeoutMs ?? this.#options.timeoutMs ?? 60_000;
    const maxDelay = this.#options.maxRetryDelayMs ?? 30_000;
    for (let attempt = 0; ; attempt++) {
      const signals = [options.signal, operation.response === "stream" ? undefined : AbortSignal.timeout(timeoutMs)];
      const signal = AbortSignal.any(signals.filter((s): s is AbortSignal => s !== undefined));
      let response: Response;
      try {
        response = await this.#fetch(url, { method: operation.method, headers, body, signal });
      } catch (error) {
        if (options.signal?.aborted) throw error;
        if (attempt < maxRetries) {
          await sleep(retryDelayMs(attempt + 1, null, maxDelay), options.signal);
          continue;
        }
        const timedOut = error instanceof DOMException && error.name === "TimeoutError";
        throw new OnbConnectionError(
          timedOut
            ? `${operation.method} ${path}: no answer within ${timeoutMs} ms`
            : `${operation.method} ${path}: ${(error as Error).message}`,
          error,
        );
      }
      if (response.ok) return this.#success(operation, response);
      const text = await response.text();
      let parsed: unknown = text;
      try {
        parsed = JSON.parse(text);
      } catch {
        // not JSON: kept as text
      }
      const error = apiErrorOf(response.status, parsed, response.headers);
      const again = retryableStatus(response.status) || error.code === "idempotency_key_in_use";
      if (again && attempt < maxRetries) {
        await sleep(retryDelayMs(attempt + 1, response.headers.get("retry-after"), maxDelay), options.signal);
        continue;
      }
      throw error;
    }
  }

  async #success(operation: Operation, response: Response): Promise<unknown> {
    if (operation.response === "json") return response.json();
    if (operation.response === "stream") return serverSentEvents(response);
    const data = new Uint8Array(await response.arrayBuffer());
    return {
      contentType: response.headers.get("content-type") ?? "application/octet-stream",
      filename: filenameOf(response.headers.get("content-disposition")),
      data,
      text: () => new TextDecoder().decode(data),
    } satisfies BinaryResponse;
  }

  list<T>(operation: Operation, call: Call, query: ListCursor | undefined, options?: RequestOptions) {
    const cursor = operation.cursor ?? "id";
    return new ListPromise<T>(
      (page) => this.request(operation, { ...call, query: page }, options) as Promise<List<T>>,
      query ?? {},
      (item) => String((item as Record<string, unknown>)[cursor]),
    );
  }
}

/** A `text/event-stream` answer as its events, `data` parsed when it is JSON. Ends when the server ends it. */
async function* serverSentEvents(response: Response): AsyncGenerator<ServerSentEvent> {
  if (!response.body) return;
  const decoder = new TextDecoder();
  let buffer = "";
  const reader = response.body.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      buffer += decoder.decode(value, { stream: true }).replace(/\r\n?/g, "\n");
      let end: number;
      while ((end = buffer.indexOf("\n\n")) !== -1) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        let event = "message";
        let id: string | undefined;
        const data: string[] = [];
        for (const line of block.split("\n")) {
          if (!line || line.startsWith(":")) continue;
          const colon = line.indexOf(":");
          const field = colon === -1 ? line : line.slice(0, colon);
          const value = colon === -1 ? "" : line.slice(colon + 1).replace(/^ /, "");
          if (field === "event") event = value;
          else if (field === "id") id = value;
          else if (field === "data") data.push(value);
        }
        if (data.length === 0) continue;
        const text = data.join("\n");
        let parsed: unknown = text;
        try {
          parsed = JSON.parse(text);
        } catch {
          // not JSON: kept as text
        }
        yield { event, id, data: parsed };
      }
    }
  } finally {
    await reader.cancel().catch(() => {});
  }
}

/** What every generated resource holds. */
export class Resource {
  constructor(protected readonly transport: Transport) {}
}
