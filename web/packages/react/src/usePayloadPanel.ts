// Which card the side panel shows, and what closing it records.
import { useCallback, useMemo, useState } from "react";
import { awaitsDecision, type PayloadCallbacks, type PayloadHandler } from "./payloadRegistry";
import type { CustomPayload, PayloadDecision } from "./types";
import type { UseChat } from "./useChat";

const NO_ACTIONS = {};

export interface OpenPanel {
  messageId: string;
  payload: CustomPayload;
}

export interface PayloadPanelState {
  /** The card shown, with its handler and the callbacks its buttons call; null when closed. */
  open: (OpenPanel & { handler: PayloadHandler; callbacks: PayloadCallbacks }) | null;
  /** Shows another card ("View"). */
  view: (messageId: string, payload: CustomPayload) => void;
  /** Closes the panel, recording `decision` (default: dismissed). */
  close: (decision?: PayloadDecision) => void;
  /** Forgets the card the user opened (a new or another conversation). */
  reset: () => void;
}

/**
 * The latest answer's payload opens the panel by itself only when it is a proposal that waits
 * for a decision (this page can accept it), until the user decides on it (accepts, rejects or
 * closes it); every other card stays in the conversation, where "View" opens it. The decision
 * is stored with the answer, so a reloaded conversation opens the same card, or none.
 */
export function usePayloadPanel(
  chat: UseChat,
  resolveHandler: (type: string) => PayloadHandler | undefined,
  context: Record<string, unknown>,
): PayloadPanelState {
  const { messages, decidePayload, runAction, conversationId } = chat;
  const last = messages.at(-1);
  const [chosen, setChosen] = useState<(OpenPanel & { latestId: string | undefined }) | null>(null);
  const auto = useMemo<OpenPanel | null>(() => {
    if (last?.role !== "assistant" || last.status !== "complete" || last.payload_decision !== null) return null;
    const payload = last.custom_payload;
    if (payload === null) return null;
    const handler = resolveHandler(payload.type);
    return handler !== undefined && awaitsDecision(handler) ? { messageId: last.id, payload } : null;
  }, [last, resolveHandler]);
  const panel = chosen !== null && chosen.latestId === last?.id ? chosen : auto;

  const close = useCallback(
    (decision: PayloadDecision = "dismissed") => {
      setChosen(null);
      if (panel === null) return;
      // A decision is about an answer's primary payload; its other cards only open and close.
      const primary = messages.find((m) => m.id === panel.messageId)?.custom_payload === panel.payload;
      if (primary) void decidePayload(panel.messageId, decision);
      // The latest card, waiting behind the one "View" opened, is closed with it.
      if (auto !== null && !(primary && auto.messageId === panel.messageId)) void decidePayload(auto.messageId, "dismissed");
    },
    [panel, auto, messages, decidePayload],
  );

  const view = useCallback(
    (messageId: string, payload: CustomPayload) => {
      setChosen({ messageId, payload, latestId: last?.id });
    },
    [last],
  );
  const reset = useCallback(() => {
    setChosen(null);
  }, []);

  const handler = panel === null ? undefined : resolveHandler(panel.payload.type);
  const open = useMemo(() => {
    if (panel === null || handler === undefined) return null;
    const messageId = panel.messageId;
    const conversation = {
      conversationId,
      messageId,
      runAction,
      decide: (decision: PayloadDecision) => decidePayload(messageId, decision),
    };
    const callbacks: PayloadCallbacks = {
      onAccept: (data?: unknown) => {
        handler.onAccept?.(data === undefined ? panel.payload.data : data, context, conversation);
        close("accepted");
      },
      onReject: () => {
        handler.onReject?.(panel.payload.data);
        // A card with nothing to accept only informs: its Close or Done is no rejection.
        close(handler.onAccept === undefined ? "dismissed" : "rejected");
      },
      canAccept: awaitsDecision(handler),
      conversation,
      context,
      actions: handler.actions ?? NO_ACTIONS,
    };
    return { ...panel, handler, callbacks };
  }, [panel, handler, context, close, conversationId, runAction, decidePayload]);

  return { open, view, close, reset };
}
