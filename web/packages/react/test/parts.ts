// The controller's parts wired as ChatController wires them, on a real ChatApi over a
// scripted fetch, for the tests of each part.
import { vi } from "vitest";
import { createChatApi } from "../src/api";
import { History } from "../src/controller/history";
import { LocalIds } from "../src/controller/ids";
import { ChatStore, type Scheduler } from "../src/controller/store";
import { RunStream } from "../src/controller/stream";
import type { StreamEvent } from "../src/types";
import { FakeFetch } from "./sse-server";

/** Flushes queued events on the next microtask (a test's stand-in for the next frame). */
export const microtasks: Scheduler = (flush) => {
  queueMicrotask(flush);
};

export const context = { current_page: "demo", count: 3 };

export function chatParts({ schedule = microtasks, stopTimeoutMs = 200 }: { schedule?: Scheduler; stopTimeoutMs?: number } = {}) {
  const fake = new FakeFetch();
  const api = createChatApi({
    getToken: () => "tok",
    fetch: fake.fetch,
    retry: { attempts: 1, baseDelayMs: 1, maxDelayMs: 1 },
  });
  const store = new ChatStore(schedule);
  return {
    fake,
    api,
    store,
    history: new History({ store, api }),
    stream: new RunStream({ store, api, stopTimeoutMs }),
    ids: new LocalIds(),
    getContext: () => context,
  };
}

/** The headers with which the server names a turn's run and conversation. */
export const runHeaders = (run = "r1", conversation = "c1") => ({ "X-Run-Id": run, "X-Conversation-Id": conversation });

export const delta = (text: string): StreamEvent => ({ type: "text_delta", text });

export const until = (check: () => boolean) =>
  vi.waitFor(
    () => {
      if (!check()) throw new Error("not yet");
    },
    { timeout: 2000, interval: 2 },
  );
