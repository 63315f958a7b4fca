import { describe, expect, it } from "vitest";
import { recordDrill, sized, timed } from "@/tests/reliability/drill";
import {
  DRILL_BODY,
  fundedEnterpriseAccount,
  generationsByStatus,
  ledgerTotals,
  newIdempotencyKey,
  sendCreate,
  tally,
  untilSettled,
  type CreateAnswer,
} from "@/tests/reliability/money";

// R2 (issue #13): no credit is spent twice for one request. A storm of concurrent creates under
// one Idempotency-Key: with one body, exactly one generation and one reservation, and every other
// answer a replay of the first (same request_id, same generation) or ERR2016 (still in progress);
// with a different body each, ERR2015 for all but the one that won the key. Each round has its
// own account, funded for many creates, so a second generation would have had the credits to happen.

const concurrent = sized(20, 50);
const rounds = sized(2, 5);
const fundedFor = 10;

type Round = { answers: CreateAnswer[]; generations: Record<string, number>; reserves: number; followUp: CreateAnswer };

async function stormRound(bodyOf: (index: number) => Record<string, unknown>): Promise<Round> {
  const account = await fundedEnterpriseAccount(fundedFor);
  const headers = { "idempotency-key": newIdempotencyKey() };
  const answers = await Promise.all(Array.from({ length: concurrent }, (_, index) => sendCreate(account.key, bodyOf(index), headers)));
  await untilSettled([account.accountId], 60_000);
  const original = answers.find((answer) => answer.status === 202 && !answer.replayed);
  // Once the first request has finished, its key answers every repeat of its body with a replay.
  const followUp = await sendCreate(account.key, original ? bodyOf(answers.indexOf(original)) : DRILL_BODY, headers);
  return {
    answers,
    generations: await generationsByStatus(account.accountId),
    reserves: (await ledgerTotals(account.accountId)).reserves,
    followUp,
  };
}

function originalOf(round: Round): CreateAnswer {
  const originals = round.answers.filter((answer) => answer.status === 202 && !answer.replayed);
  expect(originals, JSON.stringify(tally(round.answers))).toHaveLength(1);
  return originals[0]!;
}

function checkOneGeneration(round: Round, original: CreateAnswer) {
  expect(round.generations).toEqual({ succeeded: 1 });
  expect(round.reserves).toBe(1);
  expect(round.followUp).toMatchObject({ status: 202, replayed: true, requestId: original.requestId, generationId: original.generationId });
}

function figuresOf(results: Round[]) {
  const answers = results.flatMap((round) => round.answers);
  const counts = tally(answers);
  return {
    rounds: results.length,
    "concurrent creates per round": concurrent,
    "creates sent": answers.length,
    "accepted (first of the key)": answers.filter((answer) => answer.status === 202 && !answer.replayed).length,
    "replayed (same request_id)": answers.filter((answer) => answer.replayed).length,
    ERR2016: counts.ERR2016 ?? 0,
    ERR2015: counts.ERR2015 ?? 0,
    "other answers": answers.filter((answer) => answer.status !== 202 && !["ERR2015", "ERR2016"].includes(answer.code ?? "")).length,
    "generations created": results.reduce(
      (total, round) => total + Object.values(round.generations).reduce((sum, count) => sum + count, 0),
      0,
    ),
    "reservations written": results.reduce((total, round) => total + round.reserves, 0),
  };
}

describe("R2 idempotency storm", () => {
  it(
    "one key, one body: one generation, one reservation, the rest replays or ERR2016",
    async () => {
      const { result: results, durationMs } = await timed(async () => {
        const done: Round[] = [];
        for (let round = 0; round < rounds; round += 1) done.push(await stormRound(() => DRILL_BODY));
        return done;
      });
      for (const round of results) {
        const original = originalOf(round);
        for (const answer of round.answers) {
          if (answer === original) continue;
          if (answer.status === 202)
            expect(answer).toMatchObject({ replayed: true, requestId: original.requestId, generationId: original.generationId });
          else expect(answer.code, JSON.stringify(answer)).toBe("ERR2016");
        }
        checkOneGeneration(round, original);
      }
      recordDrill("same-body", {
        drill: "R2",
        title: "Idempotency storm: one key, one body",
        size: sized("reduced", "full"),
        durationMs,
        figures: figuresOf(results),
        checked: [
          "exactly one create per round was accepted as new",
          "every other answer was a replay with the original request_id and generation, or ERR2016",
          "one generation (succeeded) and one reservation per round, on an account funded for ten",
          "after the storm the key replays the original answer",
        ],
      });
    },
    sized(120_000, 300_000),
  );

  it(
    "one key, a different body each: ERR2015 for all but the one that won the key",
    async () => {
      const bodyOf = (index: number) => ({ ...DRILL_BODY, generation_prompt: `${DRILL_BODY.generation_prompt} #${index}` });
      const { result: results, durationMs } = await timed(async () => {
        const done: Round[] = [];
        for (let round = 0; round < rounds; round += 1) done.push(await stormRound(bodyOf));
        return done;
      });
      for (const round of results) {
        const original = originalOf(round);
        for (const answer of round.answers) if (answer !== original) expect(answer.code, JSON.stringify(answer)).toBe("ERR2015");
        checkOneGeneration(round, original);
      }
      recordDrill("different-bodies", {
        drill: "R2",
        title: "Idempotency storm: one key, a different body each",
        size: sized("reduced", "full"),
        durationMs,
        figures: figuresOf(results),
        checked: [
          "exactly one create per round was accepted",
          "every other answer was ERR2015",
          "one generation (succeeded) and one reservation per round",
          "after the storm the key replays the winner's answer to the winner's body",
        ],
      });
    },
    sized(120_000, 300_000),
  );
});
