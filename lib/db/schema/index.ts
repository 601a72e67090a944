export * from "./accounts";
export * from "./api";
