import { describe, expect, it } from "vitest";
import { anonClient, signedInUser, stackInfo } from "../support/clients.ts";

describe("functions host", () => {
  it("serves /api/health and /functions/v1/api/health from the api function", async () => {
    const { url, publishableKey } = stackInfo();
    for (const path of ["/api/health", "/functions/v1/api/health"]) {
      const res = await fetch(`${url}${path}`, { headers: { apikey: publishableKey } });
      expect(res.status, path).toBe(200);
      expect((await res.json()).status).toBe("ok");
      expect(res.headers.get("access-control-allow-origin")).toBeTruthy();
    }
  });

  it("answers CORS preflights", async () => {
    const res = await fetch(`${stackInfo().url}/functions/v1/api/health`, {
      method: "OPTIONS",
      headers: { origin: "http://127.0.0.1:5173", "access-control-request-method": "POST" },
    });
    expect(res.status).toBe(204);
    expect(res.headers.get("access-control-allow-headers")).toMatch(/authorization/);
  });

  it("answers an unknown function with a JSON 404", async () => {
    const res = await fetch(`${stackInfo().url}/functions/v1/does-not-exist`);
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ error: "not_found" });
  });

  it("is reachable through supabase-js functions.invoke as a user", async () => {
    const { client } = await signedInUser();
    const { data, error } = await client.functions.invoke("api/health", { method: "GET" });
    expect(error).toBeNull();
    expect(data.status).toBe("ok");
    const anon = await anonClient().functions.invoke("api/health", { method: "GET" });
    expect(anon.error).toBeNull();
  });
});
