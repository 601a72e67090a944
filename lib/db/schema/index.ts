export * from "./accounts";
export * from "./events";
export * from "./files";
export * from "./idempotency";
export * from "./merchants";
export * from "./notifications";
export * from "./payments";
export * from "./webhooks";
