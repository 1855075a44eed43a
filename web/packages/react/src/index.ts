// pagechat's reusable chat UI. Nothing here imports an app built on it.
export { ChatTray, type ChatTrayProps } from "./ChatTray";
export { Button, type ButtonProps, type ButtonSize, type ButtonVariant } from "./components/Button";
export { Hints, type HintsProps } from "./components/Hints";
export { Markdown, type MarkdownProps } from "./components/Markdown";
export { useSendMessage } from "./components/SendContext";
export { OPEN_SHORTCUT } from "./useOpenShortcut";
export { useChat, type UseChat, type UseChatOptions } from "./useChat";
export { ChatController, frameScheduler, type ChatControllerOptions, type Scheduler } from "./chat";
export {
  createChatApi,
  HttpError,
  StreamDroppedError,
  UnauthorizedError,
  type ChatApi,
  type ChatApiOptions,
  type StreamItem,
  type TokenGetter,
} from "./api";
export { chatReducer, initialChatState, type ChatAction, type ChatState } from "./state";
export {
  awaitsDecision,
  registerPayloadHandler,
  resolvePayloadHandler,
  type PagePayloadHandler,
  type PayloadPageActions,
  type PayloadCallbacks,
  type PayloadConversation,
  type PayloadHandler,
  type PayloadHandlers,
  type PayloadRenderOptions,
} from "./payloadRegistry";
export { SchemaCard, type SchemaCardProps } from "./components/SchemaCard";
export { schemaCardModel, type CardModel, type CardValue, type CardField, type CardColumn, type CardOptions } from "./schemaCard";
export { resolveCardHandler, schemaPayloadHandler } from "./schemaPayload";
export type { PayloadTypeCatalog, PayloadTypeInfo } from "./payloadTypes";
export { builtinClientActions, type ClientActionHandler, type ClientActionHelpers, type ClientActions } from "./clientActions";
export { choicesAsText, parseChoices, type Choices } from "./choices";
export { announceChanges, onEntityChanges } from "./changes";
export { splitToolMarkers } from "./markers";
export type * from "./types";
export { csrfToken, CSRF_HEADER, withCsrf } from "./csrf";
