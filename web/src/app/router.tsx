import { createBrowserRouter, type RouteObject } from "react-router-dom";
import { LandingPage } from "@/features/landing/components/landing-page";
import { RootLayout } from "./layout/root-layout";
import { NotFoundRoute } from "./routes/not-found";
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
          { path: "*", element: <NotFoundRoute /> },
        ],
      },
    ],
  },
];

export function createAppRouter() {
  return createBrowserRouter(routes);
}
