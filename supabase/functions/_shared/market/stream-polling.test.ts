import { strictEqual as assertEquals, throws } from "node:assert/strict";
import {
  DEFAULT_STREAM_SAFETY_POLL_SECONDS,
  parseSafetySeconds,
  skipPoll,
  streamCarries,
} from "./stream-polling.ts";

const NOW = Date.parse("2026-11-28T12:00:00Z");
const ago = (ms: number) => new Date(NOW - ms).toISOString();
const live = { state: "connected", lastMessageAt: ago(800), reportedAt: ago(400) };

Deno.test("a connected stream that spoke and reported within 5 s carries the venue", () => {
  assertEquals(streamCarries(live, NOW), true);
  assertEquals(streamCarries({ ...live, state: "dropped" }, NOW), false);
  assertEquals(streamCarries({ ...live, lastMessageAt: ago(4_500) }, NOW), true);
  // The venue went silent for the reader's silence limit: polling takes over.
  assertEquals(streamCarries({ ...live, lastMessageAt: ago(5_000) }, NOW), false);
  // The reader stopped reporting (its process died): polling takes over.
  assertEquals(streamCarries({ ...live, reportedAt: ago(5_500) }, NOW), false);
  assertEquals(streamCarries({ ...live, lastMessageAt: null }, NOW), false);
  assertEquals(streamCarries(null, NOW), false);
});

Deno.test("a tick skips its poll only while the stream carries the venue and the last poll is young", () => {
  assertEquals(skipPoll(live, ago(10_000), NOW, 30), true);
  // The safety cadence is due: poll.
  assertEquals(skipPoll(live, ago(30_000), NOW, 30), false);
  // Never polled: poll.
  assertEquals(skipPoll(live, null, NOW, 30), false);
  // The stream dropped: poll at once, whatever the last poll.
  assertEquals(skipPoll({ ...live, state: "dropped" }, ago(1_000), NOW, 30), false);
  assertEquals(skipPoll(undefined, ago(1_000), NOW, 30), false);
});

Deno.test("STREAM_SAFETY_POLL_SECONDS: whole seconds from 5 to 3600, else a clear error", () => {
  assertEquals(parseSafetySeconds(undefined), DEFAULT_STREAM_SAFETY_POLL_SECONDS);
  assertEquals(parseSafetySeconds(" "), DEFAULT_STREAM_SAFETY_POLL_SECONDS);
  assertEquals(parseSafetySeconds("60"), 60);
  for (const bad of ["4", "3601", "2.5", "soon"]) {
    throws(() => parseSafetySeconds(bad), /STREAM_SAFETY_POLL_SECONDS/);
  }
});
