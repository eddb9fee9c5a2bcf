import { useTranslation } from "react-i18next";
import {
  Bar,
  CartesianGrid,
  ComposedChart,
  Line,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from "recharts";
import { dateTimeFormat } from "@/lib/time-zone";

export type IndicatorLine = {
  key: string;
  name: string;
  color: string;
  /** Drawn as bars (volume) instead of a line. */
  bars?: boolean;
  /** A second axis on the right (OBV beside volume). */
  right?: boolean;
};

type IndicatorChartProps = {
  label: string;
  rows: readonly Record<string, number | null>[];
  lines: readonly IndicatorLine[];
  domain?: [number, number];
};

/** One small indicator pane under the analysis chart: lines (and bars) on a time axis. */
export function IndicatorChart({ label, rows, lines, domain }: IndicatorChartProps) {
  const { i18n } = useTranslation();
  const locale = i18n.resolvedLanguage ?? "en";
  const time = dateTimeFormat(locale, {
    month: "short",
    day: "numeric",
    hour: "2-digit",
    minute: "2-digit",
  });
  const number = new Intl.NumberFormat(locale, { maximumSignificantDigits: 6 });
  const compact = new Intl.NumberFormat(locale, { notation: "compact", maximumFractionDigits: 2 });
  return (
    <figure aria-label={label} className="h-36 w-full">
      <ResponsiveContainer width="100%" height="100%">
        <ComposedChart
          data={rows as Record<string, number | null>[]}
          margin={{ top: 4, right: 8, bottom: 0, left: 0 }}
        >
          <CartesianGrid strokeDasharray="3 3" className="stroke-border" />
          <XAxis
            dataKey="t"
            type="number"
            scale="time"
            domain={["dataMin", "dataMax"]}
            tickCount={5}
            tickFormatter={(value: number) => time.format(value)}
            stroke="currentColor"
            className="text-[10px] text-muted-foreground"
          />
          <YAxis
            yAxisId="left"
            domain={domain ?? ["auto", "auto"]}
            tickFormatter={(value: number) => compact.format(value)}
            width={48}
            stroke="currentColor"
            className="text-[10px] text-muted-foreground"
          />
          {lines.some((line) => line.right) && (
            <YAxis
              yAxisId="right"
              orientation="right"
              tickFormatter={(value: number) => compact.format(value)}
              width={48}
              stroke="currentColor"
              className="text-[10px] text-muted-foreground"
            />
          )}
          <Tooltip
            labelFormatter={(value) => time.format(Number(value))}
            formatter={(value) => number.format(Number(value))}
            contentStyle={{
              background: "var(--popover)",
              color: "var(--popover-foreground)",
              border: "1px solid var(--border)",
              borderRadius: 6,
            }}
          />
          {lines.map((line) =>
            line.bars ? (
              <Bar
                key={line.key}
                yAxisId={line.right ? "right" : "left"}
                dataKey={line.key}
                name={line.name}
                fill={line.color}
                opacity={0.5}
                isAnimationActive={false}
              />
            ) : (
              <Line
                key={line.key}
                yAxisId={line.right ? "right" : "left"}
                dataKey={line.key}
                name={line.name}
                type="monotone"
                dot={false}
                strokeWidth={1.5}
                stroke={line.color}
                connectNulls={false}
                isAnimationActive={false}
              />
            ),
          )}
        </ComposedChart>
      </ResponsiveContainer>
    </figure>
  );
}
