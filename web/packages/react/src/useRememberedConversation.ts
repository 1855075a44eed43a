// The conversation that was open is reopened after a reload (once per mount).
import { useEffect, useRef, useState } from "react";
import type { UseChat } from "./useChat";
import { isStringOrNull, useStoredState } from "./useStoredState";

export function useRememberedConversation(storageKey: string, chat: UseChat): void {
  const { conversationId, loadConversation } = chat;
  const [saved, save] = useStoredState<string | null>(`${storageKey}.conversation`, null, isStringOrNull);
  const [initial] = useState(saved);
  useEffect(() => {
    if (initial !== null) void loadConversation(initial, { quiet: true });
  }, [initial, loadConversation]);

  const previous = useRef(conversationId);
  useEffect(() => {
    if (conversationId === previous.current) return;
    previous.current = conversationId;
    save(conversationId);
  }, [conversationId, save]);
}
