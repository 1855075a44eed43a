import { describe, expect, it } from "vitest";
import { emptyMessage } from "../state";
import type { PayloadHandler } from "../payloadRegistry";
import { payloadViews } from "./MessageList";

const handler: PayloadHandler = { render: () => null };

describe("payloadViews", () => {
  it("offers one View per card type: the primary payload for its type, else the last one", () => {
    const article = { type: "article", data: { pmid: "1", abstract: "long" } };
    const restated = { type: "article", data: { pmid: "1" } };
    const first = { type: "results", data: { query: "a" } };
    const second = { type: "results", data: { query: "b" } };
    const message = { ...emptyMessage("m1", "assistant", "x"), custom_payload: article, payloads: [article, first, restated, second] };
    const views = payloadViews(message, (type) => (type === "unknown" ? undefined : handler));
    expect(views.map((v) => v.payload)).toEqual([article, second]);
  });
});
