import type { ReactNode, RefObject } from "react";
import type { PayloadHandler } from "../payloadRegistry";
import type { CustomPayload, SuggestedAction } from "../types";
import type { UseChat } from "../useChat";
import { Composer } from "./Composer";
import { MessageList } from "./MessageList";

export interface ChatViewProps {
  chat: UseChat;
  inputRef: RefObject<HTMLTextAreaElement | null>;
  welcome: ReactNode;
  onSend: (text: string) => void;
  /** Sends the composer's message with the files attached to it. */
  onSendDraft: (text: string) => void;
  isActionAvailable: (action: SuggestedAction) => boolean;
  onRunAction: (action: SuggestedAction) => Promise<void>;
  resolveHandler: (type: string) => PayloadHandler | undefined;
  onViewPayload: (messageId: string, payload: CustomPayload) => void;
}

/** The conversation and the message box under it. */
export function ChatView({ chat, inputRef, onSend, onSendDraft, ...rest }: ChatViewProps) {
  const { isLoading, stop, controller } = chat;
  return (
    <>
      <MessageList chat={chat} onSend={onSend} {...rest} />
      <Composer inputRef={inputRef} isLoading={isLoading} drafts={controller.drafts} onSend={onSendDraft} onStop={() => void stop()} />
    </>
  );
}
