import { deepStrictEqual, ok, strictEqual as assertEquals, throws } from "node:assert/strict";
import { parseStreamWorkerArgs, REAL_STREAM_URLS, StreamWorkerArgsError } from "./stream-worker.ts";

const env = (values: Record<string, string>) => (name: string) => values[name];
const HOSTED = {
  SUPABASE_URL: "https://abcdefghijklmnopqrst.supabase.co/",
  SUPABASE_SERVICE_ROLE_KEY: "sb_secret_abc",
};

/** The problems an argument check reports, all at once. */
function problems(args: string[], values: Record<string, string>): string[] {
  try {
    parseStreamWorkerArgs(args, env(values));
  } catch (err) {
    ok(err instanceof StreamWorkerArgsError);
    ok(err.message.includes("usage: npm run worker:streams"));
    return err.problems;
  }
  throw new Error("the check passed");
}

Deno.test("worker:streams: the hosted settings give both streams at the venues' own URLs", () => {
  deepStrictEqual(parseStreamWorkerArgs([], env(HOSTED)), {
    supabaseUrl: "https://abcdefghijklmnopqrst.supabase.co",
    serviceKey: "sb_secret_abc",
    urls: { binance: REAL_STREAM_URLS.binance, coinbase: REAL_STREAM_URLS.coinbase },
  });
  // --venues, the SUPABASE_SECRET_KEY alias and a *_WS_URL of one's own.
  deepStrictEqual(
    parseStreamWorkerArgs(
      ["--venues", "coinbase"],
      env({
        SUPABASE_URL: "http://127.0.0.1:54321",
        SUPABASE_SECRET_KEY: "sb_secret_local",
        COINBASE_WS_URL: "ws://127.0.0.1:4000",
        COINBASE_API_URL: "http://127.0.0.1:4001",
      }),
    ),
    {
      supabaseUrl: "http://127.0.0.1:54321",
      serviceKey: "sb_secret_local",
      urls: { coinbase: "ws://127.0.0.1:4000" },
      coinbaseApiUrl: "http://127.0.0.1:4001",
    },
  );
  // MARKET_SOURCES names the venues when --venues is absent; the DEX has no stream.
  deepStrictEqual(
    parseStreamWorkerArgs([], env({ ...HOSTED, MARKET_SOURCES: "binance,dex" }))!.urls,
    { binance: REAL_STREAM_URLS.binance },
  );
  assertEquals(parseStreamWorkerArgs(["--help"], env({})), null);
});

Deno.test("worker:streams: every problem is reported at once, before anything connects", () => {
  deepStrictEqual(problems(["--venues", "binance,dex", "--fast"], {}), [
    "unknown argument --fast (use --venues, --help)",
    "--venues: dex has no stream (streams: binance, coinbase)",
    "SUPABASE_URL is missing: the project's https://<ref>.supabase.co",
    "SUPABASE_SERVICE_ROLE_KEY is missing: the project's service-role (secret) key, which ingest_scan requires",
  ]);
  deepStrictEqual(problems(["--venues"], HOSTED), [
    "--venues needs a list: binance,coinbase",
  ]);
  deepStrictEqual(problems([], { ...HOSTED, MARKET_SOURCES: "dex,simulated" }), [
    'no venue with a stream: MARKET_SOURCES is "dex,simulated" (streams: binance, coinbase)',
  ]);
  deepStrictEqual(
    problems([], {
      ...HOSTED,
      SUPABASE_URL: "abcdefghijklmnopqrst.supabase.co",
      BINANCE_WS_URL: "https://stream.binance.com",
    }),
    [
      'SUPABASE_URL is not an http(s) URL: "abcdefghijklmnopqrst.supabase.co"',
      'BINANCE_WS_URL is not a ws:// or wss:// URL without query: "https://stream.binance.com"',
    ],
  );
  throws(() => parseStreamWorkerArgs(["--venues=kraken"], env(HOSTED)), StreamWorkerArgsError);
});
