import path from "node:path";
import { defineConfig } from "prisma/config";

// `prisma generate` needs no engine, but the CLI insists on finding a schema-engine binary
// first; offline the download fails. Point it at any existing file when unset.
process.env.PRISMA_SCHEMA_ENGINE_BINARY ??= path.resolve(import.meta.dirname, "package.json");

export default defineConfig({
  schema: "prisma/schema.prisma",
  migrations: { path: "prisma/migrations" },
  datasource: { url: process.env.DATABASE_URL ?? "postgresql://localhost/placeholder" },
});
