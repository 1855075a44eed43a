import type { ReactNode } from "react";
import type { ChatMessage } from "../types";
import { MessageAttachments } from "./MessageAttachments";

export function UserMessage({ message, actions }: { message: ChatMessage; actions?: ReactNode }) {
  return (
    <div className="pc-message-row" data-row="user">
      <div className="pc-message" data-role="user" data-status={message.status}>
        <MessageAttachments attachments={message.attachments} />
        {message.content !== "" && <div className="pc-bubble">{message.content}</div>}
      </div>
      {actions}
    </div>
  );
}
