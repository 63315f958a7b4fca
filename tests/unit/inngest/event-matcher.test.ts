import { describe, expect, it } from "vitest";
import { evaluateExpression, eventNameMatches, triggerMatches } from "@/server/jobs/executor/event-matcher";
import type { EventPayload } from "@/server/jobs/executor/types";

// The embedded executor's expressions (CEL through @marcbachmann/cel-js): `event` is the run's
// triggering event, `async` the candidate event of a waitForEvent.

const event = (name: string, data: Record<string, unknown>): EventPayload => ({
  id: `${name}-${JSON.stringify(data)}`,
  name,
  data,
  ts: 1_767_225_600_000,
});
const trigger = event("generation/requested", { generationId: "gen_1", count: 2, options: { audio: true }, tags: ["a", "b"], note: null });

describe("waitForEvent expressions (CEL)", () => {
  it("matches the app's provider callback condition on the prediction id only", () => {
    // server/jobs/functions/run-generation.ts
    const condition = 'async.data.predictionId == "pred_123"';
    expect(evaluateExpression(condition, { event: trigger, async: event("provider/result-received", { predictionId: "pred_123" }) })).toBe(
      true,
    );
    expect(evaluateExpression(condition, { event: trigger, async: event("provider/result-received", { predictionId: "pred_999" }) })).toBe(
      false,
    );
    expect(evaluateExpression(condition, { event: trigger, async: event("provider/result-received", {}) })).toBe(false);
  });

  it("evaluates the SDK's `match` form against the triggering event", () => {
    // step.waitForEvent(id, { match: "data.generationId" }) is sent as this `if`.
    const condition = "event.data.generationId == async.data.generationId";
    expect(evaluateExpression(condition, { event: trigger, async: event("generation/finished", { generationId: "gen_1" }) })).toBe(true);
    expect(evaluateExpression(condition, { event: trigger, async: event("generation/finished", { generationId: "gen_2" }) })).toBe(false);
    expect(evaluateExpression(condition, { event: trigger, async: event("generation/finished", { other: 1 }) })).toBe(false);
  });

  it("combines conditions with && || ! and parentheses, single- or double-quoted", () => {
    const candidate = event("test/signal", { generationId: "gen_1", kind: "go", attempt: 3 });
    const vars = { event: trigger, async: candidate };
    expect(evaluateExpression('async.data.kind == "go" && async.data.generationId == event.data.generationId', vars)).toBe(true);
    expect(evaluateExpression("async.data.kind == 'stop' || (async.data.attempt >= 3 && !(async.data.kind != 'go'))", vars)).toBe(true);
    expect(evaluateExpression("async.data.attempt < event.data.count", vars)).toBe(false);
    expect(evaluateExpression("event.data.options.audio == true && event.data.note == null && event.data.tags[1] == 'b'", vars)).toBe(true);
    expect(evaluateExpression('async.data["kind"] == "go" && has(async.data.attempt) && !has(async.data.missing)', vars)).toBe(true);
  });

  it("compares JSON numbers with integer and decimal literals", () => {
    const vars = { event: trigger, async: event("test/n", { n: 5, ratio: 1.5 }) };
    expect(evaluateExpression("async.data.n == 5 && async.data.n == 5.0 && async.data.ratio > 1", vars)).toBe(true);
    expect(evaluateExpression('async.data.n == "5"', vars)).toBe(false);
  });

  it("does not match when evaluation fails: a missing key or mismatched operand types", () => {
    const vars = { event: trigger, async: event("test/x", { kind: "go" }) };
    expect(evaluateExpression('async.data.missing == "x"', vars)).toBe(false);
    expect(evaluateExpression('async.data.missing != "x"', vars)).toBe(false);
    expect(evaluateExpression("async.data.kind < 3", vars)).toBe(false);
    // CEL's commutative || and &&: the failing side does not decide when the other one does.
    expect(evaluateExpression('async.data.missing == "x" || async.data.kind == "go"', vars)).toBe(true);
    expect(evaluateExpression('async.data.missing == "x" && async.data.kind == "stop"', vars)).toBe(false);
  });

  it("matches only on a true value", () => {
    const vars = { event: trigger, async: event("test/x", { kind: "go", flag: true }) };
    expect(evaluateExpression("async.data.flag", vars)).toBe(true);
    expect(evaluateExpression("async.data.kind", vars)).toBe(false);
  });

  it("throws on an expression that does not compile, every time", () => {
    const vars = { event: trigger, async: trigger };
    for (const bad of ['async.data.kind == "go" &&', "async.data.kind === 'go'", "unknown.data == 1", '1 == "a"', '"text"']) {
      expect(() => evaluateExpression(bad, vars), bad).toThrow(/^expression /);
      expect(() => evaluateExpression(bad, vars), bad).toThrow(/^expression /);
    }
  });
});

describe("event names and triggers", () => {
  it("matches names exactly or by a trailing wildcard", () => {
    expect(eventNameMatches("generation/finished", "generation/finished")).toBe(true);
    expect(eventNameMatches("generation/finished", "generation/finished2")).toBe(false);
    expect(eventNameMatches("generation/*", "generation/finished")).toBe(true);
    expect(eventNameMatches("generation/*", "webhook/delivery")).toBe(false);
  });

  it("starts a run on the name, then on the trigger's expression over `event`", () => {
    expect(triggerMatches({ event: "generation/requested" }, trigger)).toBe(true);
    expect(triggerMatches({ event: "generation/finished" }, trigger)).toBe(false);
    expect(triggerMatches({ event: "generation/requested", expression: "event.data.count > 1" }, trigger)).toBe(true);
    expect(triggerMatches({ event: "generation/requested", expression: "event.data.count > 2" }, trigger)).toBe(false);
    expect(triggerMatches({ event: "generation/requested", expression: "event.data.missing == 1" }, trigger)).toBe(false);
    expect(triggerMatches({ cron: "* * * * *" }, trigger)).toBe(false);
  });
});
