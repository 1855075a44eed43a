// @vitest-environment jsdom
import { afterEach, describe, expect, it } from "vitest";
import { createChatApi } from "./api";
import { csrfToken } from "./csrf";
import { FakeFetch, json } from "../test/sse-server";

function setCookie(value: string | null) {
  document.cookie = value === null ? "pagechat_csrf=; max-age=0; path=/" : `pagechat_csrf=${value}; path=/`;
}

describe("the session cookie's CSRF token", () => {
  afterEach(() => {
    setCookie(null);
  });

  it("is read from the cookie the server set beside the session", () => {
    expect(csrfToken("a=1; pagechat_csrf=abc%3D%3D; b=2")).toBe("abc==");
    expect(csrfToken("a=1")).toBeNull();
  });

  it("goes with every request that changes something, and only those", async () => {
    setCookie("tok123");
    const fake = new FakeFetch();
    fake.always("POST", "/api/conversations/c1/messages/m1/decision", () => json({ id: "m1" }));
    fake.always("GET", "/api/auth/me", () => json({ id: "u", email: "u@x", is_admin: false }));
    const api = createChatApi({ getToken: () => null, fetch: fake.fetch });
    await api.me();
    await api.decidePayload("c1", "m1", "accepted");
    const [read, write] = fake.calls;
    expect(read?.headers.get("X-CSRF-Token")).toBeNull();
    expect(write?.headers.get("X-CSRF-Token")).toBe("tok123");
    expect(write?.headers.get("Authorization")).toBeNull();
  });

  it("is not needed with a bearer token", async () => {
    setCookie("tok123");
    const fake = new FakeFetch();
    fake.always("POST", "/api/conversations/c1/messages/m1/decision", () => json({ id: "m1" }));
    const api = createChatApi({ getToken: () => "bearer-tok", fetch: fake.fetch });
    await api.decidePayload("c1", "m1", "accepted");
    expect(fake.calls[0]?.headers.get("Authorization")).toBe("Bearer bearer-tok");
    expect(fake.calls[0]?.headers.get("X-CSRF-Token")).toBeNull();
  });
});
