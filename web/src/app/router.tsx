import { createBrowserRouter, type RouteObject } from "react-router-dom";
import { AdminPage } from "@/features/admin/components/admin-page";
import { AdminSetupPage } from "@/features/admin/components/admin-setup-page";
import { UnsubscribePage } from "@/features/alerts/components/unsubscribe-page";
import { LoginPage } from "@/features/auth/components/login-page";
import { RegisterPage } from "@/features/auth/components/register-page";
import { ChartsPage } from "@/features/charts/components/charts-page";
import { ChatPage } from "@/features/community/components/chat-page";
import { GroupsPage } from "@/features/community/components/groups-page";
import { InvitePage } from "@/features/community/components/invite-page";
import { DashboardPage } from "@/features/dashboard/components/dashboard-page";
import { TrackRecordPage } from "@/features/dashboard/components/track-record-page";
import { LandingPage } from "@/features/landing/components/landing-page";
import { ImprintPage } from "@/features/legal/components/imprint-page";
import { PrivacyPage } from "@/features/legal/components/privacy-page";
import { PricingPage } from "@/features/pricing/components/pricing-page";
import { SettingsPage } from "@/features/settings/components/settings-page";
import { AdminTicketsPage } from "@/features/support/components/admin-tickets-page";
import { SupportPage } from "@/features/support/components/support-page";
import { TicketPage } from "@/features/support/components/ticket-page";
import { RootLayout } from "./layout/root-layout";
import { LoginRedirect, SupportTicketRedirect } from "./routes/legacy-redirects";
import { NotFoundRoute } from "./routes/not-found";
import { ProfileRoute } from "./routes/profile-route";
import { RequireAdmin } from "./routes/require-admin";
import { RequireAuth } from "./routes/require-auth";
import { RequireNotBanned } from "./routes/require-not-banned";
import { RequireSubscriber } from "./routes/require-subscriber";
import { RouteError } from "./routes/route-error";

/** The route table (spec section 2). Screens are added here as their features land. */
export const routes: RouteObject[] = [
  {
    element: <RootLayout />,
    children: [
      {
        errorElement: <RouteError />,
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
                  { path: "dashboard", element: <DashboardPage /> },
                  { path: "dashboard/settings", element: <SettingsPage /> },
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

export function createAppRouter() {
  return createBrowserRouter(routes);
}
