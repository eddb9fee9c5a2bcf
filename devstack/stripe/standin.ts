// The local stand-in for Stripe (used only when no real Stripe key is configured): the API
// subset the edge functions call through the official SDK (/v1/*, see api.ts), hosted checkout
// and billing-portal pages (/stripe/*, see pages.ts), and signed webhook events sent to the real
// `stripe-webhook` function. The state and its operations are in core.ts.
import { handleApi } from "./api.ts";
import { StripeCore } from "./core.ts";
import { handlePage } from "./pages.ts";

export type { StripeStandInOptions } from "./core.ts";

export class StripeStandIn extends StripeCore {
  fetch(req: Request): Promise<Response> {
    const { pathname } = new URL(req.url);
    return pathname.startsWith("/stripe/") ? handlePage(this, req) : handleApi(this, req);
  }
}
