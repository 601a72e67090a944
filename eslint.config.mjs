import js from "@eslint/js";
import tseslint from "typescript-eslint";

export default tseslint.config(
  { ignores: [".next/**", "node_modules/**", "data/**", "next-env.d.ts", "test-results/**", "playwright-report/**"] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      "@typescript-eslint/no-explicit-any": "off",
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_", destructuredArrayIgnorePattern: "^_" }],
      "no-console": ["error", { allow: ["error"] }],
    },
  },
  { files: ["scripts/**/*.mjs", "*.js", "*.mjs"], languageOptions: { globals: { process: "readonly", console: "readonly" } }, rules: { "no-console": "off" } },
  { files: ["cli/**", "bench/**", "lib/domain/accounts/seed-on-start.ts", "e2e/**", "tests/**"], rules: { "no-console": "off" } },
);
