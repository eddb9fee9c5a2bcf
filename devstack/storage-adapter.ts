// Filesystem storage adapter for @supabase/lite's Storage API: object bytes live under
// <dataDir>/storage/<bucket>/<key>; metadata lives in the storage schema as on Supabase.
import { createHash } from "node:crypto";
import { createReadStream } from "node:fs";
import { copyFile, mkdir, readFile, rm, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import { Readable } from "node:stream";
import type { App } from "@supabase/lite";

type Adapter = NonNullable<App["_storageAdapter"]>;
type Metadata = Awaited<ReturnType<Adapter["headObject"]>>;

const MIME: Record<string, string> = {
  ".png": "image/png",
  ".jpg": "image/jpeg",
  ".jpeg": "image/jpeg",
  ".gif": "image/gif",
  ".webp": "image/webp",
  ".svg": "image/svg+xml",
  ".json": "application/json",
  ".txt": "text/plain",
  ".pdf": "application/pdf",
};

export class FilesystemStorage implements Adapter {
  readonly driver = "filesystem";
  constructor(private readonly root: string) {}

  private resolve(bucket: string, key: string): string {
    const full = path.resolve(this.root, bucket, key);
    if (!full.startsWith(path.resolve(this.root) + path.sep)) throw new Error("Invalid object key");
    return full;
  }

  private async meta(file: string, key: string): Promise<Metadata> {
    const st = await stat(file);
    const eTag = `"${createHash("md5").update(`${file}:${st.mtimeMs}:${st.size}`).digest("hex")}"`;
    return {
      cacheControl: "no-cache",
      contentLength: st.size,
      size: st.size,
      mimetype: MIME[path.extname(key).toLowerCase()] ?? "application/octet-stream",
      lastModified: st.mtime,
      eTag,
    };
  }

  async getObject(...[bucket, key, , headers]: Parameters<Adapter["getObject"]>) {
    const file = this.resolve(bucket, key);
    const metadata = await this.meta(file, key);
    if (headers?.ifNoneMatch && headers.ifNoneMatch === metadata.eTag) {
      return { httpStatusCode: 304, metadata };
    }
    const range = headers?.range ? /^bytes=(\d+)-(\d*)$/.exec(headers.range) : null;
    if (range) {
      const start = Number(range[1]);
      const end = range[2] ? Math.min(Number(range[2]), metadata.size - 1) : metadata.size - 1;
      return {
        httpStatusCode: 206,
        metadata: {
          ...metadata,
          contentLength: end - start + 1,
          contentRange: `bytes ${start}-${end}/${metadata.size}`,
        },
        body: Readable.toWeb(createReadStream(file, { start, end })) as never,
      };
    }
    return { httpStatusCode: 200, metadata, body: await readFile(file) };
  }

  async uploadObject(
    ...[bucket, key, , body, contentType, cacheControl]: Parameters<Adapter["uploadObject"]>
  ) {
    const file = this.resolve(bucket, key);
    await mkdir(path.dirname(file), { recursive: true });
    let bytes: Uint8Array;
    if (body instanceof Uint8Array) bytes = body;
    else {
      const chunks: Uint8Array[] = [];
      for await (const chunk of body as AsyncIterable<Uint8Array>) chunks.push(chunk);
      bytes = Buffer.concat(chunks);
    }
    await writeFile(file, bytes);
    const m = await this.meta(file, key);
    return {
      ...m,
      mimetype: contentType,
      cacheControl,
      eTag: `"${createHash("md5").update(bytes).digest("hex")}"`,
    };
  }

  async deleteObject(bucket: string, key: string) {
    await rm(this.resolve(bucket, key), { force: true });
  }

  async deleteObjects(bucket: string, keys: string[]) {
    for (const key of keys) await this.deleteObject(bucket, key);
  }

  async copyObject(...[fromBucket, fromKey, , toBucket, toKey]: Parameters<Adapter["copyObject"]>) {
    const dest = this.resolve(toBucket, toKey);
    await mkdir(path.dirname(dest), { recursive: true });
    await copyFile(this.resolve(fromBucket, fromKey), dest);
    const m = await this.meta(dest, toKey);
    return { httpStatusCode: 200, eTag: m.eTag, lastModified: m.lastModified };
  }

  async headObject(bucket: string, key: string) {
    return this.meta(this.resolve(bucket, key), key);
  }

  async privateAssetUrl(bucket: string, key: string) {
    return `file://${this.resolve(bucket, key)}`;
  }
}
