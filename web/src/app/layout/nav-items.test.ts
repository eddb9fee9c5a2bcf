import { matchRoutes } from "react-router-dom";
import { describe, expect, it } from "vitest";
import { routes } from "../router";
import { getNavItems } from "./nav-items";

const paths = (...args: Parameters<typeof getNavItems>) => getNavItems(...args).map((i) => i.to);

describe("getNavItems", () => {
  it("shows only pricing to a visitor", () => {
    expect(paths({ isLoggedIn: false, isSubscriber: false, isAdmin: false })).toEqual(["/pricing"]);
  });

  it("adds the profile, the community and support for a logged-in user", () => {
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
    expect(paths({ isLoggedIn: true, isSubscriber: true, isAdmin: true })).toContain("/admin");
    expect(paths({ isLoggedIn: true, isSubscriber: true, isAdmin: false })).not.toContain("/admin");
  });

  it("links no viewer to a page that does not exist (the 404 route)", () => {
    for (const isLoggedIn of [false, true]) {
      for (const isSubscriber of [false, true]) {
        for (const isAdmin of [false, true]) {
          for (const to of paths({ isLoggedIn, isSubscriber, isAdmin })) {
            const leaf = matchRoutes(routes, to)?.at(-1);
            expect(leaf?.route.path, to).not.toBe("*");
          }
        }
      }
    }
  });
});
