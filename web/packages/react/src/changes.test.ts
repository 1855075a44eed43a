// @vitest-environment jsdom
import { describe, expect, it } from "vitest";
import { announceChanges, onEntityChanges } from "./changes";
import type { EntityChange } from "./types";

const deleted: EntityChange = { entity: "report", id: "3", change: "deleted" };

describe("entity changes", () => {
  it("reach this tab's pages at once, and another tab's through the channel", async () => {
    const heard: EntityChange[][] = [];
    const stop = onEntityChanges((changes) => heard.push(changes));
    announceChanges([deleted]);
    expect(heard).toEqual([[deleted]]);

    // Another tab: its own channel of the same name.
    const other = new BroadcastChannel("pagechat:changes");
    other.postMessage({ from: "another tab", changes: [{ entity: "stream", id: "1", change: "updated" }, { junk: true }] });
    await expect.poll(() => heard.length).toBe(2);
    expect(heard[1]).toEqual([{ entity: "stream", id: "1", change: "updated" }]);
    other.close();
    // This tab's own announcement comes back on the channel too, and is not heard twice.
    await new Promise((done) => setTimeout(done, 50));
    expect(heard).toHaveLength(2);
    stop();
    announceChanges([deleted]);
    expect(heard).toHaveLength(2);
  });
});
