import { formatClockTime } from "@domain/format";
import { SOURCE_STALE_MS, venueConfirmedThrough } from "@domain/quote-age";
import { useTranslation } from "react-i18next";
import { useTransitionQuery } from "@/hooks/use-transition-query";
import { cn } from "@/lib/utils";
import { dashboardQueries, type SourceHealthRow, type StreamHealthRow } from "../api/queries";
import { useNow } from "../hooks/use-now";
import { formatAge, formatQuoteAge, formatSeconds } from "../utils/format-market";

/** A stream reader reports once a second: silent for this long, it is not running. */
export const STREAM_REPORT_STALE_MS = 30_000;

const KNOWN_FAILURES = ["network", "timeout", "http", "parse", "empty", "config"] as const;

type Tone = "ok" | "warn" | "bad";
const dot: Record<Tone, string> = {
  ok: "bg-success",
  warn: "bg-amber-500",
  bad: "bg-destructive",
};

/**
 * Each venue's state after the latest scan: live with its quote count and the scan's age, backing
 * off until when, or failing with what and since when it last delivered; stale when no scan
 * reached it lately. The words carry the state, the dot only repeats it.
 */
export function SourceHealth({ now: fixedNow }: { now?: number } = {}) {
  const { t, i18n } = useTranslation("dashboard");
  // Its own clock, so the page around it does not re-render every 5 s (decision 0065).
  const ticking = useNow();
  const now = fixedNow ?? ticking;
  const health = useTransitionQuery(dashboardQueries.sourceHealth());
  const streams = useTransitionQuery(dashboardQueries.streamHealth());
  // While the first read is under way the line's height is kept (a title and one row of
  // venues), so the filters and the list below do not move when it arrives (decision 0065).
  if (health.isPending) {
    return (
      <div aria-hidden="true" data-testid="source-health-pending" className="flex flex-col gap-2">
        <div className="h-5 w-16 rounded bg-muted/60" />
        {/* The venues' row: 30 px chips over its 4 px scroll padding (pb-1). */}
        <div className="mb-1 h-[30px] w-full max-w-xl animate-pulse rounded-md bg-muted/40" />
      </div>
    );
  }
  if (!health.data || health.data.length === 0) return null;
  const locale = i18n.resolvedLanguage ?? "en";
  const streamOf = new Map((streams.data ?? []).map((row) => [row.source, row]));

  /**
   * The venue's stream as its reader reported it (decision 0061): live, dropped (degraded: polling
   * carries the venue while the reader reconnects), or a reader that stopped reporting.
   */
  const describeStream = (row: StreamHealthRow): { degraded: boolean; text: string } => {
    const reconnects = t("sources.stream.reconnects", { count: row.reconnects });
    const lastMessage = row.last_message_at ? formatQuoteAge(t, row.last_message_at, now) : "—";
    if (now - Date.parse(row.reported_at) > STREAM_REPORT_STALE_MS) {
      return {
        degraded: true,
        text: t("sources.stream.stopped", { age: formatAge(t, row.reported_at, now) }),
      };
    }
    if (row.state === "dropped") {
      return {
        degraded: true,
        text: `${t("sources.stream.dropped", { age: lastMessage })} · ${reconnects}`,
      };
    }
    return {
      degraded: false,
      text: `${t("sources.stream.connected", { age: lastMessage })} · ${reconnects}`,
    };
  };

  const describe = (row: SourceHealthRow): { tone: Tone; text: string } => {
    const lastSuccess = row.last_success_at
      ? t("sources.lastSuccess", { age: formatAge(t, row.last_success_at, now) })
      : t("sources.neverSucceeded");
    if (now - Date.parse(row.last_attempt_at) > SOURCE_STALE_MS) {
      return {
        tone: "bad",
        text: t("sources.stale", { age: formatAge(t, row.last_attempt_at, now) }),
      };
    }
    if (row.state === "backoff") {
      return {
        tone: "warn",
        text: `${t("sources.backoff", { time: formatClockTime(row.backoff_until ?? now, locale) })} · ${lastSuccess}`,
      };
    }
    if (row.state === "failing") {
      const failure = (KNOWN_FAILURES as readonly string[]).includes(row.failure ?? "")
        ? (row.failure as (typeof KNOWN_FAILURES)[number])
        : "other";
      return {
        tone: "bad",
        text: `${t("sources.failing", {
          reason: t(`sources.failures.${failure}`, { status: row.http_status ?? "?" }),
        })} · ${lastSuccess}`,
      };
    }
    // Each venue's cadence and the age of its newest quote on the venue's clock (decision 0033),
    // or of its confirmed-through time when its stream confirmed the venue's set later (0079).
    const newest = venueConfirmedThrough(streamOf.get(row.source), row);
    if (row.cadence_seconds && row.last_quote_at && newest) {
      return {
        tone: "ok",
        text: t("sources.liveCadence", {
          count: row.quotes,
          cadence: formatSeconds(t, Number(row.cadence_seconds)),
          age: formatQuoteAge(t, new Date(newest.at).toISOString(), now),
        }),
      };
    }
    return {
      tone: "ok",
      text: t("sources.live", {
        count: row.quotes,
        age: formatAge(t, row.last_attempt_at, now),
      }),
    };
  };

  return (
    <section aria-labelledby="sources-title" className="flex flex-col gap-2">
      <h2 id="sources-title" className="text-sm font-medium text-muted-foreground">
        {t("sources.title")}
      </h2>
      {/* One row that scrolls sideways on phones (always one row high), wrapping from md. */}
      <ul
        className="-mx-1 flex gap-2 overflow-x-auto px-1 pb-1 md:flex-wrap md:overflow-visible"
        data-testid="source-health"
        aria-labelledby="sources-title"
        // Scrollable on phones: reachable with the keyboard.
        tabIndex={0}
      >
        {health.data.map((row) => {
          const polled = describe(row);
          const stream = streamOf.get(row.source);
          const streamed = stream ? describeStream(stream) : null;
          // A dropped stream degrades a live venue to a warning; a failing poll stays failing.
          const tone: Tone = streamed?.degraded && polled.tone === "ok" ? "warn" : polled.tone;
          const text = streamed ? `${polled.text} · ${streamed.text}` : polled.text;
          return (
            <li
              key={row.source}
              className="flex shrink-0 items-center gap-2 rounded-md border px-3 py-1.5 text-xs whitespace-nowrap md:shrink md:whitespace-normal"
            >
              <span aria-hidden="true" className={cn("size-2 shrink-0 rounded-full", dot[tone])} />
              <span className="font-semibold">
                {t(`sources.names.${row.source}`, { defaultValue: row.source })}
              </span>
              <span className="text-muted-foreground">{text}</span>
            </li>
          );
        })}
      </ul>
    </section>
  );
}
