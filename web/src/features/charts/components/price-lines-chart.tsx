import { useTranslation } from "react-i18next";
import {
  CartesianGrid,
  Legend,
  Line,
  LineChart,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from "recharts";
import { dateTimeFormat } from "@/lib/time-zone";

/** Series colours, readable in both themes. */
const COLORS = [
  "#3b82f6",
  "#f59e0b",
  "#10b981",
  "#ef4444",
  "#8b5cf6",
  "#ec4899",
  "#14b8a6",
  "#84cc16",
];

export type PriceSeries = {
  id: string;
  name: string;
  /** Change in percent since the series' first point, by time (epoch ms). */
  points: { t: number; pct: number }[];
};

type PriceLinesChartProps = {
  series: readonly PriceSeries[];
  label: string;
  /** Spans of days show the date on the time axis, not only the time. */
  days?: boolean;
};

/** The charts page's line chart: one line per symbol on a shared time axis. */
export function PriceLinesChart({ series, label, days = false }: PriceLinesChartProps) {
  const { i18n } = useTranslation();
  const locale = i18n.resolvedLanguage ?? "en";
  const time = dateTimeFormat(
    locale,
    days
      ? { month: "short", day: "numeric", hour: "2-digit", minute: "2-digit" }
      : { hour: "2-digit", minute: "2-digit" },
  );
  const percent = new Intl.NumberFormat(locale, {
    style: "percent",
    maximumFractionDigits: 2,
    signDisplay: "exceptZero",
  });

  return (
    <figure aria-label={label} className="h-80 w-full sm:h-96">
      <ResponsiveContainer width="100%" height="100%">
        <LineChart margin={{ top: 8, right: 16, bottom: 8, left: 8 }}>
          <CartesianGrid strokeDasharray="3 3" className="stroke-border" />
          <XAxis
            dataKey="t"
            type="number"
            scale="time"
            domain={["dataMin", "dataMax"]}
            tickCount={8}
            tickFormatter={(value: number) => time.format(value)}
            allowDuplicatedCategory={false}
            stroke="currentColor"
            className="text-xs text-muted-foreground"
          />
          <YAxis
            tickFormatter={(value: number) => percent.format(value / 100)}
            width={64}
            stroke="currentColor"
            className="text-xs text-muted-foreground"
          />
          <Tooltip
            labelFormatter={(value) => time.format(Number(value))}
            formatter={(value) => percent.format(Number(value) / 100)}
            contentStyle={{
              background: "var(--popover)",
              color: "var(--popover-foreground)",
              border: "1px solid var(--border)",
              borderRadius: 6,
            }}
          />
          <Legend />
          {series.map((item, index) => (
            <Line
              key={item.id}
              data={item.points}
              dataKey="pct"
              name={item.name}
              type="monotone"
              dot={false}
              strokeWidth={2}
              stroke={COLORS[index % COLORS.length]}
              isAnimationActive={false}
            />
          ))}
        </LineChart>
      </ResponsiveContainer>
    </figure>
  );
}
