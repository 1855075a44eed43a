import type { ChatMessage } from "../types";

export function UserMessage({ message }: { message: ChatMessage }) {
  return (
    <div className="pc-message" data-role="user" data-status={message.status}>
      <div className="pc-bubble">{message.content}</div>
    </div>
  );
}
