import { describe, expect, it } from "vitest";
import { scanSettings, siteUrl } from "./stack.ts";

describe("what the stack passes to the functions", () => {
  it("forwards the scan's venue settings that are set, and nothing else", () => {
    expect(
      scanSettings({
        BINANCE_API_URL: "https://api.binance.us",
        DEX_MIN_LIQUIDITY_USD: "0",
        COINBASE_API_URL: "",
        STRIPE_SECRET_KEY: "sk_live_x",
      }),
    ).toEqual({ BINANCE_API_URL: "https://api.binance.us", DEX_MIN_LIQUIDITY_USD: "0" });
    expect(scanSettings({})).toEqual({});
    // The DEX rotation (decision 0091): the cron runner prints it, the scan must read the same.
    expect(scanSettings({ GECKOTERMINAL_NETWORKS: "eth,base", GECKOTERMINAL_PAGES: "2" })).toEqual({
      GECKOTERMINAL_NETWORKS: "eth,base",
      GECKOTERMINAL_PAGES: "2",
    });
  });

  it("points Auth and billing at the SPA", () => {
    expect(siteUrl("127.0.0.1", { WEB_PORT: "5400" })).toBe("http://127.0.0.1:5400");
  });
});
