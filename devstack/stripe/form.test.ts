import Stripe from "stripe";
import { describe, expect, it } from "vitest";
import { list, metadataOf, obj, parseStripeForm } from "./form.ts";

describe("Stripe form bodies", () => {
  it("builds nested objects and arrays from bracket notation", () => {
    expect(
      parseStripeForm(
        "mode=subscription&customer=cus_1&metadata[user_id]=u%201&metadata[plan]=pro" +
          "&line_items[0][price]=price_local_pro&line_items[0][quantity]=1" +
          "&line_items[1][price]=price_x&subscription_data[metadata][user_id]=u+1" +
          "&expand[]=customer&expand[]=subscription",
      ),
    ).toEqual({
      mode: "subscription",
      customer: "cus_1",
      metadata: { user_id: "u 1", plan: "pro" },
      line_items: [{ price: "price_local_pro", quantity: "1" }, { price: "price_x" }],
      subscription_data: { metadata: { user_id: "u 1" } },
      expand: ["customer", "subscription"],
    });
  });

  it("accepts percent-encoded brackets and keeps metadata keys that look like indices", () => {
    expect(parseStripeForm("metadata%5B0%5D=a&metadata%5Bk%5D=&items%5B0%5D=x")).toEqual({
      metadata: { "0": "a", k: "" },
      items: ["x"],
    });
  });

  it("closes gaps in sparse indices, lets later values win and ignores prototype keys", () => {
    expect(
      parseStripeForm("a[0]=x&a[2]=y&b=1&b=2&__proto__[polluted]=1&c[constructor]=1&d[0]=1&d[k]=2"),
    ).toEqual({ a: ["x", "y"], b: "2", d: ["1"] });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it("takes keys with unbalanced brackets literally", () => {
    expect(parseStripeForm("a[b=1&c]=2")).toEqual({ "a[b": "1", "c]": "2" });
  });

  it("reads back exactly what the official SDK sends", async () => {
    let body = "";
    const stripe = new Stripe("sk_test_local_x", {
      httpClient: Stripe.createFetchHttpClient(async (_url, init) => {
        body = String(init?.body ?? "");
        return new Response(JSON.stringify({ id: "cs_test_1", object: "checkout.session" }), {
          headers: { "content-type": "application/json" },
        });
      }),
      maxNetworkRetries: 0,
    });
    await stripe.checkout.sessions.create({
      mode: "subscription",
      customer: "cus_1",
      client_reference_id: "6f1c-…",
      line_items: [{ price: "price_local_basic", quantity: 1 }],
      success_url: "http://127.0.0.1:5173/billing/success?session_id={CHECKOUT_SESSION_ID}",
      cancel_url: "http://127.0.0.1:5173/pricing?canceled=1&x=a+b",
      metadata: { user_id: "u-1", plan: "basic" },
      subscription_data: { metadata: { user_id: "u-1", "odd key&=": "v=1&w" } },
      expand: ["customer"],
    });
    const parsed = parseStripeForm(body);
    expect(parsed).toEqual({
      mode: "subscription",
      customer: "cus_1",
      client_reference_id: "6f1c-…",
      line_items: [{ price: "price_local_basic", quantity: "1" }],
      success_url: "http://127.0.0.1:5173/billing/success?session_id={CHECKOUT_SESSION_ID}",
      cancel_url: "http://127.0.0.1:5173/pricing?canceled=1&x=a+b",
      metadata: { user_id: "u-1", plan: "basic" },
      subscription_data: { metadata: { user_id: "u-1", "odd key&=": "v=1&w" } },
      expand: ["customer"],
    });
  });

  it("helpers read strings, objects, lists and metadata defensively", () => {
    const p = parseStripeForm("a=1&o[x]=2&l[0]=3&metadata[k]=v&metadata[n][deep]=no");
    expect(obj(p.o)).toEqual({ x: "2" });
    expect(obj(p.a)).toBeUndefined();
    expect(list(p.l)).toEqual(["3"]);
    expect(list(p.a)).toBeUndefined();
    expect(metadataOf(p.metadata)).toEqual({ k: "v" });
  });
});
