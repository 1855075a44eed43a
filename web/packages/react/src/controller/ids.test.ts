import { describe, expect, it } from "vitest";
import { isLocalId, LocalIds } from "./ids";

describe("local ids", () => {
  it("tells the ids the tray gives this session's messages from the server's stored ones", () => {
    const ids = new LocalIds();
    const mine = [ids.next("user"), ids.next("action"), "partial-r1", "assistant-3", "streaming"];
    expect(mine.slice(0, 2)).toEqual(["user-local-1", "action-local-2"]);
    expect(mine.every(isLocalId)).toBe(true);
    expect(["m1", "0f3a9c2e4b", "approval-ap1"].some(isLocalId)).toBe(false);
  });
});
