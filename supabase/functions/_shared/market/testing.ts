// Test support for the market adapters: recorded venue payloads (tests/fixtures/market) and a
// fake `fetch` that records its calls. Never imported by a function.

const DIR = new URL("../../../../tests/fixtures/market/", import.meta.url);

/** A fresh copy of a recorded payload, e.g. `binance-ticker-24hr`. */
export async function loadMarketFixture(name: string): Promise<unknown> {
  return JSON.parse(await Deno.readTextFile(new URL(`${name}.json`, DIR)));
}

export function jsonResponse(
  body: unknown,
  status = 200,
  headers: Record<string, string> = {},
): Response {
  return new Response(typeof body === "string" ? body : JSON.stringify(body), {
    status,
    headers: { "content-type": "application/json", ...headers },
  });
}

export interface FakeFetch {
  fetch: typeof fetch;
  calls: { url: string; signal: AbortSignal | null }[];
}

/** A `fetch` answering from `respond` and recording every call. */
export function fakeFetch(respond: (url: string) => Response | Promise<Response>): FakeFetch {
  const calls: FakeFetch["calls"] = [];
  const fetch = ((input: RequestInfo | URL, init?: RequestInit) => {
    const url = input instanceof Request ? input.url : String(input);
    calls.push({ url, signal: init?.signal ?? null });
    return Promise.resolve().then(() => respond(url));
  }) as typeof globalThis.fetch;
  return { fetch, calls };
}

/** A `fetch` that never settles and ignores its signal (a hung connection). */
export function hangingFetch(): FakeFetch {
  return fakeFetch(() => new Promise<Response>(() => {}));
}

/** A clock the test moves by hand. */
export function manualClock(
  start: string | number,
): { now: () => Date; advance(ms: number): void } {
  let t = typeof start === "number" ? start : Date.parse(start);
  return { now: () => new Date(t), advance: (ms) => void (t += ms) };
}
