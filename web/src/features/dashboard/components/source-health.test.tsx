import { screen, waitFor, within } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { i18n } from "@/i18n/i18n";
import { renderWithProviders } from "@/testing/render";
import { supabaseMock } from "@/testing/supabase-mock";
import { dashboardQueries } from "../api/queries";
import { SourceHealth } from "./source-health";

const NOW = Date.parse("2026-06-01T12:00:00Z");
const ago = (ms: number) => new Date(NOW - ms).toISOString();

const rows = [
  {
    source: "binance",
    state: "failing",
    quotes: 0,
    failure: "http",
    http_status: 503,
    backoff_until: null,
    last_attempt_at: ago(4_000),
    last_success_at: ago(5 * 60_000),
  },
  {
    source: "coinbase",
    state: "backoff",
    quotes: 0,
    failure: null,
    http_status: null,
    backoff_until: "2026-06-01T12:02:00Z",
    last_attempt_at: ago(4_000),
    last_success_at: null,
  },
  {
    source: "dex",
    state: "ok",
    quotes: 40,
    failure: null,
    http_status: null,
    backoff_until: null,
    last_attempt_at: ago(10 * 60_000),
    last_success_at: ago(10 * 60_000),
  },
  {
    source: "simulated",
    state: "ok",
    quotes: 324,
    failure: null,
    http_status: null,
    backoff_until: null,
    last_attempt_at: ago(3_000),
    last_success_at: ago(3_000),
  },
];

const items = async () =>
  within(await screen.findByTestId("source-health"))
    .getAllByRole("listitem")
    .map((li) => li.textContent);

afterEach(async () => {
  await i18n.changeLanguage("en");
});

describe("SourceHealth", () => {
  it("says for each venue whether it is live, backing off, failing with what, or not scanned lately", async () => {
    supabaseMock.setTable("source_health", { data: rows, error: null });
    renderWithProviders(<SourceHealth now={NOW} />);
    expect(await screen.findByRole("heading", { name: "Sources" })).toBeInTheDocument();
    const texts = await items();
    expect(texts[0]).toBe("BinanceFailing: the venue answered HTTP 503 · last success: 5 min ago");
    expect(texts[1]).toMatch(/^CoinbaseBacking off until .*12:02:00.* · no success yet$/);
    expect(texts[2]).toBe("DEX pools (GeckoTerminal)No scan lately (last: 10 min ago)");
    expect(texts[3]).toBe("Simulated marketLive · 324 quotes · last scan: Now");
  });

  it("keeps its line's height while the first read is under way, hidden from screen readers", async () => {
    supabaseMock.setTable("source_health", { data: rows, error: null });
    renderWithProviders(<SourceHealth now={NOW} />);
    const pending = screen.getByTestId("source-health-pending");
    expect(pending).toHaveAttribute("aria-hidden", "true");
    expect(screen.queryByRole("heading", { name: "Sources" })).not.toBeInTheDocument();
    // Then the venues take its place: one row, scrollable (and focusable) on phones.
    const list = await screen.findByTestId("source-health");
    expect(screen.queryByTestId("source-health-pending")).not.toBeInTheDocument();
    expect(list).toHaveAttribute("tabindex", "0");
    expect(list).toHaveAccessibleName("Sources");
  });

  it("shows nothing before the first scan", async () => {
    supabaseMock.setTable("source_health", { data: [], error: null });
    const { queryClient } = renderWithProviders(<SourceHealth now={NOW} />);
    // The absence must be the answer's, not the loading state's: wait for the empty list to land.
    await waitFor(() =>
      expect(queryClient.getQueryState(dashboardQueries.sourceHealth().queryKey)?.status).toBe(
        "success",
      ),
    );
    expect(queryClient.getQueryData(dashboardQueries.sourceHealth().queryKey)).toEqual([]);
    expect(screen.queryByRole("heading", { name: "Sources" })).not.toBeInTheDocument();
    expect(screen.queryByTestId("source-health")).not.toBeInTheDocument();
  });

  it("speaks Spanish", async () => {
    await i18n.changeLanguage("es");
    supabaseMock.setTable("source_health", { data: rows.slice(0, 1), error: null });
    renderWithProviders(<SourceHealth now={NOW} />);
    expect((await items())[0]).toMatch(
      /^BinanceFallando: el exchange respondió HTTP 503 · último éxito: /,
    );
  });

  it("shows each venue's cadence and the age of its newest quote on the venue's clock", async () => {
    const live = (source: string, cadence: number, quoteAge: number) => ({
      source,
      state: "ok",
      quotes: 12,
      failure: null,
      http_status: null,
      backoff_until: null,
      last_attempt_at: ago(1_000),
      last_success_at: ago(1_000),
      cadence_seconds: cadence,
      last_quote_at: ago(quoteAge),
    });
    supabaseMock.setTable("source_health", {
      data: [live("binance", 2, 1_500), live("dex", 15, 40_000)],
      error: null,
    });
    renderWithProviders(<SourceHealth now={NOW} />);
    expect(await items()).toEqual([
      "BinanceLive · 12 quotes · every 2 s · last quote: 1 s old",
      "DEX pools (GeckoTerminal)Live · 12 quotes · every 15 s · last quote: 40 s old",
    ]);
    await i18n.changeLanguage("de");
    expect((await items())[0]).toBe("BinanceLive · 12 Kurse · alle 2 s · letzter Kurs: 1 s alt");
  });

  it("adds each venue's stream: live, dropped (degraded: polling carries it), or a reader that stopped", async () => {
    const polled = (source: string) => ({
      source,
      state: "ok",
      quotes: 12,
      failure: null,
      http_status: null,
      backoff_until: null,
      last_attempt_at: ago(1_000),
      last_success_at: ago(1_000),
      cadence_seconds: 2,
      last_quote_at: ago(1_500),
    });
    supabaseMock.setTable("source_health", {
      data: [polled("binance"), polled("coinbase"), polled("dex")],
      error: null,
    });
    supabaseMock.setTable("stream_health", {
      data: [
        {
          source: "binance",
          state: "connected",
          dropped_at: null,
          reconnects: 1,
          last_message_at: ago(1_000),
          reported_at: ago(500),
        },
        {
          source: "coinbase",
          state: "dropped",
          dropped_at: ago(3_000),
          reconnects: 2,
          last_message_at: ago(8_000),
          reported_at: ago(500),
        },
      ],
      error: null,
    });
    const first = renderWithProviders(<SourceHealth now={NOW} />);
    await waitFor(async () =>
      expect(await items()).toEqual([
        "BinanceLive · 12 quotes · every 2 s · last quote: 1 s old · Stream live · last message: 1 s old · 1 reconnect",
        "CoinbaseLive · 12 quotes · every 2 s · last quote: 1 s old · Stream dropped, polling carries the venue · last message: 8 s old · 2 reconnects",
        "DEX pools (GeckoTerminal)Live · 12 quotes · every 2 s · last quote: 1 s old",
      ]),
    );
    // The dot repeats the words: a dropped stream is a warning, not "ok".
    const dots = within(screen.getByTestId("source-health"))
      .getAllByRole("listitem")
      .map((li) => li.querySelector("span[aria-hidden]")!.className);
    expect(dots[0]).toContain("bg-success");
    expect(dots[1]).toContain("bg-amber-500");
    first.unmount();

    supabaseMock.setTable("stream_health", {
      data: [
        {
          source: "binance",
          state: "connected",
          dropped_at: null,
          reconnects: 0,
          last_message_at: ago(120_000),
          reported_at: ago(120_000),
        },
      ],
      error: null,
    });
    await i18n.changeLanguage("fr");
    renderWithProviders(<SourceHealth now={NOW} />);
    await waitFor(async () =>
      expect((await items())[0]).toMatch(
        /Lecteur de flux arrêté \(dernier rapport : il y a 2 min\)$/,
      ),
    );
  });
  it("a venue whose stream confirms its set shows the confirmed-through age; a run without a full poll since shows the quote's", async () => {
    const polled = (source: string) => ({
      source,
      state: "ok",
      quotes: 12,
      failure: null,
      http_status: null,
      backoff_until: null,
      last_attempt_at: ago(1_000),
      last_success_at: ago(25_000),
      cadence_seconds: 2,
      last_quote_at: ago(25_500),
    });
    supabaseMock.setTable("source_health", {
      data: [polled("binance"), polled("coinbase")],
      error: null,
    });
    const stream = (source: string, since: number) => ({
      source,
      state: "connected",
      dropped_at: null,
      reconnects: 0,
      last_message_at: ago(1_000),
      reported_at: ago(500),
      confirmed_since: ago(since),
      confirmed_through: ago(3_000),
    });
    supabaseMock.setTable("stream_health", {
      // Binance's run began before its last full poll; Coinbase's after it (confirms nothing yet).
      data: [stream("binance", 60_000), stream("coinbase", 10_000)],
      error: null,
    });
    renderWithProviders(<SourceHealth now={NOW} />);
    await waitFor(async () =>
      expect(await items()).toEqual([
        "BinanceLive · 12 quotes · every 2 s · last quote: 3 s old · Stream live · last message: 1 s old · 0 reconnects",
        "CoinbaseLive · 12 quotes · every 2 s · last quote: 25 s old · Stream live · last message: 1 s old · 0 reconnects",
      ]),
    );
  });
});
