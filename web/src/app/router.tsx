import { type RouteObject, useRoutes } from "react-router-dom";
// The landing page is in the entry chunk: most visits start there, one round trip less.
import { LandingPage } from "@/features/landing/components/landing-page";
import { RootLayout } from "./layout/root-layout";
import { LoginRedirect, SupportTicketRedirect } from "./routes/legacy-redirects";
import { NotFoundRoute } from "./routes/not-found";
import { RequireAdmin } from "./routes/require-admin";
import { RequireAuth } from "./routes/require-auth";
import { RequireNotBanned } from "./routes/require-not-banned";
import { RequireSubscriber } from "./routes/require-subscriber";
import { RouteErrorBoundary } from "./routes/route-error";
import { i18n } from "@/i18n/i18n";
import { lazyPage } from "./routes/lazy-page";

// Every page is its own chunk, loaded on its first visit (see lazyPage).
const LoginPage = lazyPage(() => import("@/features/auth/components/login-page"), "LoginPage");
const RegisterPage = lazyPage(
  () => import("@/features/auth/components/register-page"),
  "RegisterPage",
);
const ChartsPage = lazyPage(() => import("@/features/charts/components/charts-page"), "ChartsPage");
const DashboardRoute = lazyPage(() => import("./routes/dashboard-route"), "DashboardRoute");
// Opened directly (a bookmark, a reload, an alert's link): the dashboard's chunk and texts are
// fetched while the guards read the session and the profile, not after them (decision 0065).
// The same import as above, so React.lazy later finds the module loaded. main.tsx renders the
// app over the served frame (dashboard/index.html, decision 0080) once they are in, so its first
// render is the frame again and not the spinner.
export const directPageReady: Promise<unknown> =
  typeof window !== "undefined" && window.location.pathname === "/dashboard"
    ? Promise.all([import("./routes/dashboard-route"), i18n.loadNamespaces("dashboard")]).catch(
        () => {},
      )
    : Promise.resolve();
const TrackRecordPage = lazyPage(
  () => import("@/features/dashboard/components/track-record-page"),
  "TrackRecordPage",
);
const ImprintPage = lazyPage(
  () => import("@/features/legal/components/imprint-page"),
  "ImprintPage",
);
const PrivacyPage = lazyPage(
  () => import("@/features/legal/components/privacy-page"),
  "PrivacyPage",
);
const PricingPage = lazyPage(
  () => import("@/features/pricing/components/pricing-page"),
  "PricingPage",
);
const AdminPage = lazyPage(() => import("@/features/admin/components/admin-page"), "AdminPage");
const AdminSetupPage = lazyPage(
  () => import("@/features/admin/components/admin-setup-page"),
  "AdminSetupPage",
);
const UnsubscribePage = lazyPage(
  () => import("@/features/alerts/components/unsubscribe-page"),
  "UnsubscribePage",
);
const ChatPage = lazyPage(() => import("@/features/community/components/chat-page"), "ChatPage");
const GroupsPage = lazyPage(
  () => import("@/features/community/components/groups-page"),
  "GroupsPage",
);
const InvitePage = lazyPage(
  () => import("@/features/community/components/invite-page"),
  "InvitePage",
);
const AdminTicketsPage = lazyPage(
  () => import("@/features/support/components/admin-tickets-page"),
  "AdminTicketsPage",
);
const SupportPage = lazyPage(
  () => import("@/features/support/components/support-page"),
  "SupportPage",
);
const TicketPage = lazyPage(
  () => import("@/features/support/components/ticket-page"),
  "TicketPage",
);
const ProfileRoute = lazyPage(() => import("./routes/profile-route"), "ProfileRoute");
const SettingsRoute = lazyPage(() => import("./routes/settings-route"), "SettingsRoute");

/** The route table (spec section 2). Screens are added here as their features land. */
export const routes: RouteObject[] = [
  {
    element: <RootLayout />,
    children: [
      {
        element: <RouteErrorBoundary />,
        children: [
          { index: true, element: <LandingPage /> },
          { path: "pricing", element: <PricingPage /> },
          { path: "auth/login", element: <LoginPage /> },
          { path: "auth/register", element: <RegisterPage /> },
          { path: "impressum", element: <ImprintPage /> },
          { path: "datenschutz", element: <PrivacyPage /> },
          { path: "admin-setup", element: <AdminSetupPage /> },
          { path: "alerts/unsubscribe", element: <UnsubscribePage /> },

          {
            element: <RequireAuth />,
            children: [
              { path: "profile", element: <ProfileRoute /> },
              {
                element: <RequireNotBanned />,
                children: [
                  { path: "community/groups", element: <GroupsPage /> },
                  { path: "community/chat", element: <ChatPage /> },
                  { path: "community/join/:code", element: <InvitePage /> },
                ],
              },
              { path: "support", element: <SupportPage /> },
              { path: "support/ticket/:id", element: <TicketPage /> },
              {
                element: <RequireAdmin />,
                children: [
                  { path: "admin", element: <AdminPage /> },
                  { path: "admin/tickets", element: <AdminTicketsPage /> },
                ],
              },
              {
                element: <RequireSubscriber />,
                children: [
                  { path: "dashboard", element: <DashboardRoute /> },
                  { path: "dashboard/settings", element: <SettingsRoute /> },
                  { path: "dashboard/track-record", element: <TrackRecordPage /> },
                  { path: "charts", element: <ChartsPage /> },
                ],
              },
            ],
          },

          // One login route; older spellings land on it with their ?redirect=.
          { path: "auth", element: <LoginRedirect /> },
          { path: "login", element: <LoginRedirect /> },
          { path: "support/:id", element: <SupportTicketRedirect /> },

          { path: "*", element: <NotFoundRoute /> },
        ],
      },
    ],
  },
];

/**
 * The route table rendered by the browser's router (declarative mode: the app has no loaders or
 * actions, and the data router would add about 18 KB gzipped to every first visit).
 */
export function AppRoutes() {
  return useRoutes(routes);
}
