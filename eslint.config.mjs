import js from "@eslint/js";
import tseslint from "typescript-eslint";
import reactHooks from "eslint-plugin-react-hooks";
import importX from "eslint-plugin-import-x";
import simpleImportSort from "eslint-plugin-simple-import-sort";
import { createTypeScriptImportResolver } from "eslint-import-resolver-typescript";

// The imports no folder of lib may make (each block below lists them with its own).
const notTheApi = {
  group: ["**/api", "**/api/*", "**/api/**", "@/lib/api", "@/lib/api/**"],
  message:
    "lib/api is the HTTP layer: lib/domain, lib/db, lib/jobs and the rest of lib must not import it (errors live in lib/errors.ts).",
};
const notThePages = {
  group: ["**/app/**", "@/app/**", "**/components/**", "@/components/**"],
  message: "lib must not import pages or components.",
};
const notTheWorkers = {
  group: ["**/workers/*", "@/lib/workers/**"],
  message: "lib/workers wires the job handlers above the domain: only server.ts, the worker entry and tests start it.",
};

// `x as never` silences every check on x: a key built at run time goes through lib/i18n/dynamic.ts
// (messageOr, enumLabel, loose), a type through its real name.
const noAsNever = {
  selector: "TSAsExpression > TSNeverKeyword",
  message: "No `as never`: name the type (lib/i18n/dynamic.ts for message keys).",
};

// Hono's `c.var` builds a new object from every variable of the request each time it is read (a
// few per cent of a GET's CPU, issue 76): read one with `c.get("name")`.
const noContextVar = {
  selector: "MemberExpression[object.name='c'][property.name='var']",
  message: 'Read a request variable with c.get("name"): c.var copies them all on every read.',
};

export default tseslint.config(
  {
    ignores: [
      ".next/**",
      "packages/*/dist/**",
      "packages/*/src/generated/**",
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
      // The source has none (lib/must.ts, lib/db/one.ts and lib/db/conditions.ts say what a `!` hid;
      // lib/loose-json.ts is the one explained `any`): a new one fails the lint. Tests warn (below).
      "@typescript-eslint/no-explicit-any": "error",
      "@typescript-eslint/no-non-null-assertion": "error",
      "@typescript-eslint/no-unused-vars": [
        "error",
        { argsIgnorePattern: "^_", varsIgnorePattern: "^_", destructuredArrayIgnorePattern: "^_" },
      ],
      "no-console": ["error", { allow: ["error"] }],
      "no-restricted-syntax": ["error", noAsNever, noContextVar],
    },
  },
  // One clock (lib/clock.ts, docs/decisions.md "One clock"): the domain, the ledger, the jobs and the
  // payout calendar read "now" from it, so a test clock can freeze it for the objects on it.
  {
    files: ["lib/domain/**/*.ts", "lib/ledger/**/*.ts", "lib/jobs/**/*.ts", "lib/payouts/**/*.ts"],
    ignores: ["**/*.test.ts"],
    rules: {
      "no-restricted-syntax": [
        "error",
        noAsNever,
        {
          selector: "NewExpression[callee.name='Date'][arguments.length=0]",
          message: "Read now from the one clock: clock.now() (lib/clock.ts), or take `now` from the caller.",
        },
        {
          selector: "CallExpression[callee.object.name='Date'][callee.property.name='now']",
          message: "Read now from the one clock: clock.ms() (lib/clock.ts), or take `now` from the caller.",
        },
      ],
    },
  },
  // No import cycles, type-only ones included: a cycle means two modules share a rule that has no home yet.
  {
    files: ["**/*.ts", "**/*.tsx"],
    plugins: { "import-x": importX, "simple-import-sort": simpleImportSort },
    settings: {
      "import-x/extensions": [".ts", ".tsx", ".js", ".mjs"],
      "import-x/parsers": { "@typescript-eslint/parser": [".ts", ".tsx"] },
      "import-x/resolver-next": [createTypeScriptImportResolver({ project: "./tsconfig.json" })],
    },
    rules: {
      "import-x/no-cycle": ["error", { ignoreExternal: true }],
      // Imports sorted (packages, then the project's), so a file's dependencies read at a glance.
      "simple-import-sort/imports": "error",
      "simple-import-sort/exports": "error",
    },
  },
  // Layers only look down (STYLE.md): the application's rules never import the HTTP layer or pages,
  // and components never reach the database.
  {
    files: ["lib/**/*.ts", "lib/**/*.tsx"],
    ignores: ["lib/api/**"],
    rules: { "no-restricted-imports": ["error", { patterns: [notTheApi, notThePages, notTheWorkers] }] },
  },
  {
    // The domain never reaches up into the edge: the home's and dashboard's request helpers and the
    // server actions call it, not the other way round.
    files: ["lib/domain/**/*.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            notTheApi,
            notThePages,
            notTheWorkers,
            {
              group: [
                "../../home/**",
                "../../dashboard/**",
                "../../actions/**",
                "@/lib/home/**",
                "@/lib/dashboard/**",
                "@/lib/actions/**",
              ],
              message:
                "lib/home, lib/dashboard and lib/actions are the pages' edge, above the domain: pass what the domain needs as arguments.",
            },
            {
              // The ledger's tables are read and written in lib/ledger alone (docs/decisions.md).
              group: ["../../db/schema", "../../db/schema/*", "@/lib/db/schema", "@/lib/db/schema/*"],
              importNames: ["ledgerPostings", "ledgerEntries", "ledgerBalanceCheckpoints"],
              message:
                "Money is read and written in lib/ledger: call its functions (lib/ledger/reads.ts, balance-transactions.ts, volume.ts...) instead of reading the ledger's tables.",
            },
          ],
        },
      ],
    },
  },
  {
    // Three bands (README "Where the code is"): the edge (lib/api, lib/actions, lib/home, lib/dashboard,
    // lib/workers, app, components) calls the domain (lib/domain); everything else in lib is pure rules
    // and infrastructure below it, and never imports it. Serializers, for one, are pure functions of a
    // row and the facts handed to them.
    files: ["lib/**/*.ts", "lib/**/*.tsx"],
    ignores: ["lib/api/**", "lib/actions/**", "lib/home/**", "lib/dashboard/**", "lib/workers/**", "lib/domain/**"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            notTheApi,
            notThePages,
            notTheWorkers,
            {
              group: ["**/domain/**", "@/lib/domain/**"],
              message:
                "This folder sits below the domain (pure rules and infrastructure): take what it needs as arguments (the domain computes it) instead of importing lib/domain.",
            },
          ],
        },
      ],
    },
  },
  {
    // Thin routes: validate, authorise, call one domain function, serialize. Queries live in lib/domain.
    files: ["lib/api/routes/**/*.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          paths: [{ name: "drizzle-orm", message: "Routes call lib/domain functions; queries live there." }],
          patterns: [
            {
              group: ["**/db/schema", "**/db/schema/**"],
              message: "Routes call lib/domain functions; tables are read there.",
            },
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
              message:
                "components render data handed to them: no database or HTTP-layer imports (go through lib/domain from a page).",
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
    files: ["app/**/*.tsx", "components/**/*.tsx", "packages/react/src/**/*.tsx", "examples/**/*.tsx"],
    plugins: { "react-hooks": reactHooks },
    rules: { "react-hooks/rules-of-hooks": "error", "react-hooks/exhaustive-deps": "error" },
  },
  {
    files: ["scripts/**/*.mjs", "*.js", "*.mjs"],
    languageOptions: { globals: { process: "readonly", console: "readonly" } },
    rules: { "no-console": "off" },
  },
  {
    // A skipped or focused test proves nothing: none may be committed.
    files: ["tests/**", "e2e/**", "**/*.test.ts", "**/*.test.tsx"],
    rules: {
      "no-restricted-properties": [
        "error",
        ...["test", "it", "describe"].flatMap((object) =>
          ["only", "skip", "fixme", "todo"].map((property) => ({
            object,
            property,
            message: `${object}.${property} keeps a test from proving anything`,
          })),
        ),
      ],
    },
  },
  {
    // Tests, journeys and the bench read fixtures they made themselves: a `!` or an `any` there warns.
    files: ["tests/**", "e2e/**", "bench/**", "**/*.test.ts", "**/*.test.tsx"],
    rules: {
      "@typescript-eslint/no-explicit-any": "warn",
      "@typescript-eslint/no-non-null-assertion": "warn",
      "no-restricted-syntax": "off",
    },
  },
  {
    files: ["cli/**", "bench/**", "lib/domain/accounts/seed-on-start.ts", "e2e/**", "tests/**"],
    rules: { "no-console": "off" },
  },
);
