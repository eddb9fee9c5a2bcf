// One statement per request for the role, the claims and PostgREST's request settings (issue 24,
// decision 0115).
//
// @supabase/lite 0.10.0 sets them with one statement per setting: four or five for the caller
// (role, claim.sub, claim.role, storage.operation, claims) and five for an RPC (response.status,
// response.headers, request.method, request.path, request.headers). On Postgres each statement
// with a parameter costs two round trips (postgres.js's `unsafe` describes it first), so an RPC
// made about 24 round trips to the database, 18 of them for these settings. PostgREST sets them
// all with one `select set_config(…), …`; so does this, with the values as dollar-quoted literals
// (no parameters, so one round trip on the simple protocol). The same settings, the same values.
import type { Connection } from "@supabase/lite";
import { sql, type Kysely } from "kysely";

interface RequestVars {
  auth?: { role?: string; uid?: unknown; jwt?: unknown };
  storage?: { operation?: unknown };
}

interface RpcVars {
  method: string;
  path: string;
  requestHeaders?: Record<string, string>;
}

type Executor = Kysely<unknown>;

/** The two methods of lite's Postgres and PGlite connections this replaces. */
interface ContextHooks {
  applyJwtSessionContext(executor: Executor, vars: RequestVars, setRole: boolean): Promise<void>;
  applyRpcRequestGucs(executor: Executor, rpc: RpcVars): Promise<void>;
}

/**
 * `value` as a dollar-quoted SQL literal whose tag does not occur in it, so no value can end the
 * literal early, whatever standard_conforming_strings says.
 */
export function dollarQuoted(value: string): string {
  if (value.includes("\0")) throw new Error("A request setting cannot hold a NUL character");
  let tag = "s";
  for (let n = 1; value.includes(`$${tag}`); n++) tag = `s${n}`;
  return `$${tag}$${value}$${tag}$`;
}

/** `select set_config(name, value, true), …`: transaction-local, in the order given. */
export function setConfigStatement(settings: ReadonlyArray<readonly [string, string]>): string {
  const calls = settings.map(
    ([name, value]) => `set_config(${dollarQuoted(name)}, ${dollarQuoted(value)}, true)`,
  );
  return `select ${calls.join(", ")}`;
}

/** The caller's settings, as lite's `applyJwtSessionContext` sets them. */
export function callerSettings(vars: RequestVars): Array<[string, string]> {
  const role = vars.auth?.role || "anon";
  const settings: Array<[string, string]> = [
    ["role", role],
    ["request.jwt.claim.sub", String(vars.auth?.uid ?? "")],
    ["request.jwt.claim.role", role],
    ["storage.operation", String(vars.storage?.operation ?? "")],
  ];
  const jwt = vars.auth?.jwt;
  if (jwt && typeof jwt === "object") settings.push(["request.jwt.claims", JSON.stringify(jwt)]);
  return settings;
}

/** An RPC's request settings, as lite's `applyRpcRequestGucs` sets them. */
export function rpcSettings(rpc: RpcVars): Array<[string, string]> {
  return [
    ["response.status", ""],
    ["response.headers", ""],
    ["request.method", rpc.method],
    ["request.path", rpc.path],
    ["request.headers", JSON.stringify(rpc.requestHeaders ?? {})],
  ];
}

/** Makes `connection` set each request's context with one statement (see the top of this file). */
export function setContextInOneStatement(connection: Connection): void {
  const hooks = connection as unknown as Partial<ContextHooks>;
  if (
    typeof hooks.applyJwtSessionContext !== "function" ||
    typeof hooks.applyRpcRequestGucs !== "function"
  ) {
    throw new Error(
      "@supabase/lite no longer sets the request context through applyJwtSessionContext and applyRpcRequestGucs: review devstack/lite-context.ts",
    );
  }
  hooks.applyJwtSessionContext = async (executor, vars, setRole) => {
    await sql.raw(setConfigStatement(callerSettings(vars))).execute(executor);
    // lite's own check: a role name of letters, digits and underscores, other than the three
    // standard roles (whose `role` setting above already switched to them).
    if (setRole) {
      const role = (vars.auth?.role || "anon").replace(/"/g, '""');
      await sql.raw(`set local role "${role}"`).execute(executor);
    }
  };
  hooks.applyRpcRequestGucs = async (executor, rpc) => {
    await sql.raw(setConfigStatement(rpcSettings(rpc))).execute(executor);
  };
}
