import type { ReactNode } from "react";
import type { ChatMessage } from "../types";

export function UserMessage({ message, actions }: { message: ChatMessage; actions?: ReactNode }) {
  return (
    <div className="pc-message-row" data-row="user">
      <div className="pc-message" data-role="user" data-status={message.status}>
        <div className="pc-bubble">{message.content}</div>
      </div>
      {actions}
    </div>
  );
}
