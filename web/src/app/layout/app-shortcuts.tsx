import { lazy, Suspense, useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router-dom";
import { LiveAnnouncer } from "@/components/live-announcer";
import { useCurrentUser } from "@/hooks/use-current-user";
import { useShortcuts } from "@/hooks/use-shortcuts";
import { announce } from "@/lib/announce";
import { getNavItems } from "./nav-items";

// The help overlay is downloaded the first time `?` is pressed. Its texts are in the dashboard
// namespace, which is not in the first download (loaded once the first page has rendered).
const ShortcutsHelp = lazy(() =>
  import("./shortcuts-help").then((m) => ({ default: m.ShortcutsHelp })),
);

const DESTINATIONS = {
  "g d": { to: "/dashboard", labelKey: "nav.dashboard" },
  "g c": { to: "/charts", labelKey: "nav.charts" },
  "g s": { to: "/support", labelKey: "nav.support" },
} as const;

/**
 * The shortcuts that work on every page: `g d` / `g c` / `g s` go to the dashboard, the charts and
 * support, `?` lists every shortcut. A signed-in reader goes only where the header would take
 * them (others hear why not); a visitor is sent on, and the route guards ask them to log in.
 * A combination pressed while a signed-in reader's profile is still being read (just after the
 * login, or the page's first moments) waits for it, then goes or says why not: the plan is not
 * known before, and a subscriber would otherwise hear that the page is not theirs.
 */
export function AppShortcuts() {
  const { t } = useTranslation(["dashboard", "common"]);
  const navigate = useNavigate();
  const { user, isSubscriber, isAdmin, isPending } = useCurrentUser();
  const [helpWanted, setHelpWanted] = useState(false);
  const [helpOpen, setHelpOpen] = useState(false);
  const waiting = useRef<keyof typeof DESTINATIONS | null>(null);
  const profileUnread = user !== null && isPending;

  const goNow = (combo: keyof typeof DESTINATIONS) => {
    const { to, labelKey } = DESTINATIONS[combo];
    const page = t(`common:${labelKey}`);
    const allowed =
      user === null ||
      getNavItems({ isLoggedIn: true, isSubscriber, isAdmin }).some((item) => item.to === to);
    if (!allowed) {
      announce(t("dashboard:shortcuts.notAvailable", { page }));
      return;
    }
    announce(t("dashboard:shortcuts.goingTo", { page }));
    void navigate(to);
  };
  const go = (combo: keyof typeof DESTINATIONS) => {
    if (profileUnread) waiting.current = combo;
    else goNow(combo);
  };
  // The profile has been read: the combination pressed meanwhile (the last one) is acted on.
  useEffect(() => {
    if (profileUnread || waiting.current === null) return;
    const combo = waiting.current;
    waiting.current = null;
    goNow(combo);
  });

  useShortcuts({
    "g d": () => go("g d"),
    "g c": () => go("g c"),
    "g s": () => go("g s"),
    "?": () => {
      setHelpWanted(true);
      setHelpOpen(true);
    },
  });

  return (
    <>
      <LiveAnnouncer />
      {helpWanted && (
        <Suspense fallback={null}>
          <ShortcutsHelp open={helpOpen} onOpenChange={setHelpOpen} />
        </Suspense>
      )}
    </>
  );
}
