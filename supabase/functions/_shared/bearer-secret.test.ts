import { strictEqual as assertEquals, throws } from "node:assert/strict";
import { requireBearerSecret, sameSecret } from "./bearer-secret.ts";
import { envFrom } from "./env.ts";
import { HttpError } from "./http.ts";

const check = { notConfiguredCode: "x_not_configured", unauthorizedMessage: "X needs a secret." };
const req = (auth?: string) =>
  new Request("http://localhost/", auth ? { headers: { Authorization: auth } } : {});

function refusal(fn: () => void): HttpError {
  let caught: unknown;
  try {
    fn();
  } catch (err) {
    caught = err;
  }
  if (!(caught instanceof HttpError)) throw new Error(`expected an HttpError, got ${caught}`);
  return caught;
}

Deno.test("sameSecret: equal strings only; a prefix or another length is not the secret", () => {
  assertEquals(sameSecret("s3cret", "s3cret"), true);
  assertEquals(sameSecret("s3cret", "s3creT"), false);
  assertEquals(sameSecret("s3cre", "s3cret"), false);
  assertEquals(sameSecret("", "s3cret"), false);
  assertEquals(sameSecret("ü", "ü"), true);
});

Deno.test("the service-role key, its new name or SCAN_SECRET is accepted", () => {
  const env = envFrom({ SUPABASE_SECRET_KEY: "sk", SCAN_SECRET: "scan" });
  requireBearerSecret(env, req("Bearer sk"), check);
  requireBearerSecret(env, req("bearer scan"), check);
  requireBearerSecret(envFrom({ SUPABASE_SERVICE_ROLE_KEY: " srk " }), req("Bearer srk"), check);
});

Deno.test("a missing, wrong or non-bearer secret is a 401 with the caller's message", () => {
  const env = envFrom({ SUPABASE_SERVICE_ROLE_KEY: "srk", SCAN_SECRET: "scan" });
  for (const auth of [undefined, "Bearer nope", "Basic srk", "Bearer srk2", "Bearer "]) {
    const err = refusal(() => requireBearerSecret(env, req(auth), check));
    assertEquals(err.status, 401);
    assertEquals(err.code, "unauthorized");
    assertEquals(err.message, "X needs a secret.");
  }
});

Deno.test("no secret configured is a 500 naming the settings, whatever the bearer", () => {
  const err = refusal(() =>
    requireBearerSecret(envFrom({ SCAN_SECRET: "  " }), req("Bearer anything"), check)
  );
  assertEquals(err.status, 500);
  assertEquals(err.code, "x_not_configured");
  assertEquals(err.message.includes("SUPABASE_SERVICE_ROLE_KEY, SCAN_SECRET"), true);
  throws(() => requireBearerSecret(envFrom({}), req(), check), HttpError);
});
