import type { ParseKeys } from "i18next";

export type NavItem = {
  to: string;
  labelKey: ParseKeys<"common">;
};

type Viewer = {
  isLoggedIn: boolean;
  isSubscriber: boolean;
  isAdmin: boolean;
};

/**
 * The header links a viewer may see (spec section 2, Header), for the pages that exist: a link
 * appears when its page works. Community (/community/groups), Support (/support) and the admin
 * panel (/admin) join the logged-in links when their screens land; `nav-items.test.ts` fails if a
 * link here has no route.
 */
export function getNavItems({ isLoggedIn, isSubscriber, isAdmin }: Viewer): NavItem[] {
  const items: NavItem[] = [];
  if (isLoggedIn && isSubscriber) {
    items.push(
      { to: "/dashboard", labelKey: "nav.dashboard" },
      { to: "/charts", labelKey: "nav.charts" },
      { to: "/dashboard/settings", labelKey: "nav.settings" },
    );
  }
  items.push({ to: "/pricing", labelKey: "nav.pricing" });
  if (isLoggedIn) {
    items.push(
      { to: "/profile", labelKey: "nav.profile" },
      { to: "/community/groups", labelKey: "nav.community" },
      { to: "/support", labelKey: "nav.support" },
    );
  }
  if (isLoggedIn && isAdmin) items.push({ to: "/admin", labelKey: "nav.admin" });
  return items;
}
