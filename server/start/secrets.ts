import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { env, isProductionDeployment, setRuntimeEnv } from "../base/env";

// AUTH_SECRET signs sessions and file URLs; ENCRYPTION_KEY seals secrets at rest. Production sets
// both; a local run generates each into DATA_DIR once, so restarts keep sessions, links and sealed
// secrets valid.

function ensureGenerated(name: "AUTH_SECRET" | "ENCRYPTION_KEY", fileName: string, make: () => string) {
  if (env()[name]) return;
  if (isProductionDeployment()) throw new Error(`${name} must be set in production`);
  const file = path.resolve(env().DATA_DIR, fileName);
  if (!fs.existsSync(file)) {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, make(), { mode: 0o600 });
  }
  setRuntimeEnv(name, fs.readFileSync(file, "utf8").trim());
}

export function ensureAuthSecret() {
  ensureGenerated("AUTH_SECRET", "auth-secret", () => randomBytes(32).toString("base64url"));
}

export function ensureEncryptionKey() {
  ensureGenerated("ENCRYPTION_KEY", "encryption-key", () => randomBytes(32).toString("hex"));
}
