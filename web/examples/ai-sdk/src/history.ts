// The chat's stored messages (pagechat keeps the history), as the UI messages useChat starts
// from: the text of each question and finished answer, its payloads, and the approval a
// waiting answer asks for (so its Approve and Deny buttons work after a reload: the server
// tells the decided call's end on this part, whatever its id), or the call of the app's own
// tool it waits for (input available, under the model's call id: the chat runs it again).
// A question's attachments are file parts whose URL is the attachment's own (read with the
// session cookie; sending it again names the same stored file, nothing is uploaded twice).
// An answer still running is left out: `resume` streams it again from its start.
import type { AiSdkDataTypes, AiSdkMessageMetadata, CustomPayload } from "./generated/pagechat";
import type { UIMessage } from "ai";

export type ChatMessage = UIMessage<AiSdkMessageMetadata, AiSdkDataTypes>;
type Part = ChatMessage["parts"][number];

interface Stored {
  id: string;
  role: "user" | "assistant" | "action";
  content: string;
  status: string;
  payloads: CustomPayload[];
  approval: Waiting | null;
  attachments?: { id: string; name: string; media_type: string }[];
}

interface Waiting {
  id: string;
  kind?: "approval" | "frontend_tool";
  tool: string;
  tool_use_id?: string | null;
  input: Record<string, unknown>;
  reason: string;
  status: string;
}

function waiting(approval: Waiting): Part {
  if (approval.kind === "frontend_tool" && approval.tool_use_id) {
    return { type: `tool-${approval.tool}`, toolCallId: approval.tool_use_id, state: "input-available", input: approval.input };
  }
  return {
    type: `tool-${approval.tool}`,
    toolCallId: approval.id,
    state: "approval-requested",
    input: approval.input,
    approval: { id: approval.id, requestReason: approval.reason },
  };
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
        ...(m.attachments ?? []).map((a): Part => ({
          type: "file",
          mediaType: a.media_type,
          filename: a.name,
          url: `/api/attachments/${encodeURIComponent(a.id)}`,
        })),
        { type: "text", text: m.content.replace(/\[\[tool:\d+\]\]/g, "") },
        ...m.payloads.map((p, i): Part => ({ type: "data-pagechat-payload", id: `payload-${String(i)}`, data: p })),
        ...(m.status === "needs_approval" && m.approval?.status === "pending" ? [waiting(m.approval)] : []),
      ],
    }));
}
