import { formatCredits } from "@/components/dashboard/format-credits";
import { Card, CardHeader, Table, TBody, TD, TH, THead, TR } from "@/components/ui";
import type { PricingBreakdown } from "./model-types";

// `model_pricing_breakdown` as a small table: per image by ratio, per megapixel (with each
// ratio's size), or per second by resolution with the audio surcharge.

export function PricingCard({ breakdown }: { breakdown: PricingBreakdown }) {
  return (
    <Card aria-labelledby="pricing-title">
      <CardHeader title={<span id="pricing-title">Pricing</span>} description={describe(breakdown)} />
      <PricingTable breakdown={breakdown} />
    </Card>
  );
}

function describe(breakdown: PricingBreakdown): string {
  switch (breakdown.unit) {
    case "image":
      return `${formatCredits(breakdown.price_per_image)} credits per image at the default ratio; each output is charged.`;
    case "megapixel":
      return `${formatCredits(breakdown.price_per_megapixel)} credits per megapixel: each ratio's size times that, rounded up to 0.001, per image.`;
    case "second":
      return breakdown.audio_price_per_second === null
        ? "Per second of output at each resolution. This model does not generate audio."
        : `Per second of output at each resolution; audio adds ${formatCredits(breakdown.audio_price_per_second)} credits per second.`;
  }
}

function PricingTable({ breakdown }: { breakdown: PricingBreakdown }) {
  if (breakdown.unit === "second") {
    const audio = breakdown.audio_price_per_second;
    return (
      <Table>
        <THead>
          <TR>
            <TH>Resolution</TH>
            <TH className="text-right">Per second</TH>
            {audio !== null && <TH className="text-right">Per second with audio</TH>}
          </TR>
        </THead>
        <TBody>
          {Object.entries(breakdown.price_per_second_by_resolution).map(([resolution, price]) => (
            <TR key={resolution}>
              <TD className="font-mono text-xs">{resolution}</TD>
              <TD className="text-right tabular-nums">{formatCredits(price)}</TD>
              {audio !== null && <TD className="text-right tabular-nums">{formatCredits(Math.round((price + audio) * 1000) / 1000)}</TD>}
            </TR>
          ))}
        </TBody>
      </Table>
    );
  }
  const megapixels = breakdown.unit === "megapixel" ? breakdown.megapixels_by_ratio : null;
  return (
    <Table>
      <THead>
        <TR>
          <TH>Ratio</TH>
          {megapixels && <TH className="text-right">Megapixels</TH>}
          <TH className="text-right">Per image</TH>
        </TR>
      </THead>
      <TBody>
        {Object.entries(breakdown.price_per_image_by_ratio).map(([ratio, price]) => (
          <TR key={ratio}>
            <TD className="font-mono text-xs">{ratio}</TD>
            {megapixels && <TD className="text-right tabular-nums">{megapixels[ratio] ?? "—"}</TD>}
            <TD className="text-right tabular-nums">{formatCredits(price)}</TD>
          </TR>
        ))}
      </TBody>
    </Table>
  );
}
