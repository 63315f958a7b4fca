"use client";

import { Bar, BarChart, CartesianGrid, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import { valueAxis } from "@/components/ui/chart-axis";
import type { DailyActivity } from "@/server/usage/daily-activity";

// Generations per day, stacked by outcome: a glance says whether things are working.

const dayLabel = (day: string) =>
  new Date(`${day}T00:00:00Z`).toLocaleDateString("en", { month: "short", day: "numeric", timeZone: "UTC" });

export function ActivityChart({ data }: { data: DailyActivity[] }) {
  const axis = valueAxis(
    data.map((day) => day.succeeded + day.failed + day.canceled),
    "count",
  );
  return (
    <div className="h-64 w-full" role="img" aria-label="Generations per day over the last 30 days, by outcome">
      <ResponsiveContainer width="100%" height="100%">
        <BarChart data={data} margin={{ top: 8, right: 8, bottom: 0, left: -16 }}>
          <CartesianGrid vertical={false} stroke="#f4f4f5" />
          <XAxis
            dataKey="day"
            tickFormatter={dayLabel}
            tick={{ fontSize: 11, fill: "#71717a" }}
            tickLine={false}
            axisLine={false}
            minTickGap={24}
          />
          <YAxis
            domain={axis.domain}
            ticks={axis.ticks}
            tickFormatter={axis.tickFormatter}
            interval={0}
            tick={{ fontSize: 11, fill: "#71717a" }}
            tickLine={false}
            axisLine={false}
          />
          <Tooltip
            cursor={{ fill: "#f4f4f5" }}
            labelFormatter={(label) => dayLabel(String(label))}
            contentStyle={{ borderRadius: 8, border: "1px solid #e4e4e7", fontSize: 12, boxShadow: "0 4px 12px rgb(0 0 0 / 0.06)" }}
          />
          <Bar dataKey="succeeded" name="Succeeded" stackId="outcome" fill="#18181b" radius={[0, 0, 0, 0]} maxBarSize={22} />
          <Bar dataKey="failed" name="Failed" stackId="outcome" fill="#ef4444" maxBarSize={22} />
          <Bar dataKey="canceled" name="Canceled" stackId="outcome" fill="#d4d4d8" radius={[3, 3, 0, 0]} maxBarSize={22} />
        </BarChart>
      </ResponsiveContainer>
    </div>
  );
}
