import { describe, expect, it } from "vitest";
import { parseDashboardFilters } from "./filters-store";

describe("parseDashboardFilters", () => {
  it("reads every filter from the address", () => {
    const params = new URLSearchParams(
      "dir=losses&min=12.5&source=dex&network=bsc,ethereum&dex=PancakeSwap%20V3",
    );
    expect(parseDashboardFilters(params)).toEqual({
      direction: "losses",
      minPercent: 12.5,
      sources: ["dex"],
      networks: ["bsc", "ethereum"],
      venues: ["PancakeSwap V3"],
      showThin: false,
      confirmedOnly: false,
      groupByAsset: true,
      order: "rank",
    });
  });

  it("gives the defaults for a clean address, with the stored minimum", () => {
    expect(parseDashboardFilters(new URLSearchParams(""), 10)).toEqual({
      direction: "all",
      minPercent: 10,
      sources: [],
      networks: [],
      venues: [],
      showThin: false,
      confirmedOnly: false,
      groupByAsset: true,
      order: "rank",
    });
  });

  it("falls back to the default for each invalid value, without an error", () => {
    const params = new URLSearchParams("dir=sideways&min=5000&network=");
    const filters = parseDashboardFilters(params, 2);
    expect(filters.direction).toBe("all");
    expect(filters.minPercent).toBe(2);
    expect(filters.networks).toEqual([]);
  });

  it("lets the address's minimum win over the stored one, even 0", () => {
    expect(parseDashboardFilters(new URLSearchParams("min=0"), 10).minPercent).toBe(0);
  });

  it("reads issue 26's switches and the trust order; an unknown value is the default", () => {
    const on = parseDashboardFilters(new URLSearchParams("thin=1&confirmed=1&group=0&sort=trust"));
    expect(on).toMatchObject({
      showThin: true,
      confirmedOnly: true,
      groupByAsset: false,
      order: "trust",
    });
    const odd = parseDashboardFilters(new URLSearchParams("thin=yes&confirmed=2&group=no&sort=x"));
    expect(odd).toMatchObject({
      showThin: false,
      confirmedOnly: false,
      groupByAsset: true,
      order: "rank",
    });
  });
});
