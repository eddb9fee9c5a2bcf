// What the API sends matches what the generated types say (tests/platform/generated.test.ts
// checks that the committed types match the migrations).
import { describe, expect, it } from "vitest";
import { signedInUser } from "../support/clients.ts";

describe("database types at the API", () => {
  // @supabase/lite 0.10.0 alone sends "10.0" as a string and timestamps as Postgres text;
  // devstack/pg-types.ts makes both match PostgREST (docs/decisions/0002).
  it("the API sends numeric columns as JSON numbers, as the types say", async () => {
    const { client } = await signedInUser();
    const { data } = await client.from("profiles").select("user_threshold, created_at").single();
    expect(data?.user_threshold).toBe(10);
    expect(data?.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?\+00:00$/);
  });
});
