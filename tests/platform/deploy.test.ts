// `npm run deploy`: the argument check and the dry run's exact commands (nothing reaches a
// hosted project offline; everything up to the first CLI call is tested here).
import { spawnSync } from "node:child_process";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT } from "../../devstack/config.ts";
import {
  DeployError,
  functionNames,
  planDeploy,
  SCHEDULE_SQL,
  vaultSql,
} from "../../scripts/deploy.ts";

const REF = "abcdefghijklmnopqrst";
const ENV = {
  SUPABASE_ACCESS_TOKEN: "sbp_0123456789abcdef0123456789abcdef01234567",
  SUPABASE_DB_PASSWORD: "a database password",
  SITE_URL: "https://moverscan.example",
  STRIPE_SECRET_KEY: "sk_live_51abc",
  STRIPE_WEBHOOK_SECRET: "whsec_abc",
  STRIPE_PRICE_BASIC: "price_basic1",
  STRIPE_PRICE_PRO: "price_pro1",
  STRIPE_PRICE_ENTERPRISE: "price_ent1",
  SCAN_SECRET: "0123456789abcdef0123456789abcdef",
  RESEND_API_KEY: "re_abc",
  ALERT_EMAIL_FROM: "alerts@moverscan.example",
};

function deploy(args: string[], env: Record<string, string>) {
  const clean = Object.fromEntries(
    Object.entries(process.env).filter(([k]) => !k.startsWith("SUPABASE_") && !(k in ENV)),
  );
  return spawnSync(path.join(ROOT, "node_modules/.bin/tsx"), ["scripts/deploy.ts", ...args], {
    cwd: ROOT,
    env: { ...clean, ...env },
    encoding: "utf8",
  });
}

describe("npm run deploy", () => {
  it("--dry-run prints every command in order and runs none", () => {
    const res = deploy(["--project-ref", REF, "--dry-run"], ENV);
    expect(res.status, res.stderr).toBe(0);
    const commands = res.stdout.split("\n").filter((l) => l.startsWith("$ "));
    expect(commands).toEqual([
      `$ supabase link --project-ref ${REF}`,
      "$ supabase db push --remote --yes",
      "$ supabase functions deploy api avatar billing-portal change-plan chat-gif checkout deliver-alerts scan stripe-webhook --use-api --yes",
      "$ supabase secrets set --env-file supabase/.temp/deploy/function-secrets.env",
      "$ supabase db query --remote --yes --file supabase/.temp/deploy/vault-secrets.sql",
      "$ supabase db query --remote --yes --file supabase/.temp/deploy/schedules.sql",
    ]);
    expect(res.stdout).toContain(
      "write supabase/.temp/deploy/function-secrets.env (SITE_URL, STRIPE_SECRET_KEY, STRIPE_WEBHOOK_SECRET, STRIPE_PRICE_BASIC, STRIPE_PRICE_PRO, STRIPE_PRICE_ENTERPRISE, SCAN_SECRET, RESEND_API_KEY, ALERT_EMAIL_FROM, MARKET_SOURCES)",
    );
    expect(res.stdout).toContain("(dry run: nothing was run)");
    // The stream worker is a printed step: a process beside the project, not a CLI command.
    expect(res.stdout).toContain(
      `  SUPABASE_URL=https://${REF}.supabase.co SUPABASE_SERVICE_ROLE_KEY=<the project's service-role key> npm run worker:streams -- --venues binance,coinbase`,
    );
    // No secret value is ever printed.
    for (const value of Object.values(ENV)) expect(res.stdout).not.toContain(value);
  });

  it("prints the stream worker's step only for the venues with a stream", () => {
    expect(
      planDeploy(["--project-ref", REF], { ...ENV, MARKET_SOURCES: "coinbase,dex" }).streamWorker,
    ).toMatch(/npm run worker:streams -- --venues coinbase$/);
    expect(
      planDeploy(["--project-ref", REF], { ...ENV, MARKET_SOURCES: "dex,simulated" }).streamWorker,
    ).toBeNull();
  });

  it("deploys every function folder", () => {
    const names = functionNames();
    expect(names).toContain("scan");
    expect(names).toContain("deliver-alerts");
    expect(names).not.toContain("_shared");
    const plan = planDeploy(["--project-ref", REF], ENV);
    expect(plan.commands[2]).toEqual([
      "supabase",
      "functions",
      "deploy",
      ...names,
      "--use-api",
      "--yes",
    ]);
  });

  it("refuses to start without a project ref, a token or the secrets, naming each", () => {
    const res = deploy(["--dry-run"], {});
    expect(res.status).toBe(2);
    expect(res.stdout).toBe("");
    expect(res.stderr).toContain("npm run deploy cannot start:");
    expect(res.stderr).toContain(
      "the project ref is missing: --project-ref <ref> or SUPABASE_PROJECT_REF",
    );
    expect(res.stderr).toContain("SUPABASE_ACCESS_TOKEN is missing");
    expect(res.stderr).toContain("SUPABASE_DB_PASSWORD is missing");
    for (const name of [
      "SITE_URL",
      "STRIPE_SECRET_KEY",
      "STRIPE_WEBHOOK_SECRET",
      "SCAN_SECRET",
      "RESEND_API_KEY",
    ]) {
      expect(res.stderr).toContain(`${name} is missing`);
    }
    // Optional settings are not demanded.
    expect(res.stderr).not.toContain("TELEGRAM_BOT_TOKEN");
  });

  it("refuses malformed values with what a valid one looks like", () => {
    let thrown: unknown;
    try {
      planDeploy(["--project-ref", "Not-A-Ref", "--frobnicate"], {
        ...ENV,
        STRIPE_SECRET_KEY: "pk_live_oops",
        SCAN_SECRET: "short",
        MARKET_SOURCES: "binance,kraken",
      });
    } catch (err) {
      thrown = err;
    }
    expect(thrown).toBeInstanceOf(DeployError);
    expect((thrown as DeployError).problems).toEqual([
      "unknown argument --frobnicate (use --project-ref, --env-file, --dry-run)",
      'the project ref "Not-A-Ref" is not a project ref (20 lowercase letters)',
      "STRIPE_SECRET_KEY is not a Stripe key (sk_live_…, sk_test_…)",
      "SCAN_SECRET is not at least 32 characters of A-Z a-z 0-9 . _ ~ - (e.g. openssl rand -hex 32)",
      "MARKET_SOURCES is not a comma-separated list of binance, coinbase, dex, simulated",
    ]);
  });

  it("reads settings from --env-file and the project ref from SUPABASE_PROJECT_REF", () => {
    const plan = planDeploy(["--env-file", "tests/fixtures/deploy.env"], {});
    expect(plan.ref).toBe(REF);
    expect(plan.files["supabase/.temp/deploy/function-secrets.env"]).toContain(
      'MARKET_SOURCES="binance,coinbase,dex"',
    );
    expect(plan.files["supabase/.temp/deploy/vault-secrets.sql"]).toContain(
      `('scan_url', 'https://${REF}.supabase.co/functions/v1/scan')`,
    );
    expect(plan.files["supabase/.temp/deploy/vault-secrets.sql"]).toContain(
      `('delivery_url', 'https://${REF}.supabase.co/functions/v1/deliver-alerts')`,
    );
    expect(plan.files["supabase/.temp/deploy/schedules.sql"]).toBe(SCHEDULE_SQL);
  });

  it("quotes Vault values as SQL literals", () => {
    expect(vaultSql({ scan_url: "https://x/it's" })).toContain("('scan_url', 'https://x/it''s')");
  });
});
