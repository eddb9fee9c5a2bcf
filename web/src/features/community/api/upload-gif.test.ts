import { describe, expect, it } from "vitest";
import { i18n } from "@/i18n/i18n";
import { supabaseMock } from "@/testing/supabase-mock";
import { GifUploadError, uploadGif } from "./upload-gif";

const GROUP = "10000000-0000-4000-8000-000000000003";

/** supabase-js's FunctionsHttpError: the function's Response in `context`. */
function functionError(status: number, body: unknown, headers: Record<string, string> = {}) {
  const context = new Response(JSON.stringify(body), {
    status,
    headers: { "content-type": "application/json", ...headers },
  });
  return { data: null, error: Object.assign(new Error("FunctionsHttpError"), { context }) };
}

async function failure(): Promise<GifUploadError> {
  const file = new File([new Uint8Array([0x47, 0x49, 0x46])], "a.gif", { type: "image/gif" });
  const error = await uploadGif(GROUP, file).then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(GifUploadError);
  return error as GifUploadError;
}

describe("uploadGif", () => {
  it("words the GIF upload limit (429 too_fast) in the user's language with the server's wait", async () => {
    supabaseMock.setFunction(
      "chat-gif",
      functionError(
        429,
        { error: "too_fast", message: "You're uploading GIFs too fast — try again in 42 s" },
        { "retry-after": "42" },
      ),
    );
    await i18n.changeLanguage("de");
    const error = await failure();
    expect(error.code).toBe("too_fast");
    expect(error.message).toBe("Du lädst GIFs zu schnell hoch – versuche es in 42 s erneut");
  });

  it("passes on the server's message and code for other refusals", async () => {
    supabaseMock.setFunction(
      "chat-gif",
      functionError(415, { error: "invalid_file", message: "Only GIF images can be sent." }),
    );
    const error = await failure();
    expect(error.code).toBe("invalid_file");
    expect(error.message).toBe("Only GIF images can be sent.");
  });
});
