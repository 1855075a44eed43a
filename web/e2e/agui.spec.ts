// The AG-UI endpoint, driven by the real @ag-ui/client HttpAgent (it validates the event
// sequence itself) against the scripted pagechat server. No browser: the client runs in Node.
import { randomUUID } from "node:crypto";
import { EventType, HttpAgent, type BaseEvent } from "@ag-ui/client";
import { expect, test } from "@playwright/test";
import { TOKEN, baseUrl } from "./fixtures";

function agent(token: string | null = TOKEN): HttpAgent {
  return new HttpAgent({
    url: `${baseUrl()}/api/agui/demo`,
    headers: token === null ? {} : { Authorization: `Bearer ${token}` },
    threadId: randomUUID(),
  });
}

interface Collected {
  types: string[];
  events: BaseEvent[];
}

async function run(a: HttpAgent, text: string): Promise<Collected & { result: unknown }> {
  a.addMessage({ id: randomUUID(), role: "user", content: text });
  const collected: Collected = { types: [], events: [] };
  const outcome = await a.runAgent(
    {},
    {
      onEvent: ({ event }) => {
        collected.types.push(event.type);
        collected.events.push(event);
      },
    },
  );
  return { ...collected, result: outcome.result as unknown };
}

async function conversations(): Promise<{ id: string; title: string }[]> {
  const r = await fetch(`${baseUrl()}/api/conversations`, { headers: { Authorization: `Bearer ${TOKEN}` } });
  expect(r.status).toBe(200);
  return ((await r.json()) as { items: { id: string; title: string }[] }).items;
}

test("a text answer arrives as one assistant message", async () => {
  const a = agent();
  const { types, result } = await run(a, "hello from ag-ui");
  expect(types[0]).toBe("RUN_STARTED");
  expect(types.at(-1)).toBe("RUN_FINISHED");
  const answer = a.messages.at(-1);
  expect(answer?.role).toBe("assistant");
  expect(answer?.content).toBe("You said: hello from ag-ui");
  expect((result as { conversation_id: string }).conversation_id).toMatch(/^[0-9a-f]{32}$/);
});

test("a tool call comes with its arguments and its result", async () => {
  const a = agent();
  const { types } = await run(a, "use the tool please");
  expect(types).toContain("TOOL_CALL_START");
  expect(types).toContain("TOOL_CALL_RESULT");
  const call = a.messages
    .flatMap((m) => (m.role === "assistant" ? (m.toolCalls ?? []) : []))
    .find((c) => c.function.name === "slow_search");
  expect(call).toBeDefined();
  expect(JSON.parse(call?.function.arguments ?? "{}")).toEqual({ query: "CRISPR" });
  const result = a.messages.find((m) => m.role === "tool");
  expect(result?.content).toContain("Found 3 articles about CRISPR");
  expect(a.messages.at(-1)?.content).toContain("I found **3 articles** about CRISPR");
  const progress = types.filter((t) => t === "CUSTOM").length;
  expect(progress).toBeGreaterThan(0);
});

test("a proposal arrives as a custom payload event and a state delta", async () => {
  const a = agent();
  const { events } = await run(a, "make a payload");
  const payloads = events.filter(
    (e): e is BaseEvent & { name: string; value: { type: string } } =>
      e.type === EventType.CUSTOM && (e as { name?: string }).name === "pagechat.payload",
  );
  expect(payloads.map((p) => p.value.type)).toEqual(["project_proposal"]);
  // The demo page declares its proposal a change of the shared state: a STATE_DELTA the client applied.
  expect(events.map((e) => e.type)).toContain(EventType.STATE_DELTA);
  expect((a.state as { proposal?: { name: string } }).proposal?.name).toBe("Renamed by the assistant");
});

test("a frontend tool's call goes to the client, and its result finishes the same answer", async () => {
  const a = agent();
  const tools = [
    {
      name: "read_field",
      description: "Read a field of the form on the user's screen.",
      parameters: { type: "object", properties: { field: { type: "string" } }, required: ["field"] },
    },
  ];
  a.addMessage({ id: randomUUID(), role: "user", content: "ask the frontend for the title" });
  const first = await a.runAgent({ tools });
  const call = a.messages
    .flatMap((m) => (m.role === "assistant" ? (m.toolCalls ?? []) : []))
    .find((c) => c.function.name === "read_field");
  expect(call).toBeDefined();
  expect(JSON.parse(call?.function.arguments ?? "{}")).toEqual({ field: "title" });
  expect((first.result as { waiting_for_tool_call: string }).waiting_for_tool_call).toBe(call?.id);
  expect(a.messages.some((m) => m.role === "tool")).toBe(false);

  // The client runs its tool and sends the result with its next run.
  a.addMessage({ id: randomUUID(), role: "tool", toolCallId: call?.id ?? "", content: "Apollo" });
  const second = await a.runAgent({ tools });
  expect(a.messages.at(-1)?.content).toBe("The page says the title is Apollo.");
  const texts = a.messages.filter((m) => m.role === "assistant" && m.content).map((m) => m.content);
  expect(texts).toEqual(["Asking the page.", "The page says the title is Apollo."]);

  // One stored answer, with the client's result as its tool's output.
  const conversationId = (second.result as { conversation_id: string }).conversation_id;
  const r = await fetch(`${baseUrl()}/api/conversations/${conversationId}`, {
    headers: { Authorization: `Bearer ${TOKEN}` },
  });
  const detail = (await r.json()) as {
    messages: { status: string; content: string; tool_history: { output: string }[] }[];
  };
  const answer = detail.messages.at(-1);
  expect(answer?.status).toBe("complete");
  expect(answer?.content).toBe("Asking the page.[[tool:0]]The page says the title is Apollo.");
  expect(answer?.tool_history[0]?.output).toBe("Apollo");
});

test("aborting the run stops the answer on the server", async () => {
  const a = agent();
  a.addMessage({ id: randomUUID(), role: "user", content: "a long answer about aborting" });
  let seen = 0;
  await a.runAgent(
    {},
    {
      onTextMessageContentEvent: () => {
        seen += 1;
        if (seen === 3) a.abortRun();
      },
    },
  );
  // The server stores the answer as it stood when the client went away.
  let status = "running";
  let content = "";
  for (let i = 0; i < 100 && status === "running"; i++) {
    const found = (await conversations()).find((c) => c.title.startsWith("a long answer about aborting"));
    if (found) {
      const r = await fetch(`${baseUrl()}/api/conversations/${found.id}`, {
        headers: { Authorization: `Bearer ${TOKEN}` },
      });
      const detail = (await r.json()) as { messages: { status: string; content: string }[] };
      status = detail.messages.at(-1)?.status ?? "running";
      content = detail.messages.at(-1)?.content ?? "";
    }
    if (status === "running") await new Promise((done) => setTimeout(done, 50));
  }
  expect(status).toBe("cancelled");
  expect(content.startsWith("Sentence number 1")).toBe(true);
  expect(content).not.toContain("Sentence number 80");
});

test("without a token the run is refused with 401", async () => {
  const a = agent(null);
  a.addMessage({ id: randomUUID(), role: "user", content: "hello" });
  await expect(a.runAgent()).rejects.toThrow(/401/);
});
