import { afterEach, describe, expect, it, vi } from "vitest";
import { createHorizonApi, routeUrl } from "./api";

afterEach(() => {
  vi.unstubAllGlobals();
});

describe("routeUrl", () => {
  it("fills path parameters (encoded) and adds the query", () => {
    expect(routeUrl("/api/horizon/reports/{report_id}/articles/{pmid}", { report_id: 3, pmid: "a/b" })).toBe(
      "/api/horizon/reports/3/articles/a%2Fb",
    );
    expect(routeUrl("/api/horizon/articles", {}, { q: "gene therapy", limit: 5, skip: undefined })).toBe(
      "/api/horizon/articles?q=gene+therapy&limit=5",
    );
  });

  it("refuses a route with a parameter missing", () => {
    expect(() => routeUrl("/api/horizon/streams/{stream_id}")).toThrow("stream_id");
  });
});

describe("the Horizon client", () => {
  it("sends the token and the JSON body, and answers the parsed JSON", async () => {
    const fetch = vi.fn(() => Promise.resolve(new Response(JSON.stringify({ id: 7 }), { status: 201 })));
    vi.stubGlobal("fetch", fetch);
    const api = createHorizonApi(() => "tok", vi.fn());
    const body = { name: "A" };
    await expect(api.call("POST /api/horizon/streams", { body })).resolves.toEqual({ id: 7 });
    const [url, init] = fetch.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe("/api/horizon/streams");
    expect(init).toMatchObject({ method: "POST", body: JSON.stringify(body), credentials: "same-origin" });
    const headers = new Headers(init.headers);
    expect(headers.get("Authorization")).toBe("Bearer tok");
    expect(headers.get("Content-Type")).toBe("application/json");
  });

  it("a refused token signs out; an error says the server's reason", async () => {
    const onUnauthorized = vi.fn();
    vi.stubGlobal(
      "fetch",
      vi.fn(() => Promise.resolve(new Response(JSON.stringify({ detail: "Stream not found" }), { status: 404 }))),
    );
    const api = createHorizonApi(() => "tok", onUnauthorized);
    await expect(api.call("GET /api/horizon/streams/{stream_id}", { path: { stream_id: 9 } })).rejects.toThrow("Stream not found");
    vi.stubGlobal("fetch", vi.fn(() => Promise.resolve(new Response("{}", { status: 401 }))));
    await expect(api.call("GET /api/horizon/streams", {})).rejects.toThrow();
    expect(onUnauthorized).toHaveBeenCalledOnce();
  });

  it("a 204 answers null", async () => {
    vi.stubGlobal("fetch", vi.fn(() => Promise.resolve(new Response(null, { status: 204 }))));
    const api = createHorizonApi(() => "tok", vi.fn());
    await expect(api.call("DELETE /api/horizon/streams/{stream_id}", { path: { stream_id: 1 } })).resolves.toBeNull();
  });
});
