// `npm run db:push [-- <database-url>]` and `npm run db:migrations [-- <database-url>]`: the pinned
// Supabase CLI's `db push` (applies every migration not yet recorded, and records it in
// supabase_migrations.schema_migrations, as on a hosted project) and `migration list`, against
// any PostgreSQL: the local stack's (DATABASE_URL), a temporary one, or a hosted project's
// connection string. `supabase test db` needs Docker; `npm run test:db` runs the same pgTAP files
// with pg_prove instead.
import path from "node:path";
import { supabaseCli } from "./lib/migrated-postgres.ts";

const USAGE = `usage: npm run db:push -- <postgres-url>      (or set DATABASE_URL)
       npm run db:migrations -- <postgres-url>`;

const [command, urlArg] = process.argv.slice(2);
const url = urlArg ?? process.env.DATABASE_URL;
if (command !== "push" && command !== "list") {
  console.error(USAGE);
  process.exit(2);
}
if (!url || !/^postgres(ql)?:\/\//.test(url)) {
  console.error(
    `error: a PostgreSQL connection string is required (postgres://user:password@host:port/db); got ${url ? JSON.stringify(url) : "none"}.\n${USAGE}`,
  );
  process.exit(2);
}
const args =
  command === "push"
    ? ["db", "push", `--remote=${url}`, "--include-all", "--yes"]
    : ["migration", "list", `--remote=${url}`];
const { code, output } = await supabaseCli([
  ...args,
  "--workdir",
  path.resolve(import.meta.dirname, ".."),
]);
process.stdout.write(output);
process.exit(code);
