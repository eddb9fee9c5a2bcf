import { createBrowserRouter, type RouteObject } from "react-router-dom";
import { UnsubscribePage } from "@/features/alerts/components/unsubscribe-page";
import { LoginPage } from "@/features/auth/components/login-page";
import { RegisterPage } from "@/features/auth/components/register-page";
import { ChartsPage } from "@/features/charts/components/charts-page";
import { DashboardPage } from "@/features/dashboard/components/dashboard-page";
import { TrackRecordPage } from "@/features/dashboard/components/track-record-page";
import { LandingPage } from "@/features/landing/components/landing-page";
import { ImprintPage } from "@/features/legal/components/imprint-page";
import { PrivacyPage } from "@/features/legal/components/privacy-page";
import { PricingPage } from "@/features/pricing/components/pricing-page";
import { ProfilePage } from "@/features/profile/components/profile-page";
import { SettingsPage } from "@/features/settings/components/settings-page";
import { RootLayout } from "./layout/root-layout";
import { LoginRedirect, SupportTicketRedirect } from "./routes/legacy-redirects";
import { NotFoundRoute } from "./routes/not-found";
import { RequireAuth } from "./routes/require-auth";
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
          { path: "alerts/unsubscribe", element: <UnsubscribePage /> },

          {
            element: <RequireAuth />,
            children: [
              { path: "profile", element: <ProfilePage /> },
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
