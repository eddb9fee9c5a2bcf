// `npm run gen:types`: the Database types of the SPA, generated from the migrations.
// Starts the local stack on a throw-away PGlite folder, reads the `public` schema from the
// catalogs and writes web/src/lib/database.types.ts in the shape of
// `supabase gen types typescript` (Database → public → Tables/Views/Functions/Enums/CompositeTypes
// plus the Tables/TablesInsert/TablesUpdate/Enums/CompositeTypes helpers and Constants).
// `--check` regenerates in memory and exits 1 when the committed file differs.
// Usage: tsx scripts/gen-types.ts [--check] [--migrations <dir>]
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import * as prettier from "prettier";
import { defaultOptions, ROOT } from "../devstack/config.ts";
import type { Db } from "../devstack/database.ts";
import { freePort, startStack } from "../devstack/stack.ts";

process.env.LITE_TELEMETRY = "0";
process.env.DO_NOT_TRACK = "1";

const SCHEMA = "public";
export const OUTPUT = path.join(ROOT, "web/src/lib/database.types.ts");
/** lite announces no PostgREST version; 12 enables no supabase-js feature lite may lack. */
const POSTGREST_VERSION = "12";

// ---------------------------------------------------------------------------------------------
// Catalog rows
// ---------------------------------------------------------------------------------------------

interface PgType {
  oid: string;
  name: string;
  schema: string;
  typtype: string;
  category: string;
  elem: string;
  base: string;
  relid: string;
  enum_values: string[] | null;
}

interface PgRelation {
  oid: string;
  name: string;
  /** r table, p partitioned table, f foreign table, v view, m materialized view, c composite */
  kind: string;
  updatable: boolean;
}

interface PgColumn {
  rel: string;
  name: string;
  type: string;
  nullable: boolean;
  has_default: boolean;
  /** '' none, 'a' generated always, 'd' by default */
  identity: string;
  /** '' none, 's' stored generated column */
  generated: string;
  updatable: boolean;
}

interface PgForeignKey {
  name: string;
  rel: string;
  columns: string[];
  referenced_relation: string;
  referenced_columns: string[];
  is_one_to_one: boolean;
}

interface PgFunction {
  name: string;
  signature: string;
  rettype: string;
  retset: boolean;
  ndefaults: number;
  argtypes: string[];
  modes: string[] | null;
  names: string[] | null;
}

/** Every query returns its rows as one JSON text, so PGlite and postgres.js parse alike. */
async function rows<T>(db: Db, sql: string): Promise<T[]> {
  const [row] = await db.query<{ j: string }>(
    `select coalesce(json_agg(t), '[]')::text as j from (${sql}) t`,
  );
  return JSON.parse(row!.j) as T[];
}

export interface Catalog {
  types: PgType[];
  relations: PgRelation[];
  columns: PgColumn[];
  foreignKeys: PgForeignKey[];
  functions: PgFunction[];
}

export async function introspect(db: Db): Promise<Catalog> {
  const ns = `'${SCHEMA}'::regnamespace`;
  const types = await rows<PgType>(
    db,
    `select t.oid::text as oid, t.typname as name, n.nspname as schema, t.typtype::text as typtype,
            t.typcategory::text as category, t.typelem::text as elem, t.typbasetype::text as base,
            t.typrelid::text as relid,
            (select json_agg(e.enumlabel order by e.enumsortorder) from pg_enum e
             where e.enumtypid = t.oid) as enum_values
     from pg_type t join pg_namespace n on n.oid = t.typnamespace`,
  );
  const relations = await rows<PgRelation>(
    db,
    `select c.oid::text as oid, c.relname as name, c.relkind::text as kind,
            c.relkind = 'v' and (pg_relation_is_updatable(c.oid, false) & 20) = 20 as updatable
     from pg_class c
     where c.relnamespace = ${ns} and c.relkind in ('r', 'p', 'f', 'v', 'm', 'c')
       and not c.relispartition`,
  );
  const columns = await rows<PgColumn>(
    db,
    `select a.attrelid::text as rel, a.attname as name, a.atttypid::text as type,
            not (a.attnotnull or (t.typtype = 'd' and t.typnotnull)) as nullable,
            a.atthasdef as has_default, a.attidentity::text as identity,
            a.attgenerated::text as generated,
            case when c.relkind = 'v' then pg_column_is_updatable(c.oid, a.attnum, false)
                 else true end as updatable
     from pg_attribute a
     join pg_class c on c.oid = a.attrelid
     join pg_type t on t.oid = a.atttypid
     where c.relnamespace = ${ns} and c.relkind in ('r', 'p', 'f', 'v', 'm', 'c')
       and a.attnum > 0 and not a.attisdropped`,
  );
  // Foreign keys between relations of the schema; one-to-one when the referencing columns
  // are themselves a primary key or unique.
  const foreignKeys = await rows<PgForeignKey>(
    db,
    `select k.conname as name, c.relname as rel,
            (select json_agg(a.attname order by x.i) from unnest(k.conkey) with ordinality x(n, i)
             join pg_attribute a on a.attrelid = k.conrelid and a.attnum = x.n) as columns,
            r.relname as referenced_relation,
            (select json_agg(a.attname order by x.i) from unnest(k.confkey) with ordinality x(n, i)
             join pg_attribute a on a.attrelid = k.confrelid and a.attnum = x.n) as referenced_columns,
            exists (select 1 from pg_constraint u
                    where u.conrelid = k.conrelid and u.contype in ('p', 'u')
                      and u.conkey::int2[] <@ k.conkey::int2[]
                      and u.conkey::int2[] @> k.conkey::int2[]) as is_one_to_one
     from pg_constraint k
     join pg_class c on c.oid = k.conrelid
     join pg_class r on r.oid = k.confrelid
     where k.contype = 'f' and c.relnamespace = ${ns} and r.relnamespace = ${ns}`,
  );
  // Functions PostgREST can call: plain functions, not triggers.
  const functions = await rows<PgFunction>(
    db,
    `select p.proname as name, pg_get_function_identity_arguments(p.oid) as signature,
            p.prorettype::text as rettype, p.proretset as retset,
            p.pronargdefaults::int as ndefaults,
            coalesce(p.proallargtypes::text[], p.proargtypes::oid[]::text[]) as argtypes,
            p.proargmodes::text[] as modes, p.proargnames as names
     from pg_proc p
     where p.pronamespace = ${ns} and p.prokind = 'f'
       and p.prorettype not in ('trigger'::regtype, 'event_trigger'::regtype)`,
  );
  return { types, relations, columns, foreignKeys, functions };
}

// ---------------------------------------------------------------------------------------------
// Rendering
// ---------------------------------------------------------------------------------------------

/** Code-point order: the same result on every machine and locale. */
const byKey =
  <T>(key: (t: T) => string) =>
  (a: T, b: T) => {
    const x = key(a);
    const y = key(b);
    return x < y ? -1 : x > y ? 1 : 0;
  };

const q = (s: string) => JSON.stringify(s);

const NUMBER = new Set(["int2", "int4", "int8", "float4", "float8", "numeric", "oid", "money"]);
const STRING = new Set([
  "text",
  "varchar",
  "bpchar",
  "char",
  "name",
  "citext",
  "uuid",
  "bytea",
  "date",
  "time",
  "timetz",
  "timestamp",
  "timestamptz",
  "interval",
  "inet",
  "cidr",
  "macaddr",
  "macaddr8",
  "tsvector",
  "tsquery",
  "vector",
]);

export function render(cat: Catalog): string {
  const typeByOid = new Map(cat.types.map((t) => [t.oid, t]));
  const relByOid = new Map(cat.relations.map((r) => [r.oid, r]));
  const columnsOf = (oid: string) =>
    cat.columns.filter((c) => c.rel === oid).sort(byKey((c) => c.name));
  const tables = cat.relations
    .filter((r) => ["r", "p", "f"].includes(r.kind))
    .sort(byKey((r) => r.name));
  const views = cat.relations.filter((r) => ["v", "m"].includes(r.kind)).sort(byKey((r) => r.name));
  const composites = cat.relations.filter((r) => r.kind === "c").sort(byKey((r) => r.name));
  const enums = cat.types
    .filter((t) => t.schema === SCHEMA && t.typtype === "e")
    .sort(byKey((t) => t.name));

  const tsType = (oid: string): string => {
    const t = typeByOid.get(oid);
    if (!t) return "unknown";
    if (t.typtype === "d") return tsType(t.base);
    if (t.category === "A" && t.elem !== "0") {
      const inner = tsType(t.elem);
      return /^[\w.[\]"]+$/.test(inner) ? `${inner}[]` : `(${inner})[]`;
    }
    if (t.typtype === "e") {
      return t.schema === SCHEMA
        ? `Database[${q(SCHEMA)}]["Enums"][${q(t.name)}]`
        : (t.enum_values ?? []).map(q).join(" | ");
    }
    if (t.typtype === "c") {
      const rel = relByOid.get(t.relid);
      if (!rel) return "unknown";
      const section =
        rel.kind === "c" ? "CompositeTypes" : ["v", "m"].includes(rel.kind) ? "Views" : "Tables";
      return `Database[${q(SCHEMA)}][${q(section)}][${q(rel.name)}]${section === "CompositeTypes" ? "" : '["Row"]'}`;
    }
    if (t.schema !== "pg_catalog" && t.schema !== "extensions") return "unknown";
    if (t.name === "bool") return "boolean";
    if (NUMBER.has(t.name)) return "number";
    if (STRING.has(t.name)) return "string";
    if (t.name === "json" || t.name === "jsonb") return "Json";
    if (t.name === "void") return "undefined";
    if (t.name === "record") return "Record<string, unknown>";
    return "unknown";
  };
  const nullable = (type: string, isNull: boolean) => (isNull ? `${type} | null` : type);
  const never = "[_ in never]: never";
  const block = (entries: string[]) => (entries.length ? entries.join("\n") : never);

  const rowOf = (oid: string) =>
    columnsOf(oid)
      .map((c) => `${q(c.name)}: ${nullable(tsType(c.type), c.nullable)}`)
      .join("\n");

  const relationships = (rel: PgRelation) => {
    const fks = cat.foreignKeys
      .filter((k) => k.rel === rel.name)
      .sort(
        (a, b) =>
          byKey<PgForeignKey>((k) => k.name)(a, b) ||
          byKey<PgForeignKey>((k) => k.referenced_relation)(a, b),
      );
    return `Relationships: [${fks
      .map(
        (k) => `{
          foreignKeyName: ${q(k.name)}
          columns: ${JSON.stringify(k.columns)}
          isOneToOne: ${k.is_one_to_one}
          referencedRelation: ${q(k.referenced_relation)}
          referencedColumns: ${JSON.stringify(k.referenced_columns)}
        }`,
      )
      .join(",\n")}]`;
  };

  const tableEntry = (rel: PgRelation) => {
    const cols = columnsOf(rel.oid);
    const insert = cols.map((c) => {
      if (c.identity === "a" || c.generated === "s") return `${q(c.name)}?: never`;
      const optional = c.nullable || c.identity !== "" || c.has_default;
      return `${q(c.name)}${optional ? "?" : ""}: ${nullable(tsType(c.type), c.nullable)}`;
    });
    const update = cols.map((c) =>
      c.identity === "a" || c.generated === "s"
        ? `${q(c.name)}?: never`
        : `${q(c.name)}?: ${nullable(tsType(c.type), c.nullable)}`,
    );
    return `${q(rel.name)}: {
      Row: {${rowOf(rel.oid)}}
      Insert: {${insert.join("\n")}}
      Update: {${update.join("\n")}}
      ${relationships(rel)}
    }`;
  };

  const viewEntry = (rel: PgRelation) => {
    const writable = columnsOf(rel.oid).map((c) =>
      c.updatable ? `${q(c.name)}?: ${tsType(c.type)} | null` : `${q(c.name)}?: never`,
    );
    const write = rel.updatable
      ? `Insert: {${writable.join("\n")}}\nUpdate: {${writable.join("\n")}}\n`
      : "";
    return `${q(rel.name)}: {
      Row: {${rowOf(rel.oid)}}
      ${write}${relationships(rel)}
    }`;
  };

  // Functions: all input arguments named, or a single unnamed one (PostgREST's rules).
  const fnEntries = () => {
    const callable = cat.functions
      .map((f) => {
        const modes = f.modes ?? f.argtypes.map(() => "i");
        const args = f.argtypes.map((type, i) => ({
          type,
          mode: modes[i]!,
          name: f.names?.[i] ?? "",
        }));
        const inArgs = args.filter((a) => ["i", "b", "v"].includes(a.mode));
        return { f, args, inArgs };
      })
      .filter(({ inArgs }) => inArgs.length === 1 || inArgs.every((a) => a.name !== ""))
      .sort(byKey(({ f }) => `${f.name}(${f.signature})`));
    const byName = new Map<string, typeof callable>();
    for (const c of callable) byName.set(c.f.name, [...(byName.get(c.f.name) ?? []), c]);

    const definition = ({ f, args, inArgs }: (typeof callable)[number]) => {
      const firstDefault = inArgs.length - f.ndefaults;
      const argsType = inArgs.length
        ? `{${inArgs
            .map((a, i) => `${q(a.name)}${i >= firstDefault ? "?" : ""}: ${tsType(a.type)}`)
            .join("\n")}}`
        : "never";
      const outArgs = args.filter((a) => ["t", "o", "b"].includes(a.mode));
      const tableArgs = args.filter((a) => a.mode === "t");
      const retType = typeByOid.get(f.rettype);
      const retRel = retType?.typtype === "c" ? relByOid.get(retType.relid) : undefined;
      let returns: string;
      let setof = "";
      if (tableArgs.length || (outArgs.length && retType?.name === "record")) {
        // Result columns carry no NOT NULL in Postgres: any of them may be null.
        returns = `{${(tableArgs.length ? tableArgs : outArgs)
          .map((a) => `${q(a.name)}: ${tsType(a.type)} | null`)
          .join("\n")}}`;
      } else if (retRel && retRel.kind !== "c") {
        returns = `{${rowOf(retRel.oid)}}`;
        setof = `SetofOptions: {
          from: "*"
          to: ${q(retRel.name)}
          isOneToOne: ${!f.retset}
          isSetofReturn: ${f.retset}
        }`;
      } else {
        returns = tsType(f.rettype);
      }
      if (f.retset) returns = /^[\w.[\]"]+$/.test(returns) ? `${returns}[]` : `(${returns})[]`;
      return `{
        Args: ${argsType}
        Returns: ${returns}
        ${setof}
      }`;
    };
    return [...byName.entries()].map(
      ([name, defs]) => `${q(name)}: ${defs.map(definition).join(" | ")}`,
    );
  };

  const compositeEntry = (rel: PgRelation) =>
    `${q(rel.name)}: {${columnsOf(rel.oid)
      .map((c) => `${q(c.name)}: ${tsType(c.type)} | null`)
      .join("\n")}}`;

  return `// Generated by scripts/gen-types.ts from supabase/migrations. Do not edit by hand:
// run \`npm run gen:types\` after changing a migration (a stack test fails until you do).

export type Json = string | number | boolean | null | { [key: string]: Json | undefined } | Json[]

export type Database = {
  // Allows to automatically instantiate createClient with right options
  // instead of createClient<Database, { PostgrestVersion: 'XX' }>(URL, KEY)
  __InternalSupabase: {
    PostgrestVersion: ${q(POSTGREST_VERSION)}
  }
  ${q(SCHEMA)}: {
    Tables: {${block(tables.map(tableEntry))}}
    Views: {${block(views.map(viewEntry))}}
    Functions: {${block(fnEntries())}}
    Enums: {${block(enums.map((e) => `${q(e.name)}: ${(e.enum_values ?? []).map(q).join(" | ")}`))}}
    CompositeTypes: {${block(composites.map(compositeEntry))}}
  }
}

${HELPERS}

export const Constants = {
  ${q(SCHEMA)}: {
    Enums: {${enums.map((e) => `${q(e.name)}: [${(e.enum_values ?? []).map(q).join(", ")}]`).join(",\n")}},
  },
} as const
`;
}

const HELPERS = `type DatabaseWithoutInternals = Omit<Database, "__InternalSupabase">

type DefaultSchema = DatabaseWithoutInternals[Extract<keyof Database, ${q(SCHEMA)}>]

export type Tables<
  DefaultSchemaTableNameOrOptions extends
    | keyof (DefaultSchema["Tables"] & DefaultSchema["Views"])
    | { schema: keyof DatabaseWithoutInternals },
  TableName extends DefaultSchemaTableNameOrOptions extends {
    schema: keyof DatabaseWithoutInternals
  }
    ? keyof (DatabaseWithoutInternals[DefaultSchemaTableNameOrOptions["schema"]]["Tables"] &
        DatabaseWithoutInternals[DefaultSchemaTableNameOrOptions["schema"]]["Views"])
    : never = never,
> = DefaultSchemaTableNameOrOptions extends { schema: keyof DatabaseWithoutInternals }
  ? (DatabaseWithoutInternals[DefaultSchemaTableNameOrOptions["schema"]]["Tables"] &
      DatabaseWithoutInternals[DefaultSchemaTableNameOrOptions["schema"]]["Views"])[TableName] extends {
      Row: infer R
    }
    ? R
    : never
  : DefaultSchemaTableNameOrOptions extends keyof (DefaultSchema["Tables"] & DefaultSchema["Views"])
    ? (DefaultSchema["Tables"] & DefaultSchema["Views"])[DefaultSchemaTableNameOrOptions] extends {
        Row: infer R
      }
      ? R
      : never
    : never

export type TablesInsert<
  DefaultSchemaTableNameOrOptions extends
    | keyof DefaultSchema["Tables"]
    | { schema: keyof DatabaseWithoutInternals },
  TableName extends DefaultSchemaTableNameOrOptions extends {
    schema: keyof DatabaseWithoutInternals
  }
    ? keyof DatabaseWithoutInternals[DefaultSchemaTableNameOrOptions["schema"]]["Tables"]
    : never = never,
> = DefaultSchemaTableNameOrOptions extends { schema: keyof DatabaseWithoutInternals }
  ? DatabaseWithoutInternals[DefaultSchemaTableNameOrOptions["schema"]]["Tables"][TableName] extends {
      Insert: infer I
    }
    ? I
    : never
  : DefaultSchemaTableNameOrOptions extends keyof DefaultSchema["Tables"]
    ? DefaultSchema["Tables"][DefaultSchemaTableNameOrOptions] extends {
        Insert: infer I
      }
      ? I
      : never
    : never

export type TablesUpdate<
  DefaultSchemaTableNameOrOptions extends
    | keyof DefaultSchema["Tables"]
    | { schema: keyof DatabaseWithoutInternals },
  TableName extends DefaultSchemaTableNameOrOptions extends {
    schema: keyof DatabaseWithoutInternals
  }
    ? keyof DatabaseWithoutInternals[DefaultSchemaTableNameOrOptions["schema"]]["Tables"]
    : never = never,
> = DefaultSchemaTableNameOrOptions extends { schema: keyof DatabaseWithoutInternals }
  ? DatabaseWithoutInternals[DefaultSchemaTableNameOrOptions["schema"]]["Tables"][TableName] extends {
      Update: infer U
    }
    ? U
    : never
  : DefaultSchemaTableNameOrOptions extends keyof DefaultSchema["Tables"]
    ? DefaultSchema["Tables"][DefaultSchemaTableNameOrOptions] extends {
        Update: infer U
      }
      ? U
      : never
    : never

export type Enums<
  DefaultSchemaEnumNameOrOptions extends
    | keyof DefaultSchema["Enums"]
    | { schema: keyof DatabaseWithoutInternals },
  EnumName extends DefaultSchemaEnumNameOrOptions extends {
    schema: keyof DatabaseWithoutInternals
  }
    ? keyof DatabaseWithoutInternals[DefaultSchemaEnumNameOrOptions["schema"]]["Enums"]
    : never = never,
> = DefaultSchemaEnumNameOrOptions extends { schema: keyof DatabaseWithoutInternals }
  ? DatabaseWithoutInternals[DefaultSchemaEnumNameOrOptions["schema"]]["Enums"][EnumName]
  : DefaultSchemaEnumNameOrOptions extends keyof DefaultSchema["Enums"]
    ? DefaultSchema["Enums"][DefaultSchemaEnumNameOrOptions]
    : never

export type CompositeTypes<
  PublicCompositeTypeNameOrOptions extends
    | keyof DefaultSchema["CompositeTypes"]
    | { schema: keyof DatabaseWithoutInternals },
  CompositeTypeName extends PublicCompositeTypeNameOrOptions extends {
    schema: keyof DatabaseWithoutInternals
  }
    ? keyof DatabaseWithoutInternals[PublicCompositeTypeNameOrOptions["schema"]]["CompositeTypes"]
    : never = never,
> = PublicCompositeTypeNameOrOptions extends { schema: keyof DatabaseWithoutInternals }
  ? DatabaseWithoutInternals[PublicCompositeTypeNameOrOptions["schema"]]["CompositeTypes"][CompositeTypeName]
  : PublicCompositeTypeNameOrOptions extends keyof DefaultSchema["CompositeTypes"]
    ? DefaultSchema["CompositeTypes"][PublicCompositeTypeNameOrOptions]
    : never`;

/** Formats with the repository's Prettier settings, so `prettier --check` accepts the file. */
export async function format(source: string, file = OUTPUT): Promise<string> {
  const config = (await prettier.resolveConfig(file, { editorconfig: true })) ?? {};
  return prettier.format(source, { ...config, filepath: file });
}

// ---------------------------------------------------------------------------------------------
// Command line
// ---------------------------------------------------------------------------------------------

export async function generate(migrationsDir?: string): Promise<string> {
  const tmp = mkdtempSync(path.join(tmpdir(), "gen-types-"));
  try {
    const stack = await startStack({
      // An empty environment: never a DATABASE_URL, API_PORT or DATA_DIR of the caller's.
      ...defaultOptions({}),
      ...(migrationsDir ? { migrationsDir: path.resolve(migrationsDir) } : {}),
      apiPort: await freePort(),
      dataDir: path.join(tmp, "data"),
      envFile: path.join(tmp, ".env.local"),
      // The types depend on the schema only; the demo data is not needed.
      seedFile: undefined,
      functions: false,
      quiet: true,
    });
    try {
      return await format(render(await introspect(stack.db)));
    } finally {
      await stack.stop();
    }
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

async function main() {
  const args = process.argv.slice(2);
  const check = args.includes("--check");
  // --migrations <dir>: read another migrations folder (the drift test proves --check fails).
  const at = args.indexOf("--migrations");
  const migrationsDir = at >= 0 ? args[at + 1] : undefined;
  const unknown = args.filter((a, i) => a !== "--check" && (at < 0 || (i !== at && i !== at + 1)));
  if (unknown.length || (at >= 0 && !migrationsDir)) {
    console.error("usage: tsx scripts/gen-types.ts [--check] [--migrations <dir>]");
    process.exit(2);
  }
  const rel = path.relative(ROOT, OUTPUT);
  const generated = await generate(migrationsDir);
  if (check) {
    const committed = existsSync(OUTPUT) ? readFileSync(OUTPUT, "utf8") : "";
    if (committed !== generated) {
      console.error(
        `${rel}: database types are out of date: run npm run gen:types (and commit the result).`,
      );
      process.exit(1);
    }
    console.log(`${rel} is up to date.`);
    return;
  }
  writeFileSync(OUTPUT, generated);
  console.log(`Wrote ${rel}.`);
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) {
  await main();
}
