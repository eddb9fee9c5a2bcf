// Who may join a private channel, and who may send on it: decided by the policies on
// realtime.messages, the way Supabase Realtime decides it. In one transaction that is always
// rolled back: probe rows are inserted as the owner; then, as the caller's role and claims with
// `realtime.topic` set, the caller may *read* an extension when it can select its probe row and
// may *write* when it can insert a row of that extension itself.
import type { Db, Tx } from "../database.ts";

export interface Identity {
  role: "anon" | "authenticated" | "service_role";
  claims: Record<string, unknown>;
}

export interface Permissions {
  read: { broadcast: boolean; presence: boolean };
  write: { broadcast: boolean; presence: boolean };
}

class Rollback extends Error {
  constructor(readonly result: Permissions) {
    super("rollback");
  }
}

const INSUFFICIENT_PRIVILEGE = "42501";

async function canInsert(tx: Tx, topic: string, extension: string, savepoint: string) {
  await tx.query(`savepoint ${savepoint}`);
  try {
    await tx.query(`insert into realtime.messages (topic, extension) values ($1, $2)`, [
      topic,
      extension,
    ]);
    await tx.query(`release savepoint ${savepoint}`);
    return true;
  } catch (err) {
    await tx.query(`rollback to savepoint ${savepoint}`);
    if ((err as { code?: string }).code === INSUFFICIENT_PRIVILEGE) return false;
    throw err;
  }
}

/**
 * Decides `who`'s permissions on `topic`. `onBegin` is called once the database has handed the
 * transaction its connection, before the first policy query (what the check sees is decided
 * from then on).
 */
export async function authorizeTopic(
  db: Db,
  topic: string,
  who: Identity,
  onBegin?: () => void,
): Promise<Permissions> {
  try {
    await db.transaction(async (tx) => {
      onBegin?.();
      const probes = await tx.query<{ id: string; extension: string }>(
        `insert into realtime.messages (topic, extension) values ($1, 'broadcast'), ($1, 'presence')
         returning id::text, extension`,
        [topic],
      );
      const sub = typeof who.claims.sub === "string" ? who.claims.sub : "";
      await tx.query(
        `select set_config('role', $1, true), set_config('realtime.topic', $2, true),
                set_config('request.jwt.claims', $3, true), set_config('request.jwt.claim.sub', $4, true),
                set_config('request.jwt.claim.role', $1, true), set_config('request.headers', '{}', true)`,
        [who.role, topic, JSON.stringify(who.claims), sub],
      );
      const visible = await tx.query<{ extension: string }>(
        `select extension from realtime.messages where topic = $1 and id in ($2::uuid, $3::uuid)`,
        [topic, probes[0]?.id, probes[1]?.id],
      );
      const read = {
        broadcast: visible.some((v) => v.extension === "broadcast"),
        presence: visible.some((v) => v.extension === "presence"),
      };
      const write = {
        broadcast: await canInsert(tx, topic, "broadcast", "rt_write_broadcast"),
        presence: await canInsert(tx, topic, "presence", "rt_write_presence"),
      };
      throw new Rollback({ read, write });
    });
  } catch (err) {
    if (err instanceof Rollback) return err.result;
    throw err;
  }
  throw new Error("unreachable: the authorisation transaction must roll back");
}
