// The chat tray: a launcher, and when open the conversation (or the list of conversations)
// beside the page, with the side panel for the card that waits for a decision. The work is
// in hooks (state, panel, actions) and in one component per part under components/.
import { useCallback, useId, useRef, useState, type KeyboardEvent, type ReactNode } from "react";
import type { ChatApi, TokenGetter } from "./api";
import type { ClientActions } from "./clientActions";
import { AttachmentSourceContext } from "./components/AttachmentSource";
import { ChatView } from "./components/ChatView";
import { ConversationList } from "./components/ConversationList";
import { DropOverlay } from "./components/DropOverlay";
import { Launcher } from "./components/Launcher";
import { PayloadPanel } from "./components/PayloadPanel";
import { ResizeHandle } from "./components/ResizeHandle";
import { TrayHeader } from "./components/TrayHeader";
import type { PayloadHandlers } from "./payloadRegistry";
import { hasCard, resolveCardHandler } from "./schemaPayload";
import { useBoundApi } from "./useBoundApi";
import { useChat } from "./useChat";
import { useFileDrop } from "./useFileDrop";
import { useOpenFocus } from "./useOpenFocus";
import { useOpenShortcut } from "./useOpenShortcut";
import { SendContext } from "./components/SendContext";
import { usePayloadPanel } from "./usePayloadPanel";
import { usePayloadTypes } from "./usePayloadTypes";
import { useRememberedConversation } from "./useRememberedConversation";
import { isBoolean, isNumber, useStoredState } from "./useStoredState";
import { useTrayActions } from "./useTrayActions";
import { MIN_TRAY_WIDTH, useTrayLayout } from "./useTrayLayout";
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
  /** The page's notice about what an assistant action did there (e.g. "Accepted …" with
   * Undo), shown at the top of the tray too, where the user is while the tray covers the page. */
  notice?: ReactNode;
  /** Prefix of the API; "" (default) is the page's own origin. */
  baseUrl?: string;
  /** A ready-made client (tests); otherwise one is made from baseUrl and getToken. */
  api?: ChatApi;
  defaultOpen?: boolean;
  /** Prefix of the localStorage keys for width, open state and current conversation. */
  storageKey?: string;
}

const DEFAULT_WIDTH = 420;

export function ChatTray(props: ChatTrayProps) {
  const { context, payloadHandlers, clientActions, baseUrl = "", storageKey = "pagechat", getToken, onUnauthorized } = props;
  const title = props.title ?? "Assistant";

  const api = useBoundApi(baseUrl, getToken, onUnauthorized, props.api);
  const chat = useChat({ api, context });
  const { send: sendMessage, sendDraft: sendDraftMessage, stop, loadConversation, newConversation, isLoading } = chat;
  useRememberedConversation(storageKey, chat);

  const [open, setOpen] = useStoredState(`${storageKey}.open`, props.defaultOpen ?? false, isBoolean);
  const [width, setWidth] = useStoredState(`${storageKey}.width`, DEFAULT_WIDTH, isNumber);
  const [view, setView] = useState<"chat" | "conversations">("chat");
  const inputRef = useRef<HTMLTextAreaElement>(null);
  const launcherRef = useRef<HTMLButtonElement>(null);
  const trayId = useId();
  useOpenFocus(open, inputRef, launcherRef);
  useOpenShortcut(open, setOpen, inputRef);

  // A registered card, else the schema card from the server's payload types (fetched once).
  const payloadTypes = usePayloadTypes(api, chat.messages.some(hasCard));
  const page = typeof context.current_page === "string" ? context.current_page : null;
  const resolveHandler = useCallback(
    (type: string) => resolveCardHandler(type, payloadHandlers, payloadTypes, page),
    [payloadHandlers, payloadTypes, page],
  );
  const panel = usePayloadPanel(chat, resolveHandler, context);

  const send = useCallback(
    (text: string, sentContext?: Record<string, unknown>) => {
      void sendMessage(text, sentContext);
      inputRef.current?.focus();
    },
    [sendMessage],
  );
  const sendDraft = useCallback(
    (text: string) => {
      void sendDraftMessage(text);
      inputRef.current?.focus();
    },
    [sendDraftMessage],
  );
  // Files dropped anywhere on the tray are attached to the message being written.
  const { drafts } = chat.controller;
  const onDropFiles = useCallback(
    (files: File[]) => {
      drafts.add(files);
      setView("chat");
      inputRef.current?.focus();
    },
    [drafts],
  );
  const drop = useFileDrop(onDropFiles);
  const close = useCallback(() => {
    setOpen(false);
  }, [setOpen]);
  const actions = useTrayActions(chat, clientActions, { close, send, context });

  const { reset: resetPanel } = panel;
  const startNew = useCallback(() => {
    newConversation();
    resetPanel();
    setView("chat");
    inputRef.current?.focus();
  }, [newConversation, resetPanel]);
  const openConversation = useCallback(
    (id: string) => {
      resetPanel();
      setView("chat");
      void loadConversation(id);
    },
    [loadConversation, resetPanel],
  );
  const onDeleted = useCallback(
    (id: string) => {
      if (id !== chat.conversationId) return;
      newConversation();
      resetPanel();
    },
    [chat.conversationId, newConversation, resetPanel],
  );

  // Esc, from anywhere in the tray: stops a running answer, else closes the panel, else the tray.
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key !== "Escape" || event.defaultPrevented) return;
    event.preventDefault();
    if (isLoading) void stop();
    else if (panel.open !== null) panel.close();
    else close();
  };

  const geometry = useTrayLayout(open, width);

  if (!open) {
    return (
      <Launcher
        buttonRef={launcherRef}
        title={title}
        trayId={trayId}
        onOpen={() => {
          setOpen(true);
        }}
      />
    );
  }

  return (
    <SendContext.Provider value={send}>
      <AttachmentSourceContext.Provider value={api}>
      {geometry.layout === "sheet" && <div className="pc-scrim" aria-hidden="true" onClick={close} />}
      <aside
        id={trayId}
        className="pc-tray"
        data-state="open"
        data-layout={geometry.layout}
        aria-label={title}
        style={{ width: geometry.width }}
        onKeyDown={onKeyDown}
        data-dragging={drop.dragging || undefined}
        {...drop.handlers}
      >
        {drop.dragging && <DropOverlay />}
        {geometry.layout === "docked" && (
          <ResizeHandle width={geometry.width} min={MIN_TRAY_WIDTH} max={geometry.maxWidth} onResize={setWidth} />
        )}
        <TrayHeader
          title={title}
          view={view}
          onToggleConversations={() => {
            setView((v) => (v === "chat" ? "conversations" : "chat"));
          }}
          onNew={startNew}
          onClose={close}
        />
        {props.notice && <div className="pc-tray-notice">{props.notice}</div>}
        {view === "conversations" ? (
          <ConversationList api={api} currentId={chat.conversationId} onSelect={openConversation} onNew={startNew} onDeleted={onDeleted} />
        ) : (
          <ChatView
            chat={chat}
            inputRef={inputRef}
            welcome={props.welcome ?? <p>Ask me anything about this page.</p>}
            onSend={send}
            onSendDraft={sendDraft}
            isActionAvailable={actions.isActionAvailable}
            onRunAction={actions.runAction}
            resolveHandler={resolveHandler}
            onViewPayload={panel.view}
          />
        )}
      </aside>
      {panel.open !== null && (
        <PayloadPanel
          payload={panel.open.payload}
          handler={panel.open.handler}
          tray={geometry}
          callbacks={panel.open.callbacks}
          onClose={() => {
            panel.close();
          }}
        />
      )}
      </AttachmentSourceContext.Provider>
    </SendContext.Provider>
  );
}
