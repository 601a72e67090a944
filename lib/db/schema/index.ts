export * from "./accounts";
export * from "./api";
export * from "./merchants";
export * from "./events";
export * from "./webhooks";
export * from "./notifications";
