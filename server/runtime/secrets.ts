import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { env, isProductionDeployment, setRuntimeEnv } from "../env";

// AUTH_SECRET signs sessions and file URLs. Production sets it; a local run generates one into
// DATA_DIR once, so restarts keep sessions and links valid.

export function ensureAuthSecret() {
  if (env().AUTH_SECRET) return;
  if (isProductionDeployment()) {
    throw new Error("AUTH_SECRET must be set in production");
  }
  const file = path.resolve(env().DATA_DIR, "auth-secret");
  if (!fs.existsSync(file)) {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, randomBytes(32).toString("base64url"), { mode: 0o600 });
  }
  setRuntimeEnv("AUTH_SECRET", fs.readFileSync(file, "utf8").trim());
}
