import { Navigate, Outlet, useLocation } from "react-router-dom";
import { useCurrentUser } from "@/hooks/use-current-user";
import { loginPath } from "@/lib/redirect";
import { drawsOwnPendingFrame, RoutePending } from "./route-pending";

/** Route element: logged-out visitors go to the login page, which returns them here. */
export function RequireAuth() {
  const { user, isPending } = useCurrentUser();
  const location = useLocation();

  if (isPending) {
    return drawsOwnPendingFrame(location.pathname) ? <Outlet /> : <RoutePending />;
  }
  if (!user) {
    const here = `${location.pathname}${location.search}${location.hash}`;
    return <Navigate to={loginPath(here)} replace />;
  }
  return <Outlet />;
}
