import { Inngest, RetryAfterError, type ClientOptions, type Logger } from "inngest";
import { db } from "../db";
import { env } from "../env";
import { log } from "../log";
import { embeddedClientOptions, embeddedSigningKey } from "./embedded-client";
import { persistEvents } from "./event-store";
import { registeredExecutor, type EventSink } from "./executor-registry";
import { inngestMode } from "./mode";

// One Inngest client. With INNGEST_BASE_URL / INNGEST_EVENT_KEY / INNGEST_SIGNING_KEY it talks to
// Inngest Cloud or a self-hosted server; without them, `inngest.send()` and `step.sendEvent()`
// go to the embedded executor in this process (server/jobs/executor), which drives the same
// functions through the serve handler. Function code never knows which one runs it.

const APP_ID = "darkroom";

type Level = "debug" | "info" | "warn" | "error";

/** The SDK logs pino-style, `(fields, message)`, or plain values; we write JSON lines. */
function sdkLog(level: Level) {
  return (...args: unknown[]) => {
    const [first, second, ...rest] = args;
    const describe = (value: unknown) => (value instanceof Error ? { error: value.message, stack: value.stack } : value);
    if (first && typeof first === "object" && typeof second === "string") {
      const { err, ...fields } = first as Record<string, unknown>;
      // A failing step is traffic the run handles (a webhook endpoint answering 500, a provider
      // busy): retried, then recorded by the function itself. One line with the message; the stack
      // only at LOG_LEVEL=debug. Attempts Inngest will retry are info, a last attempt warn.
      if (second === "Inngest step error" && err instanceof Error) {
        const retried = err instanceof RetryAfterError;
        log[retried ? "info" : "warn"](`inngest: step failed${retried ? ", will be retried" : ""}`, { ...fields, error: err.message });
        log.debug("inngest: step error stack", { stack: err.stack });
        return;
      }
      log[level](`inngest: ${second}`, {
        ...fields,
        ...(err ? { err: describe(err) } : {}),
        ...(rest.length ? { args: rest.map(describe) } : {}),
      });
    } else {
      log[level](`inngest: ${typeof first === "string" ? first : "log"}`, {
        args: (typeof first === "string" ? [second, ...rest] : args).filter((v) => v !== undefined).map(describe),
      });
    }
  };
}

const logger: Logger = { debug: sdkLog("debug"), info: sdkLog("info"), warn: sdkLog("warn"), error: sdkLog("error") };

/** Without an executor in this process (a CLI run), events land in the table the server dispatches. */
const tableSink: EventSink = { ingestEvents: (appId, events, seed) => persistEvents(db, appId, events, { now: Date.now(), seed }) };

function clientOptions(): ClientOptions {
  if (inngestMode() === "external") {
    const config = env();
    return {
      id: APP_ID,
      logger,
      baseUrl: config.INNGEST_BASE_URL,
      eventKey: config.INNGEST_EVENT_KEY,
      signingKey: config.INNGEST_SIGNING_KEY,
    };
  }
  return embeddedClientOptions({
    id: APP_ID,
    logger,
    sink: () => registeredExecutor() ?? tableSink,
    signingKey: () => {
      const secret = env().AUTH_SECRET;
      return secret ? embeddedSigningKey(secret) : undefined;
    },
  });
}

export const inngest = new Inngest(clientOptions());
