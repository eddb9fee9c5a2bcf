// `npm run db:backup [file]` and `npm run db:restore <file>`: a backup of the local stack's data.
// The file is a tar holding `moverscan-backup.json`, the database and the Storage files (avatars,
// chat GIFs: their bytes live in DATA_DIR/storage, their rows in the database).
// PGlite (the default): the data folder's database as PGlite's own tarball (`dumpDataDir`), read
// while the stack is stopped; restored into an empty DATA_DIR. DATABASE_URL: `pg_dump --format
// custom` and `pg_restore --clean --if-exists` (PostgreSQL's own tools, from PG_BIN).
// A file from before the Storage files were included (the database alone) still restores.
import { spawnSync } from "node:child_process";
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { pgcrypto } from "@electric-sql/pglite/contrib/pgcrypto";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import { READY_MARKER } from "./database.ts";
import { StackError } from "./errors.ts";

const PG_BIN = process.env.PG_BIN ?? "/usr/lib/postgresql/15/bin";

export interface BackupTarget {
  dataDir: string;
  databaseUrl?: string;
}

function run(tool: string, args: string[]) {
  const bin = existsSync(path.join(PG_BIN, tool)) ? path.join(PG_BIN, tool) : tool;
  const res = spawnSync(bin, args, { encoding: "utf8" });
  if (res.error || res.status !== 0) {
    throw new StackError(
      `${tool} failed: ${res.error?.message ?? res.stderr.trim().split("\n").slice(-3).join(" ")}`,
      "BACKUP_FAILED",
    );
  }
}

const MANIFEST = "moverscan-backup.json";
const DATABASE_FILE = "database";
const STORAGE_DIR = "storage";

function tar(args: string[]) {
  const res = spawnSync("tar", args, { encoding: "utf8" });
  if (res.error || res.status !== 0) {
    throw new StackError(
      `tar failed: ${res.error?.message ?? res.stderr.trim().split("\n").slice(-3).join(" ")}`,
      "BACKUP_FAILED",
    );
  }
  return res.stdout;
}

/** The number of files under `dir` (0 when it does not exist). */
function countFiles(dir: string): number {
  if (!existsSync(dir)) return 0;
  return readdirSync(dir, { recursive: true }).filter((f) =>
    statSync(path.join(dir, String(f))).isFile(),
  ).length;
}

/**
 * Writes a backup of the stack's data (database and Storage files) to `file`; returns the file's
 * size in bytes.
 */
export async function backupDatabase(target: BackupTarget, file: string): Promise<number> {
  mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
  const work = mkdtempSync(path.join(tmpdir(), "moverscan-backup-"));
  try {
    await dumpDatabase(target, path.join(work, DATABASE_FILE));
    const storage = path.join(target.dataDir, STORAGE_DIR);
    const files = countFiles(storage);
    if (files > 0) cpSync(storage, path.join(work, STORAGE_DIR), { recursive: true });
    const backend = target.databaseUrl ? "postgres" : "pglite";
    writeFileSync(
      path.join(work, MANIFEST),
      JSON.stringify({ format: 1, backend, storageFiles: files, at: new Date().toISOString() }),
    );
    tar([
      "--create",
      `--file=${path.resolve(file)}`,
      `--directory=${work}`,
      MANIFEST,
      DATABASE_FILE,
      ...(files > 0 ? [STORAGE_DIR] : []),
    ]);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  return readFileSync(file).byteLength;
}

async function dumpDatabase(target: BackupTarget, file: string): Promise<void> {
  if (target.databaseUrl) {
    run("pg_dump", ["--format=custom", "--no-owner", `--file=${file}`, target.databaseUrl]);
  } else {
    const dir = path.join(target.dataDir, "pglite");
    if (!existsSync(path.join(target.dataDir, READY_MARKER))) {
      throw new StackError(`There is no database in ${target.dataDir} to back up.`, "NO_DATA");
    }
    const pg = await PGlite.create(dir, { extensions: { pgcrypto, pg_trgm } });
    try {
      const tarball = await pg.dumpDataDir("gzip");
      writeFileSync(file, Buffer.from(await tarball.arrayBuffer()));
    } finally {
      await pg.close();
    }
  }
}

/** The manifest of a backup bundle, or null for a database-only file (the earlier format). */
function readManifest(file: string): { backend: string; storageFiles: number } | null {
  const list = spawnSync("tar", ["--list", `--file=${file}`], { encoding: "utf8" });
  if (list.status !== 0 || !list.stdout.split("\n").includes(MANIFEST)) return null;
  return JSON.parse(tar(["--extract", "--to-stdout", `--file=${file}`, MANIFEST]));
}

/**
 * Restores `file` into the stack: the database (an empty DATA_DIR, or the DATABASE_URL's
 * database) and the Storage files (into DATA_DIR/storage, which must be empty).
 */
export async function restoreDatabase(target: BackupTarget, file: string): Promise<void> {
  if (!existsSync(file)) throw new StackError(`No backup at ${file}.`, "NO_BACKUP");
  const manifest = readManifest(file);
  if (!manifest) return restoreDatabaseFile(target, file);
  const expected = target.databaseUrl ? "postgres" : "pglite";
  if (manifest.backend !== expected) {
    throw new StackError(
      `${file} is a ${manifest.backend} backup; this stack runs on ${expected}.`,
      "BACKUP_BACKEND",
    );
  }
  const storage = path.join(target.dataDir, STORAGE_DIR);
  if (manifest.storageFiles > 0 && countFiles(storage) > 0) {
    throw new StackError(
      `${storage} is not empty: restore into a new DATA_DIR, or run \`npm run db:reset\` first.`,
      "DATA_NOT_EMPTY",
    );
  }
  const work = mkdtempSync(path.join(tmpdir(), "moverscan-restore-"));
  try {
    tar(["--extract", `--file=${path.resolve(file)}`, `--directory=${work}`]);
    await restoreDatabaseFile(target, path.join(work, DATABASE_FILE));
    if (manifest.storageFiles > 0) {
      mkdirSync(storage, { recursive: true });
      cpSync(path.join(work, STORAGE_DIR), storage, { recursive: true });
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

async function restoreDatabaseFile(target: BackupTarget, file: string): Promise<void> {
  if (target.databaseUrl) {
    run("pg_restore", [
      "--clean",
      "--if-exists",
      "--no-owner",
      `--dbname=${target.databaseUrl}`,
      file,
    ]);
    return;
  }
  const dir = path.join(target.dataDir, "pglite");
  if (existsSync(dir) && readdirSync(dir).length > 0) {
    throw new StackError(
      `${dir} is not empty: restore into a new DATA_DIR, or run \`npm run db:reset\` first.`,
      "DATA_NOT_EMPTY",
    );
  }
  mkdirSync(dir, { recursive: true });
  const pg = await PGlite.create(dir, {
    extensions: { pgcrypto, pg_trgm },
    loadDataDir: new Blob([readFileSync(file)]),
  });
  await pg.query("select 1");
  await pg.close();
  writeFileSync(path.join(target.dataDir, READY_MARKER), new Date().toISOString());
}
