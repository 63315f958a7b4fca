import { spawnSync } from "node:child_process";
import type { Locator } from "@playwright/test";
import { expect, test } from "@/e2e/support/fixtures";
import { close } from "@/e2e/support/db";
import { signInThroughMailbox } from "@/e2e/support/sign-in";

// The dashboard's charts label their y axes with distinct values: one generation's 0.002 credits
// of spend once read 0.002, 0.002, 0.001, 0.001, 0.00 (issue #43 row 17).

test.afterAll(close);

function createKey(accountId: string): string {
  const result = spawnSync(
    process.execPath,
    ["--import", "tsx", "--conditions=react-server", "server/start/cli/main.ts", "key:create", "--account", accountId],
    {
      encoding: "utf8",
      env: process.env,
    },
  );
  return (JSON.parse(result.stdout.trim().split("\n").at(-1) ?? "") as { key: string }).key;
}

async function yAxisLabels(chart: Locator) {
  const ticks = chart.locator(".recharts-yAxis-tick-labels .recharts-cartesian-axis-tick-value");
  await expect(ticks).not.toHaveCount(0);
  return ticks.allTextContents();
}

test("every chart's y axis: distinct labels, enough decimals for a spend of 0.002", async ({ page, saveScreenshot }) => {
  const { accountId } = await signInThroughMailbox(page);
  const key = createKey(accountId);
  const created = await page.request.post("/v1/generate/image/darkroom/lumen-image", {
    headers: { authorization: `Bearer ${key}` },
    data: { generation_prompt: "one small spend" },
  });
  expect(created.status(), await created.text()).toBe(202);

  await page.goto(`/dashboard/${accountId}/usage`);
  const spend = await yAxisLabels(page.getByRole("img", { name: /Estimated spend/ }));
  expect(spend).toEqual(["0.000", "0.001", "0.002"]);
  const requests = await yAxisLabels(page.getByRole("img", { name: /API requests per day/ }));
  expect(new Set(requests).size).toBe(requests.length);
  await saveScreenshot("usage-charts");

  await page.goto(`/dashboard/${accountId}`);
  const activity = await yAxisLabels(page.getByRole("img", { name: /Generations per day/ }));
  expect(activity).toEqual(["0", "1"]);
  await saveScreenshot("overview-activity-chart");
});
