import { expect } from "vitest";
import { db } from "@/server/base/db";

// What the remote-provider HTTP suites read back after a /v1 generation: its attempts, its ledger,
// its stored video, and the two outputs no download may take (a fake's marker asks for them).

export const attemptsOf = (generationId: string) =>
  db.providerAttempt.findMany({
    where: { generationId },
    orderBy: { attemptNumber: "asc" },
    select: { provider: true, outcome: true, errorCode: true, errorMessage: true },
  });

export const ledgerTypes = async (generationId: string) =>
  (await db.ledgerEntry.findMany({ where: { generationId } })).map((entry) => entry.type).sort();

/** The stored output is served and is an MP4 (its `ftyp` box). */
export async function expectServedMp4(url: string) {
  const file = await fetch(url);
  expect(file.status).toBe(200);
  expect(
    Buffer.from(await file.arrayBuffer())
      .subarray(4, 8)
      .toString(),
  ).toBe("ftyp");
}

/** [label, the fake's prompt marker, the reason the attempt records] for `[<provider>:output-internal]` and `-oversized`. */
export function refusedOutputs(provider: string): [string, string, string][] {
  return [
    [
      "an output URL on an address that reaches loopback",
      `[${provider}:output-internal]`,
      "An output URL was refused: 0.0.0.0 is an unspecified address",
    ],
    ["an output larger than the cap", `[${provider}:output-oversized]`, "An output is larger than the 200 MiB cap per output file"],
  ];
}
