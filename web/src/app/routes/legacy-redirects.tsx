import { Navigate, useLocation, useParams } from "react-router-dom";
import { LOGIN_PATH } from "@/lib/redirect";
import { NotFoundRoute } from "./not-found";

/**
 * Older links (spec "Readings that disagree"): `/auth?redirect=…` and `/login`
 * (after a session expiry) both mean the one login route; the query string,
 * with its `redirect`, is kept. The login page itself vets the redirect.
 */
export function LoginRedirect() {
  const { search, hash } = useLocation();
  return <Navigate to={`${LOGIN_PATH}${search}${hash}`} replace />;
}

/** The admin ticket list linked to /support/{id}; the ticket lives at /support/ticket/{id}. */
export function SupportTicketRedirect() {
  const { id } = useParams();
  const { search, hash } = useLocation();
  if (!id || id === "ticket") return <NotFoundRoute />;
  return <Navigate to={`/support/ticket/${encodeURIComponent(id)}${search}${hash}`} replace />;
}
