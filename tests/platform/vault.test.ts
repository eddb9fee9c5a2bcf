// The Vault interface the scheduled jobs read (vault.create_secret, vault.update_secret,
// vault.decrypted_secrets), as the local stack provides it on PGlite and on PostgreSQL, and the
// deploy's Vault SQL run through the CLI's `db query` on PostgreSQL.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { defaultOptions } from "../../devstack/config.ts";
import { freePort, startStack, type Stack } from "../../devstack/stack.ts";
import { supabaseCli } from "../../scripts/lib/migrated-postgres.ts";
import { vaultSql } from "../../scripts/deploy.ts";
import { startTempPostgres, type TempPostgres } from "../support/postgres.ts";

const SETTINGS = {
  scan_url: "https://abcdefghijklmnopqrst.supabase.co/functions/v1/scan",
  delivery_url: "https://abcdefghijklmnopqrst.supabase.co/functions/v1/deliver-alerts",
  scan_secret: "0123456789abcdef0123456789abcdef",
};

for (const kind of ["pglite", "postgres"] as const) {
  describe(`Vault on ${kind}`, () => {
    let tmp: string;
    let pg: TempPostgres | undefined;
    let stack: Stack;

    beforeAll(async () => {
      tmp = mkdtempSync(path.join(tmpdir(), `vault-${kind}-`));
      if (kind === "postgres") pg = await startTempPostgres();
      mkdirSync(path.join(tmp, "data"));
      stack = await startStack({
        ...defaultOptions({}),
        apiPort: await freePort(),
        dataDir: path.join(tmp, "data"),
        envFile: path.join(tmp, ".env.local"),
        databaseUrl: pg?.url,
        functions: false,
        cron: false,
        quiet: true,
      });
    });
    afterAll(async () => {
      await stack?.stop();
      await pg?.stop();
      rmSync(tmp, { recursive: true, force: true });
    });

    it("create_secret, update_secret and decrypted_secrets work as on hosted Vault", async () => {
      const [{ id }] = await stack.db.query<{ id: string }>(
        "select vault.create_secret('first value', 'vault_probe', 'a probe') as id",
      );
      expect(id).toMatch(/^[0-9a-f-]{36}$/);
      let rows = await stack.db.query<{ decrypted_secret: string; description: string }>(
        "select decrypted_secret, description from vault.decrypted_secrets where name = 'vault_probe'",
      );
      expect(rows).toEqual([{ decrypted_secret: "first value", description: "a probe" }]);
      await stack.db.query("select vault.update_secret($1, 'second value')", [id]);
      rows = await stack.db.query(
        "select decrypted_secret, description from vault.decrypted_secrets where name = 'vault_probe'",
      );
      expect(rows).toEqual([{ decrypted_secret: "second value", description: "a probe" }]);
      // A name is unique, as on hosted Vault.
      await expect(
        stack.db.query("select vault.create_secret('x', 'vault_probe')"),
      ).rejects.toThrow(/duplicate key|unique/);
    });

    it("the API roles cannot read or create secrets", async () => {
      for (const role of ["anon", "authenticated"]) {
        await expect(
          stack.db.transaction(async (tx) => {
            await tx.query(`set local role ${role}`);
            return tx.query("select decrypted_secret from vault.decrypted_secrets");
          }),
        ).rejects.toThrow(/permission denied/);
        await expect(
          stack.db.transaction(async (tx) => {
            await tx.query(`set local role ${role}`);
            return tx.query("select vault.create_secret('x', 'y')");
          }),
        ).rejects.toThrow(/permission denied/);
      }
    });

    it("the deploy's Vault SQL creates, then updates, the schedules' settings, which the jobs read", async () => {
      await stack.db.query(
        vaultSql({ ...SETTINGS, scan_secret: "an older secret value 0123456789ab" }),
      );
      await stack.db.query(vaultSql(SETTINGS));
      const rows = await stack.db.query<{ name: string; decrypted_secret: string }>(
        `select name, decrypted_secret from vault.decrypted_secrets
         where name in ('scan_url', 'delivery_url', 'scan_secret') order by name`,
      );
      expect(rows).toEqual([
        { name: "delivery_url", decrypted_secret: SETTINGS.delivery_url },
        { name: "scan_secret", decrypted_secret: SETTINGS.scan_secret },
        { name: "scan_url", decrypted_secret: SETTINGS.scan_url },
      ]);
      const [read] = await stack.db.query<{ url: string; secret: string }>(
        "select private.vault_secret('scan_url') as url, private.vault_secret('scan_secret') as secret",
      );
      expect(read).toEqual({ url: SETTINGS.scan_url, secret: SETTINGS.scan_secret });
      // Without pg_net (PGlite, a plain PostgreSQL) the jobs send nothing and fail nothing.
      const [invoked] = await stack.db.query<{ scan: unknown; delivery: unknown }>(
        "select private.invoke_scan() as scan, private.invoke_delivery() as delivery",
      );
      expect(invoked).toEqual({ scan: null, delivery: null });
    });

    if (kind === "postgres") {
      it("runs through the CLI's db query --file, as npm run deploy does", async () => {
        const file = path.join(tmp, "vault-secrets.sql");
        writeFileSync(
          file,
          vaultSql({ ...SETTINGS, scan_secret: "rotated-secret-0123456789abcdef0123" }),
        );
        const res = await supabaseCli([
          "db",
          "query",
          `--remote=${pg!.url}`,
          "--yes",
          "--file",
          file,
        ]);
        expect(res.code, res.output).toBe(0);
        const [row] = await stack.db.query<{ v: string }>(
          "select private.vault_secret('scan_secret') as v",
        );
        expect(row!.v).toBe("rotated-secret-0123456789abcdef0123");
      });
    }
  });
}
