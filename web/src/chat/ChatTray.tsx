import { useCallback, useEffect, useId, useMemo, useRef, useState, type KeyboardEvent, type ReactNode } from "react";
import { createChatApi, type ChatApi, type TokenGetter } from "./api";
import { resolveClientAction, type ClientActions } from "./clientActions";
import { Composer } from "./components/Composer";
import { ConversationList } from "./components/ConversationList";
import { MessageList } from "./components/MessageList";
import { PayloadPanel } from "./components/PayloadPanel";
import { ResizeHandle } from "./components/ResizeHandle";
import { TrayHeader } from "./components/TrayHeader";
import { resolvePayloadHandler, type PayloadCallbacks, type PayloadHandlers } from "./payloadRegistry";
import type { CustomPayload, PayloadDecision, SuggestedAction } from "./types";
import { useChat } from "./useChat";
import { isBoolean, isNumber, isStringOrNull, useStoredState } from "./useStoredState";
import "./chat.css";

export interface ChatTrayProps {
  /** The page's state, sent with every message; `current_page` picks the backend page config. */
  context: Record<string, unknown>;
  /** The bearer token for every request. */
  getToken: TokenGetter;
  /** Called on a 401: the host logs the user out. */
  onUnauthorized?: () => void;
  /** This page's payload handlers, looked up before the global registry. */
  payloadHandlers?: PayloadHandlers;
  /** This page's client actions (`close_chat` is built in). */
  clientActions?: ClientActions;
  title?: string;
  welcome?: ReactNode;
  /** Prefix of the API; "" (default) is the page's own origin. */
  baseUrl?: string;
  /** A ready-made client (tests); otherwise one is made from baseUrl and getToken. */
  api?: ChatApi;
  defaultOpen?: boolean;
  /** Prefix of the localStorage keys for width, open state and current conversation. */
  storageKey?: string;
}

const MIN_WIDTH = 320;
const DEFAULT_WIDTH = 420;

interface OpenPanel {
  messageId: string;
  payload: CustomPayload;
}

/** An API client bound to the host's latest token getter and 401 callback. */
function boundApi(baseUrl: string, getToken: TokenGetter, onUnauthorized?: () => void) {
  let auth = { getToken, onUnauthorized };
  const api = createChatApi({
    baseUrl,
    getToken: () => auth.getToken(),
    onUnauthorized: () => auth.onUnauthorized?.(),
  });
  return {
    api,
    bind(next: TokenGetter, nextOnUnauthorized?: () => void) {
      auth = { getToken: next, onUnauthorized: nextOnUnauthorized };
    },
  };
}

export function ChatTray(props: ChatTrayProps) {
  const { context, payloadHandlers, clientActions, baseUrl = "", storageKey = "pagechat", getToken, onUnauthorized } = props;
  const title = props.title ?? "Assistant";

  const [bound] = useState(() => boundApi(baseUrl, getToken, onUnauthorized));
  useEffect(() => {
    bound.bind(getToken, onUnauthorized);
  }, [bound, getToken, onUnauthorized]);
  const api = props.api ?? bound.api;
  const chat = useChat({ api, context });
  const { send: sendMessage, stop, loadConversation, newConversation, runServerAction, runAction: runPageAction, decidePayload, isLoading } =
    chat;

  const [open, setOpen] = useStoredState(`${storageKey}.open`, props.defaultOpen ?? false, isBoolean);
  const [width, setWidth] = useStoredState(`${storageKey}.width`, DEFAULT_WIDTH, isNumber);
  const [savedConversation, saveConversation] = useStoredState<string | null>(
    `${storageKey}.conversation`,
    null,
    isStringOrNull,
  );
  const [view, setView] = useState<"chat" | "conversations">("chat");
  const inputRef = useRef<HTMLTextAreaElement>(null);
  const launcherRef = useRef<HTMLButtonElement>(null);
  const trayId = useId();

  // After a reload, show the conversation that was open (once per mount).
  const [initialConversation] = useState(savedConversation);
  useEffect(() => {
    if (initialConversation !== null) void loadConversation(initialConversation, { quiet: true });
  }, [initialConversation, loadConversation]);

  const previousConversation = useRef(chat.conversationId);
  useEffect(() => {
    if (chat.conversationId === previousConversation.current) return;
    previousConversation.current = chat.conversationId;
    saveConversation(chat.conversationId);
  }, [chat.conversationId, saveConversation]);

  const wasOpen = useRef(open);
  useEffect(() => {
    if (open) inputRef.current?.focus();
    else if (wasOpen.current) launcherRef.current?.focus();
    wasOpen.current = open;
  }, [open]);

  const resolveHandler = useCallback((type: string) => resolvePayloadHandler(type, payloadHandlers), [payloadHandlers]);

  // The latest answer's payload opens the panel by itself until the user decides on it
  // (accepts, rejects or closes it); "View" opens any other. The decision is stored with the
  // answer, so a reloaded conversation opens the same card, or none, as the live one would.
  const last = chat.messages.at(-1);
  const [chosen, setChosen] = useState<(OpenPanel & { latestId: string | undefined }) | null>(null);
  const auto = useMemo<OpenPanel | null>(() => {
    if (last?.role !== "assistant" || last.status !== "complete" || last.payload_decision !== null) return null;
    const payload = last.custom_payload;
    return payload !== null && resolveHandler(payload.type) !== undefined ? { messageId: last.id, payload } : null;
  }, [last, resolveHandler]);
  const panel = chosen !== null && chosen.latestId === last?.id ? chosen : auto;
  const { messages } = chat;
  const closePanel = useCallback(
    (decision: PayloadDecision = "dismissed") => {
      setChosen(null);
      if (panel === null) return;
      // A decision is about an answer's primary payload; its other cards only open and close.
      const primary = messages.find((m) => m.id === panel.messageId)?.custom_payload === panel.payload;
      if (primary) void decidePayload(panel.messageId, decision);
      // The latest card, waiting behind the one "View" opened, is closed with it.
      if (auto !== null && !(primary && auto.messageId === panel.messageId)) void decidePayload(auto.messageId, "dismissed");
    },
    [panel, auto, messages, decidePayload, setChosen],
  );

  const send = useCallback(
    (text: string) => {
      void sendMessage(text);
      inputRef.current?.focus();
    },
    [sendMessage],
  );

  const close = useCallback(() => {
    setOpen(false);
  }, [setOpen]);

  const isActionAvailable = useCallback(
    (action: SuggestedAction) =>
      action.handler === "server" || resolveClientAction(action.action, clientActions) !== undefined,
    [clientActions],
  );

  const runAction = useCallback(
    async (action: SuggestedAction) => {
      if (action.handler === "server") {
        await runServerAction(action);
        return;
      }
      const handler = resolveClientAction(action.action, clientActions);
      await handler?.(action.data, { close, send, context });
    },
    [clientActions, close, send, runServerAction, context],
  );

  const onViewPayload = useCallback(
    (messageId: string, payload: CustomPayload) => {
      setChosen({ messageId, payload, latestId: last?.id });
    },
    [last, setChosen],
  );

  const startNew = useCallback(() => {
    newConversation();
    setChosen(null);
    setView("chat");
    inputRef.current?.focus();
  }, [newConversation, setChosen, setView]);

  const openConversation = useCallback(
    (id: string) => {
      setChosen(null);
      setView("chat");
      void loadConversation(id);
    },
    [loadConversation, setChosen, setView],
  );

  const onDeleted = useCallback(
    (id: string) => {
      if (id === chat.conversationId) {
        newConversation();
        setChosen(null);
      }
    },
    [chat.conversationId, newConversation, setChosen],
  );

  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key !== "Escape") return;
    if (isLoading) {
      event.preventDefault();
      void stop();
    } else if (panel !== null) {
      event.preventDefault();
      closePanel();
    }
  };

  const panelHandler = panel === null ? undefined : resolveHandler(panel.payload.type);
  const conversationId = chat.conversationId;
  const panelCallbacks = useMemo<PayloadCallbacks | null>(() => {
    if (panel === null || panelHandler === undefined) return null;
    const conversation = {
      conversationId,
      messageId: panel.messageId,
      runAction: runPageAction,
    };
    return {
      onAccept: (data?: unknown) => {
        panelHandler.onAccept?.(data === undefined ? panel.payload.data : data, context, conversation);
        closePanel("accepted");
      },
      onReject: () => {
        panelHandler.onReject?.(panel.payload.data);
        // A card with nothing to accept only informs: its Close or Done is no rejection.
        closePanel(panelHandler.onAccept === undefined ? "dismissed" : "rejected");
      },
      conversation,
    };
  }, [panel, panelHandler, context, closePanel, conversationId, runPageAction]);

  const maxWidth = Math.max(MIN_WIDTH, Math.min(960, (typeof window === "undefined" ? 1280 : window.innerWidth) - 40));
  const trayWidth = Math.min(maxWidth, Math.max(MIN_WIDTH, width));

  if (!open) {
    return (
      <button
        ref={launcherRef}
        type="button"
        className="pc-launcher"
        aria-expanded={false}
        aria-controls={trayId}
        onClick={() => {
          setOpen(true);
        }}
      >
        💬 {title}
      </button>
    );
  }

  return (
    <>
      <aside id={trayId} className="pc-tray" data-state="open" aria-label={title} style={{ width: trayWidth }} onKeyDown={onKeyDown}>
        <ResizeHandle width={trayWidth} min={MIN_WIDTH} max={maxWidth} onResize={setWidth} />
        <TrayHeader
          title={title}
          view={view}
          onToggleConversations={() => {
            setView((v) => (v === "chat" ? "conversations" : "chat"));
          }}
          onNew={startNew}
          onClose={close}
        />
        {view === "conversations" ? (
          <ConversationList
            api={api}
            currentId={chat.conversationId}
            onSelect={openConversation}
            onNew={startNew}
            onDeleted={onDeleted}
          />
        ) : (
          <>
            <MessageList
              chat={chat}
              welcome={props.welcome ?? <p>Ask me anything about this page.</p>}
              onSend={send}
              isActionAvailable={isActionAvailable}
              onRunAction={runAction}
              resolveHandler={resolveHandler}
              onViewPayload={onViewPayload}
            />
            <Composer inputRef={inputRef} isLoading={isLoading} onSend={send} onStop={() => void stop()} />
          </>
        )}
      </aside>
      {panel !== null && panelHandler !== undefined && panelCallbacks !== null && (
        <PayloadPanel
          payload={panel.payload}
          handler={panelHandler}
          right={trayWidth}
          callbacks={panelCallbacks}
          onClose={() => {
            closePanel();
          }}
        />
      )}
    </>
  );
}
