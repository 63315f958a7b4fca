"use client";

import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import { formatCredits } from "@/components/dashboard/format-credits";
import { valueAxis } from "@/components/ui/chart-axis";
import type { DailyUsage } from "@/server/usage/daily-usage";

// Requests per day by outcome and estimated spend per day (UTC days), styled like the overview chart.

const dayLabel = (day: string) =>
  new Date(`${day}T00:00:00Z`).toLocaleDateString("en", { month: "short", day: "numeric", timeZone: "UTC" });
const axisTick = { fontSize: 11, fill: "#71717a" };
const tooltipStyle = { borderRadius: 8, border: "1px solid #e4e4e7", fontSize: 12, boxShadow: "0 4px 12px rgb(0 0 0 / 0.06)" };

export function RequestsChart({ data, days }: { data: DailyUsage[]; days: number }) {
  const axis = valueAxis(
    data.map((day) => day.success + day.client_errors + day.server_errors),
    "count",
  );
  return (
    <div className="h-64 w-full" role="img" aria-label={`API requests per day over the last ${days} days, by outcome`}>
      <ResponsiveContainer width="100%" height="100%">
        <BarChart data={data} margin={{ top: 8, right: 8, bottom: 0, left: -16 }}>
          <CartesianGrid vertical={false} stroke="#f4f4f5" />
          <XAxis dataKey="day" tickFormatter={dayLabel} tick={axisTick} tickLine={false} axisLine={false} minTickGap={24} />
          <YAxis
            domain={axis.domain}
            ticks={axis.ticks}
            tickFormatter={axis.tickFormatter}
            interval={0}
            tick={axisTick}
            tickLine={false}
            axisLine={false}
          />
          <Tooltip cursor={{ fill: "#f4f4f5" }} labelFormatter={(label) => dayLabel(String(label))} contentStyle={tooltipStyle} />
          <Legend iconType="circle" iconSize={8} wrapperStyle={{ fontSize: 12 }} />
          <Bar dataKey="success" name="Success (2xx)" stackId="outcome" fill="#18181b" maxBarSize={22} isAnimationActive={false} />
          <Bar
            dataKey="client_errors"
            name="Client errors (4xx)"
            stackId="outcome"
            fill="#f59e0b"
            maxBarSize={22}
            isAnimationActive={false}
          />
          <Bar
            dataKey="server_errors"
            name="Server errors (5xx)"
            stackId="outcome"
            fill="#ef4444"
            radius={[3, 3, 0, 0]}
            maxBarSize={22}
            isAnimationActive={false}
          />
        </BarChart>
      </ResponsiveContainer>
    </div>
  );
}

export function SpendChart({ data, days }: { data: DailyUsage[]; days: number }) {
  const axis = valueAxis(
    data.map((day) => day.estimated_cost),
    "credits",
  );
  return (
    <div className="h-56 w-full" role="img" aria-label={`Estimated spend in credits per day over the last ${days} days`}>
      <ResponsiveContainer width="100%" height="100%">
        <BarChart data={data} margin={{ top: 8, right: 8, bottom: 0, left: -8 }}>
          <CartesianGrid vertical={false} stroke="#f4f4f5" />
          <XAxis dataKey="day" tickFormatter={dayLabel} tick={axisTick} tickLine={false} axisLine={false} minTickGap={24} />
          <YAxis
            domain={axis.domain}
            ticks={axis.ticks}
            tickFormatter={axis.tickFormatter}
            interval={0}
            tick={axisTick}
            tickLine={false}
            axisLine={false}
          />
          <Tooltip
            cursor={{ fill: "#f4f4f5" }}
            labelFormatter={(label) => dayLabel(String(label))}
            formatter={(value) => [`${formatCredits(Number(value))} credits`, "Spend"]}
            contentStyle={tooltipStyle}
          />
          <Bar dataKey="estimated_cost" name="Spend" fill="#3f3f46" radius={[3, 3, 0, 0]} maxBarSize={22} isAnimationActive={false} />
        </BarChart>
      </ResponsiveContainer>
    </div>
  );
}
