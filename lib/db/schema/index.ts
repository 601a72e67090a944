export * from "./accounts";
export * from "./idempotency";
export * from "./merchants";
export * from "./events";
export * from "./webhooks";
export * from "./notifications";
export * from "./payments";
