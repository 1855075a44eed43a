import { afterEach, describe, expect, it, vi } from "vitest";
import { parseStreamEvent } from "./events";

afterEach(() => {
  vi.restoreAllMocks();
});

function quietly<T>(run: () => T): { result: T; warnings: unknown[][] } {
  const warn = vi.spyOn(console, "warn").mockImplementation(() => undefined);
  const result = run();
  const warnings = [...warn.mock.calls];
  warn.mockRestore();
  return { result, warnings };
}

describe("parseStreamEvent", () => {
  it("passes each well-formed event type through", () => {
    const events = [
      { type: "status", message: "Thinking..." },
      { type: "text_delta", text: "Hello" },
      { type: "tool_start", tool: "search", input: { q: "x" }, tool_use_id: "t1" },
      { type: "tool_progress", tool: "search", stage: "fetch", message: "2 of 4", progress: 0.5, data: { n: 2 } },
      {
        type: "tool_complete",
        tool: "search",
        index: 0,
        is_error: false,
        output: "4 hits",
        payload: { type: "hits", data: { n: 4 } },
        approval: null,
        usage: { input_tokens: 25, output_tokens: 6, cache_read_tokens: 0, cache_write_tokens: 25 },
        changes: null,
        sources: [{ id: "11", title: "Prime editing", url: "https://pubmed.ncbi.nlm.nih.gov/11/", detail: "", snippet: "", number: 1 }],
      },
      { type: "error", message: "Overloaded", code: "overloaded" },
      { type: "cancelled" },
    ];
    for (const event of events) expect(parseStreamEvent(JSON.stringify(event))).toEqual(event);
  });

  it("fills the fields an older server may leave out with the protocol's defaults", () => {
    expect(parseStreamEvent('{"type":"tool_progress","tool":"search"}')).toEqual({
      type: "tool_progress",
      tool: "search",
      stage: "",
      message: "",
      progress: null,
      data: null,
    });
    const complete = parseStreamEvent('{"type":"complete","payload":{"message":"Done"}}');
    expect(complete).toMatchObject({
      type: "complete",
      payload: { message: "Done", payloads: [], tool_history: [], custom_payload: null, warnings: [] },
    });
  });

  it("keeps fields it does not know, for a newer server", () => {
    const event = parseStreamEvent('{"type":"complete","payload":{"message":"Hi","branch":2},"extra":true}');
    expect(event).toMatchObject({ extra: true, payload: { message: "Hi", branch: 2 } });
  });

  it("keeps a source's link only when it is http(s)", () => {
    const source = (url: string) => ({ id: "1", title: "T", url, detail: "", snippet: "", number: 1 });
    const data = JSON.stringify({ type: "complete", payload: { message: "x", sources: [source("javascript:alert(1)"), source("https://example.org/a")] } });
    const event = parseStreamEvent(data);
    expect(event?.type === "complete" ? event.payload.sources.map((s) => s.url) : null).toEqual([null, "https://example.org/a"]);
  });

  it("drops an event whose fields are wrong, with a warning", () => {
    const bad = [
      '{"type":"text_delta","text":42}',
      '{"type":"tool_start","tool":"search"}',
      '{"type":"tool_progress","tool":"search","progress":3}',
      '{"type":"tool_complete","tool":"search","index":-1}',
      '{"type":"complete","payload":{"message":"x","suggested_actions":[{"label":"Go","action":"go","handler":"elsewhere"}]}}',
      '{"type":"complete","payload":{"message":"x","tool_history":[{"tool_name":7}]}}',
      '{"type":"complete","payload":{"message":"x","sources":[{"id":"1","title":"T","number":0}]}}',
      '{"type":"complete"}',
      '{"type":"error"}',
      "[1,2]",
      "not json",
    ];
    for (const data of bad) {
      const { result, warnings } = quietly(() => parseStreamEvent(data));
      expect(result, data).toBeNull();
      expect(warnings, data).toHaveLength(1);
    }
  });

  it("skips an event type it does not know without a warning", () => {
    const { result, warnings } = quietly(() => parseStreamEvent('{"type":"from_the_future","x":1}'));
    expect(result).toBeNull();
    expect(warnings).toHaveLength(0);
  });
});
