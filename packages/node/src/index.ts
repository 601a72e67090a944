import { type ClientOptions, Transport } from "./core.js";
import { API_VERSION, OnbResources } from "./generated/resources.js";
import { webhookHelpers } from "./webhooks.js";

export type { BinaryResponse, ClientOptions, RequestOptions, ServerSentEvent } from "./core.js";
export * from "./errors.js";
export type { components, operations, paths, webhooks as webhookOperations } from "./generated/openapi.js";
export { API_VERSION } from "./generated/resources.js";
export { type List, type ListCursor, ListPromise } from "./pagination.js";
export {
  type VerifyOptions,
  verifyWebhook,
  type WebhookEvent,
  type WebhookEventOf,
  type WebhookEventType,
  type WebhookHeaders,
} from "./webhooks.js";

/**
 * The merchant onboarding and payments API.
 *
 * ```ts
 * const onb = new Onb({ baseUrl: "https://sandbox.example.com", accountSid, secretKey });
 * const merchant = await onb.merchants.create({ phone: "+14155550123" });
 * for await (const charge of onb.charges.list({ merchant_id: merchant.id, limit: 100 })) { ... }
 * ```
 */
export class Onb extends OnbResources {
  /** The address this client calls. */
  readonly baseUrl: string;
  /** The `Onb-Version` this client sends. */
  readonly apiVersion: string;
  /** A webhook receiver's helper: `onb.webhooks.verify(body, headers, secret)` answers the typed event. */
  readonly webhooks = webhookHelpers;

  constructor(options: ClientOptions) {
    const transport = new Transport(options, API_VERSION);
    super(transport);
    this.baseUrl = transport.baseUrl;
    this.apiVersion = transport.apiVersion;
  }
}

export default Onb;
