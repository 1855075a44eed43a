import { Check, CircleX } from "lucide-react";
import type { ChatMessage } from "../types";

interface ShownResult {
  ok: boolean;
  text: string;
}

/** The result of a server action, as the server stores it: `{action, input, result}`. */
function shownResult(message: ChatMessage): ShownResult {
  const payload = message.custom_payload;
  if (payload?.type === "action_result" && typeof payload.data === "object" && payload.data !== null) {
    const result = (payload.data as { result?: unknown }).result;
    if (typeof result === "object" && result !== null) {
      const { ok, message: text } = result as { ok?: unknown; message?: unknown };
      const action = (payload.data as { action?: unknown }).action;
      const fallback = typeof action === "string" ? `${action}: ${ok === false ? "failed" : "done"}` : message.content;
      return { ok: ok !== false, text: typeof text === "string" && text !== "" ? text : fallback };
    }
  }
  return { ok: message.status !== "error", text: message.content };
}

export function ActionMessage({ message }: { message: ChatMessage }) {
  const { ok, text } = shownResult(message);
  return (
    <div className="pc-message" data-role="action" data-status={ok ? "complete" : "error"}>
      <div className="pc-action-result" role="status">
        {ok ? <Check size={14} aria-hidden="true" /> : <CircleX size={14} aria-hidden="true" />}
        {text}
      </div>
    </div>
  );
}
