// The chat's stored messages (pagechat keeps the history), as the UI messages useChat starts
// from: the text of each question and finished answer, and its payloads. An answer still
// running is left out: `resume` streams it again from its start.
import type { AiSdkDataTypes, AiSdkMessageMetadata, CustomPayload } from "./generated/pagechat";
import type { UIMessage } from "ai";

export type ChatMessage = UIMessage<AiSdkMessageMetadata, AiSdkDataTypes>;

interface Stored {
  id: string;
  role: "user" | "assistant" | "action";
  content: string;
  status: string;
  payloads: CustomPayload[];
}

export async function storedMessages(chatId: string): Promise<ChatMessage[]> {
  const response = await fetch(`/api/conversations/${encodeURIComponent(chatId)}`);
  if (!response.ok) return []; // a new chat: nothing stored yet
  const { messages } = (await response.json()) as { messages: Stored[] };
  return messages
    .filter((m) => m.role !== "action" && m.status !== "running")
    .map((m): ChatMessage => ({
      id: m.id,
      role: m.role === "user" ? "user" : "assistant",
      parts: [
        { type: "text", text: m.content.replace(/\[\[tool:\d+\]\]/g, "") },
        ...m.payloads.map((p, i) => ({ type: "data-pagechat-payload" as const, id: `payload-${String(i)}`, data: p })),
      ],
    }));
}
