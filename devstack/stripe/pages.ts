// The stand-in's hosted pages: Checkout (/stripe/checkout/:id, Pay and Cancel) and the billing
// portal (/stripe/portal/:id, cancel or simulate a failed payment). Plain server-rendered HTML
// with forms, so they work without JavaScript and with a screen reader.
import { StripeApiError } from "./errors.ts";
import { formatAmount, now, PLAN_NAMES, type Subscription } from "./objects.ts";
import type { StripeCore } from "./core.ts";

const esc = (s: string) =>
  s.replace(
    /[&<>"']/g,
    (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!,
  );

const STYLE = `
:root { color-scheme: light dark; --fg: #1a1f36; --muted: #4f566b; --line: #d5dbe1; --bg: #f6f8fa;
  --card: #fff; --accent: #4f46e5; --accent-fg: #fff; --warn-bg: #fff4d6; --warn-fg: #5c3d00; }
@media (prefers-color-scheme: dark) { :root { --fg: #e6e8ee; --muted: #a9b0bf; --line: #3a4150;
  --bg: #14171f; --card: #1d212b; --accent: #8b85ff; --accent-fg: #0d0f14; --warn-bg: #3d3110; --warn-fg: #ffe3a3; } }
* { box-sizing: border-box; }
body { margin: 0; font: 16px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--fg); background: var(--bg); }
.banner { background: var(--warn-bg); color: var(--warn-fg); padding: .6rem 1rem; text-align: center; font-size: .9rem; }
main { max-width: 32rem; margin: 2rem auto; padding: 0 1rem; }
.card { background: var(--card); border: 1px solid var(--line); border-radius: .75rem; padding: 1.5rem; margin-bottom: 1rem; }
h1 { font-size: 1.35rem; margin: 0 0 .25rem; } h2 { font-size: 1.1rem; margin: 0 0 .25rem; }
.price { font-size: 2rem; font-weight: 650; margin: .5rem 0 1rem; } .price span { font-size: 1rem; font-weight: 400; color: var(--muted); }
dl { display: grid; grid-template-columns: auto 1fr; gap: .35rem 1rem; margin: 0 0 1.25rem; }
dt { color: var(--muted); } dd { margin: 0; overflow-wrap: anywhere; }
.actions { display: flex; flex-wrap: wrap; gap: .75rem; } form { margin: 0; }
button, .button { display: inline-block; font: inherit; font-weight: 600; padding: .65rem 1.2rem; border-radius: .5rem;
  border: 1px solid var(--line); background: var(--card); color: var(--fg); cursor: pointer; text-decoration: none; }
button.primary { background: var(--accent); border-color: var(--accent); color: var(--accent-fg); }
button.danger { color: #b42318; border-color: currentColor; }
@media (prefers-color-scheme: dark) { button.danger { color: #ff8a80; } }
button:focus-visible, .button:focus-visible, a:focus-visible { outline: 3px solid var(--accent); outline-offset: 2px; }
.note { color: var(--muted); font-size: .9rem; } [role=status] { font-weight: 600; }
`;

function page(title: string, body: string, status = 200): Response {
  const html = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${esc(title)} · Local Stripe stand-in</title>
<style>${STYLE}</style>
</head>
<body>
<div class="banner" role="note">Local Stripe stand-in (test mode): no real payment is made and no card is needed.</div>
<main>
${body}
</main>
</body>
</html>
`;
  return new Response(html, {
    status,
    headers: {
      "content-type": "text/html; charset=utf-8",
      "cache-control": "no-store",
      "x-frame-options": "DENY",
      "referrer-policy": "no-referrer",
    },
  });
}

const seeOther = (location: string) =>
  new Response(null, { status: 303, headers: { location, "cache-control": "no-store" } });

const notFound = (what: string) =>
  page("Not found", `<div class="card"><h1>Not found</h1><p>${esc(what)}</p></div>`, 404);

function dateOf(unix: number): string {
  return new Date(unix * 1000).toLocaleDateString("en-GB", {
    day: "numeric",
    month: "long",
    year: "numeric",
  });
}

function planName(priceId: string, stripe: StripeCore): string {
  const p = stripe.prices.get(priceId);
  return p ? `MoverScan ${PLAN_NAMES[p.lookup_key]}` : priceId;
}

/** Stripe fills `{CHECKOUT_SESSION_ID}` in the success URL with the session's id. */
function successUrl(url: string, sessionId: string) {
  return url.replaceAll("{CHECKOUT_SESSION_ID}", sessionId);
}

export async function handlePage(stripe: StripeCore, req: Request): Promise<Response> {
  const { pathname } = new URL(req.url);
  const m = /^\/stripe\/(checkout|portal)\/([^/]+)(?:\/([a-z]+))?$/.exec(pathname);
  if (!m) return notFound("There is no such page in the local Stripe stand-in.");
  const [, kind, id, action] = m as unknown as [string, string, string, string | undefined];
  if (req.method === "POST" && !action) return new Response(null, { status: 405 });
  if (req.method !== "POST" && action) return seeOther(`/stripe/${kind}/${id}`);
  if (req.method !== "GET" && req.method !== "HEAD" && req.method !== "POST")
    return new Response(null, { status: 405 });
  try {
    return kind === "checkout"
      ? await checkout(stripe, id, action)
      : await portal(stripe, id, action, req);
  } catch (err) {
    if (err instanceof StripeApiError && err.status === 404) return notFound(err.message);
    if (err instanceof StripeApiError)
      return page(
        "Not possible",
        `<div class="card"><h1>Not possible</h1><p>${esc(err.message)}</p></div>`,
        err.status,
      );
    throw err;
  }
}

async function checkout(stripe: StripeCore, id: string, action: string | undefined) {
  const rec = stripe.sessionRecord(id);
  const s = rec.session;
  if (action === "pay") {
    if (s.status === "open") await stripe.pay(id);
    return s.success_url && s.status === "complete"
      ? seeOther(successUrl(s.success_url, s.id))
      : seeOther(`/stripe/checkout/${id}`);
  }
  if (action === "cancel") {
    return s.cancel_url && s.status === "open"
      ? seeOther(s.cancel_url)
      : seeOther(`/stripe/checkout/${id}`);
  }
  if (action) return notFound("There is no such checkout action.");

  if (s.status === "complete") {
    const link = s.success_url
      ? `<p><a class="button" href="${esc(successUrl(s.success_url, s.id))}">Continue</a></p>`
      : "";
    return page(
      "Checkout complete",
      `<div class="card"><h1>This checkout is complete</h1>
<p>The subscription <code>${esc(s.subscription ?? "")}</code> is active.</p>${link}</div>`,
    );
  }
  if (s.status === "expired") {
    const link = s.cancel_url
      ? `<p><a class="button" href="${esc(s.cancel_url)}">Return</a></p>`
      : "";
    return page(
      "Checkout expired",
      `<div class="card"><h1>This checkout session has expired</h1><p>Start a new checkout from the app.</p>${link}</div>`,
    );
  }
  const price = stripe.prices.get(rec.price)!;
  const email = s.customer ? (stripe.state.customers[s.customer]?.email ?? null) : s.customer_email;
  const qty = rec.quantity > 1 ? ` × ${rec.quantity}` : "";
  const cancel = s.cancel_url
    ? `<form method="post" action="/stripe/checkout/${esc(id)}/cancel"><button type="submit">Cancel</button></form>`
    : "";
  return page(
    `Subscribe to ${planName(rec.price, stripe)}`,
    `<div class="card">
<h1>Subscribe to ${esc(planName(rec.price, stripe))}</h1>
<p class="price">${esc(formatAmount(price.unit_amount))} <span>/ month${qty}</span></p>
<dl>
<dt>Email</dt><dd>${esc(email ?? "not given")}</dd>
<dt>Total today</dt><dd>${esc(formatAmount(s.amount_total))}</dd>
<dt>Renews</dt><dd>Monthly, until canceled</dd>
</dl>
<div class="actions">
<form method="post" action="/stripe/checkout/${esc(id)}/pay"><button type="submit" class="primary">Pay</button></form>
${cancel}
</div>
</div>
<p class="note">Pay starts the subscription at once and sends signed webhook events
(<code>customer.subscription.created</code>, <code>checkout.session.completed</code>,
<code>invoice.paid</code>) to <code>${esc(stripe.webhooks.url)}</code>.</p>`,
  );
}

const STATUS_TEXT: Partial<Record<Subscription["status"], string>> = {
  active: "Active",
  past_due: "Past due: the last payment failed",
  canceled: "Canceled",
  unpaid: "Unpaid",
  trialing: "Trial",
};

const NOTICES: Record<string, string> = {
  canceled: "The subscription was canceled.",
  failed: "A failed payment was simulated; the subscription is past due.",
  renewed: "A renewal was simulated: the next period started and its invoice was paid.",
};

async function portal(stripe: StripeCore, id: string, action: string | undefined, req: Request) {
  const session = stripe.state.portalSessions[id];
  if (!session) return notFound(`No such billing portal session: '${id}'`);
  const customer = stripe.customer(session.customer);
  if (action === "cancel" || action === "fail" || action === "renew") {
    const form = await req.formData().catch(() => new FormData());
    const subId = String(form.get("subscription") ?? "");
    const sub = stripe.state.subscriptions[subId];
    if (!sub || sub.customer !== customer.id) return notFound(`No such subscription: '${subId}'`);
    if (action === "cancel") await stripe.cancelNow(subId).sent;
    else if (action === "renew") await stripe.renew(subId);
    else await stripe.failPayment(subId);
    const done = { cancel: "canceled", fail: "failed", renew: "renewed" }[action];
    return seeOther(`/stripe/portal/${id}?done=${done}`);
  }
  if (action) return notFound("There is no such portal action.");

  const done = new URL(req.url).searchParams.get("done") ?? "";
  const notice = NOTICES[done] ? `<p role="status">${esc(NOTICES[done])}</p>` : "";
  const subs = stripe.subscriptionsOf(customer.id);
  const current = subs.filter((s) => s.status !== "canceled");
  const shown = current.length > 0 ? current : subs.slice(0, 1);
  const cards = shown.map((sub) => {
    const item = sub.items.data[0]!;
    const schedule = sub.schedule ? stripe.state.schedules[sub.schedule] : undefined;
    const next = schedule?.phases.find((p) => p.start_date >= item.current_period_end);
    const change =
      next && next.items[0]?.price !== item.price.id
        ? `<dt>Then</dt><dd>${esc(planName(next.items[0]!.price, stripe))} from ${esc(dateOf(next.start_date))}</dd>`
        : "";
    const when =
      sub.status === "canceled"
        ? `<dt>Ended on</dt><dd>${esc(dateOf(sub.ended_at ?? sub.canceled_at ?? now()))}</dd>`
        : sub.cancel_at_period_end
          ? `<dt>Ends on</dt><dd>${esc(dateOf(item.current_period_end))}</dd>`
          : `<dt>Renews on</dt><dd>${esc(dateOf(item.current_period_end))}</dd>`;
    const actions =
      sub.status === "canceled"
        ? ""
        : `<div class="actions">
<form method="post" action="/stripe/portal/${esc(id)}/cancel"><input type="hidden" name="subscription" value="${esc(sub.id)}"><button type="submit" class="danger">Cancel subscription</button></form>
<form method="post" action="/stripe/portal/${esc(id)}/fail"><input type="hidden" name="subscription" value="${esc(sub.id)}"><button type="submit">Simulate failed payment</button></form>
<form method="post" action="/stripe/portal/${esc(id)}/renew"><input type="hidden" name="subscription" value="${esc(sub.id)}"><button type="submit">Simulate renewal (end of period)</button></form>
</div>`;
    return `<section class="card" aria-labelledby="h-${esc(sub.id)}">
<h2 id="h-${esc(sub.id)}">${esc(planName(item.price.id, stripe))}</h2>
<p class="price">${esc(formatAmount(item.price.unit_amount))} <span>/ month</span></p>
<dl>
<dt>Status</dt><dd>${esc(STATUS_TEXT[sub.status] ?? sub.status)}</dd>
${when}
${change}
<dt>Subscription</dt><dd><code>${esc(sub.id)}</code></dd>
</dl>
${actions}
</section>`;
  });
  const back = session.return_url
    ? `<p><a class="button" href="${esc(session.return_url)}">Return</a></p>`
    : "";
  return page(
    "Billing",
    `<h1>Billing</h1>
<p>${esc(customer.email ?? customer.id)}</p>
${notice}
${cards.length ? cards.join("\n") : `<div class="card"><p>No subscription yet.</p></div>`}
${back}`,
  );
}
