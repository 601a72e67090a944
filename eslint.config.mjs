import js from "@eslint/js";
import tseslint from "typescript-eslint";
import reactHooks from "eslint-plugin-react-hooks";

export default tseslint.config(
  {
    ignores: [
      ".next/**",
      "node_modules/**",
      "data/**",
      "next-env.d.ts",
      "test-results/**",
      "playwright-report/**",
      ".stryker-tmp/**",
      "reports/**",
      "scratch/**",
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      "@typescript-eslint/no-explicit-any": "off",
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_", destructuredArrayIgnorePattern: "^_" }],
      "no-console": ["error", { allow: ["error"] }],
    },
  },
  // Layers only look down (STYLE.md): the application's rules never import the HTTP layer or pages,
  // and components never reach the database.
  {
    files: ["lib/**/*.ts", "lib/**/*.tsx"],
    ignores: ["lib/api/**"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              group: ["**/api", "**/api/*", "**/api/**", "@/lib/api", "@/lib/api/**"],
              message: "lib/api is the HTTP layer: lib/domain, lib/db, lib/jobs and the rest of lib must not import it (errors live in lib/errors.ts).",
            },
            { group: ["**/app/**", "@/app/**", "**/components/**", "@/components/**"], message: "lib must not import pages or components." },
          ],
        },
      ],
    },
  },
  {
    files: ["components/**/*.ts", "components/**/*.tsx"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              group: ["**/lib/db", "**/lib/db/**", "@/lib/db", "@/lib/db/**", "**/lib/api/**", "@/lib/api/**"],
              message: "components render data handed to them: no database or HTTP-layer imports (go through lib/domain from a page).",
            },
          ],
        },
      ],
    },
  },
  {
    // Pages read through domain functions, never tables.
    files: ["app/**/*.ts", "app/**/*.tsx"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          paths: [{ name: "drizzle-orm", message: "Pages read through lib/domain functions, not queries." }],
          patterns: [
            {
              group: ["@/lib/db/schema", "@/lib/db/schema/**", "**/lib/db/schema", "@/lib/api/**"],
              message: "Pages read through lib/domain functions, not tables.",
            },
          ],
        },
      ],
    },
  },
  {
    files: ["app/**/*.tsx", "components/**/*.tsx"],
    plugins: { "react-hooks": reactHooks },
    rules: { "react-hooks/rules-of-hooks": "error", "react-hooks/exhaustive-deps": "error" },
  },
  { files: ["scripts/**/*.mjs", "*.js", "*.mjs"], languageOptions: { globals: { process: "readonly", console: "readonly" } }, rules: { "no-console": "off" } },
  {
    // A skipped or focused test proves nothing: none may be committed.
    files: ["tests/**", "e2e/**", "**/*.test.ts", "**/*.test.tsx"],
    rules: {
      "no-restricted-properties": [
        "error",
        ...["test", "it", "describe"].flatMap((object) =>
          ["only", "skip", "fixme", "todo"].map((property) => ({ object, property, message: `${object}.${property} keeps a test from proving anything` })),
        ),
      ],
    },
  },
  { files: ["cli/**", "bench/**", "lib/domain/accounts/seed-on-start.ts", "e2e/**", "tests/**"], rules: { "no-console": "off" } },
);
