import { describe, expect, it } from "vitest";
import { FakeFetch, json } from "../test/sse-server";
import { createChatApi } from "./api";
import { loadPayloadTypes, parsePayloadTypes } from "./payloadTypes";

describe("parsePayloadTypes", () => {
  it("keeps well-formed entries and fills in what is missing or malformed", () => {
    const body = {
      payload_types: {
        recipe: { schema: { type: "object" }, title: "Recipe", pages: ["recipes", 3], accept_actions: { recipes: "save", x: 1 } },
        bare: {},
        broken: "not an object",
      },
    };
    expect(parsePayloadTypes(body)).toEqual({
      recipe: { schema: { type: "object" }, title: "Recipe", pages: ["recipes"], accept_actions: { recipes: "save" } },
      bare: { schema: null, title: null, pages: [], accept_actions: {} },
    });
    expect(parsePayloadTypes(null)).toEqual({});
    expect(parsePayloadTypes({ payload_types: [] })).toEqual({});
  });
});

describe("loadPayloadTypes", () => {
  it("asks once per client, and again after a failure", async () => {
    const fake = new FakeFetch();
    const api = createChatApi({ getToken: () => "tok", fetch: fake.fetch });
    fake.on("GET", "/api/payload-types", () => json({ detail: "down" }, 503));
    fake.always("GET", "/api/payload-types", () => json({ payload_types: { note: { schema: null } } }));

    expect(await loadPayloadTypes(api)).toEqual({});
    const [first, second] = await Promise.all([loadPayloadTypes(api), loadPayloadTypes(api)]);
    expect(first).toBe(second);
    expect(Object.keys(first)).toEqual(["note"]);
    await loadPayloadTypes(api);
    expect(fake.calls.map((c) => c.url)).toEqual(["/api/payload-types", "/api/payload-types"]);
    expect(fake.calls[0]?.headers.get("Authorization")).toBe("Bearer tok");
  });
});
