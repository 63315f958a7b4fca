import { defineConfig, globalIgnores } from "eslint/config";
import nextVitals from "eslint-config-next/core-web-vitals";
import prettier from "eslint-config-prettier/flat";
import tseslint from "typescript-eslint";
import floors from "./eslint/floors-plugin.mjs";

// Next's rules (React, hooks, a11y, Core Web Vitals) plus typescript-eslint's recommended set
// without type information, so a full run stays a few seconds per core. Prettier owns layout.
export default defineConfig([
  ...nextVitals,
  ...tseslint.configs.recommended,
  {
    rules: {
      // A leading underscore marks a deliberately unused binding: `{ $id: _id, ...rest }` drops a key, `_proof` carries a type-level check.
      "@typescript-eslint/no-unused-vars": [
        "error",
        { argsIgnorePattern: "^_", varsIgnorePattern: "^_", caughtErrorsIgnorePattern: "^_", destructuredArrayIgnorePattern: "^_" },
      ],
    },
  },
  {
    // The floors of server/ (scripts/floors.mjs): no module imports a floor above its own.
    files: ["server/**/*.ts", "server/**/*.tsx"],
    plugins: { floors },
    rules: { "floors/no-climbing-imports": "error" },
  },
  {
    files: ["tests/**", "e2e/**"],
    rules: {
      // Tests read untyped JSON (webhook arrivals, tRPC replies) as `any` and assert on it field by field; /v1 replies are typed (tests/support/http.ts).
      "@typescript-eslint/no-explicit-any": "off",
    },
  },
  {
    files: ["e2e/**"],
    rules: {
      // Playwright fixtures hand values on through a callback named `use`, which is not React's `use` hook.
      "react-hooks/rules-of-hooks": "off",
    },
  },
  prettier,
  globalIgnores([
    "server/base/generated/**",
    ".next/**",
    ".build/**",
    ".data/**",
    ".data-*/**",
    "node_modules/**",
    "bench/results/**",
    "playwright-report/**",
    "test-results/**",
    "next-env.d.ts",
    "sdk/typescript/dist/**",
  ]),
]);
