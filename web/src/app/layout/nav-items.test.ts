import { describe, expect, it } from "vitest";
import { getNavItems } from "./nav-items";

const paths = (...args: Parameters<typeof getNavItems>) => getNavItems(...args).map((i) => i.to);

describe("getNavItems", () => {
  it("shows only pricing to a visitor", () => {
    expect(paths({ isLoggedIn: false, isSubscriber: false, isAdmin: false })).toEqual(["/pricing"]);
  });

  it("adds profile, community and support for a logged-in user", () => {
    expect(paths({ isLoggedIn: true, isSubscriber: false, isAdmin: false })).toEqual([
      "/pricing",
      "/profile",
      "/community/groups",
      "/support",
    ]);
  });

  it("adds the dashboard, charts and settings for a subscriber", () => {
    expect(paths({ isLoggedIn: true, isSubscriber: true, isAdmin: false })).toEqual([
      "/dashboard",
      "/charts",
      "/dashboard/settings",
      "/pricing",
      "/profile",
      "/community/groups",
      "/support",
    ]);
  });

  it("adds the admin panel for an admin", () => {
    expect(paths({ isLoggedIn: true, isSubscriber: false, isAdmin: true })).toContain("/admin");
  });
});
