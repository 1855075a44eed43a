// The schema card as a payload handler: what renders a payload type no card was registered
// for, from the schema the server declares for it, and what accepts it on a page that names
// an accept action for it (run like a chat button's server action, in the card's conversation).
import { ACTION_RESULT } from "./controller/actions";
import { SchemaCard } from "./components/SchemaCard";
import { PAYLOAD_ERROR } from "./components/PayloadErrorCard";
import { resolvePayloadHandler, type PayloadHandler, type PayloadHandlers } from "./payloadRegistry";
import type { PayloadTypeCatalog, PayloadTypeInfo } from "./payloadTypes";
import { humanise } from "./schemaCard";
import type { ChatMessage } from "./types";

/** Payload types of the tray's own that never get a card: what tools did, errors, action results. */
export const NO_CARD_TYPES: ReadonlySet<string> = new Set(["tool_history", PAYLOAD_ERROR, ACTION_RESULT]);

/** The message carries a payload that a card shows. */
export function hasCard(message: ChatMessage): boolean {
  const { custom_payload: primary, payloads } = message;
  return (primary !== null && !NO_CARD_TYPES.has(primary.type)) || payloads.some((p) => !NO_CARD_TYPES.has(p.type));
}

function asActionData(data: unknown): Record<string, unknown> {
  return typeof data === "object" && data !== null && !Array.isArray(data) ? (data as Record<string, unknown>) : { value: data };
}

/** The schema card for `type` (`info` from the server, if it knows the type) on `page`. */
export function schemaPayloadHandler(type: string, info: PayloadTypeInfo | undefined, page: string | null): PayloadHandler {
  const schema = info?.schema ?? null;
  const acceptAction = page === null ? undefined : info?.accept_actions[page];
  const handler: PayloadHandler = {
    render: (data, callbacks) => (
      <SchemaCard
        type={type}
        schema={schema}
        data={data}
        canAccept={callbacks.canAccept}
        onAccept={() => {
          callbacks.onAccept();
        }}
        onReject={callbacks.onReject}
      />
    ),
    renderOptions: { headerTitle: info?.title ?? (typeof schema?.title === "string" ? schema.title : humanise(type)), panelWidth: "480px" },
  };
  if (acceptAction !== undefined) {
    handler.onAccept = (data, _context, conversation) => {
      void conversation.runAction(acceptAction, asActionData(data));
    };
  }
  return handler;
}

// One handler per type, catalog and page, so a card's handler is stable between renders.
const handlers = new WeakMap<object, Map<string, PayloadHandler>>();
const NO_CATALOG = {};

function fallbackFor(type: string, catalog: PayloadTypeCatalog | null, page: string | null): PayloadHandler {
  const byCatalog = handlers.get(catalog ?? NO_CATALOG) ?? new Map<string, PayloadHandler>();
  handlers.set(catalog ?? NO_CATALOG, byCatalog);
  const key = `${page ?? ""}\u0000${type}`;
  let handler = byCatalog.get(key);
  if (handler === undefined) {
    handler = schemaPayloadHandler(type, catalog?.[type], page);
    byCatalog.set(key, handler);
  }
  return handler;
}

/**
 * The handler of a payload of `type` on `page`: a registered card (global, else the page's)
 * with the page's actions, else the schema card; the page's or the card's `onAccept`, else
 * the server's accept action for the page. Undefined for the types that never get a card.
 */
export function resolveCardHandler(
  type: string,
  pageHandlers: PayloadHandlers | undefined,
  catalog: PayloadTypeCatalog | null,
  page: string | null,
): PayloadHandler | undefined {
  if (NO_CARD_TYPES.has(type)) return resolvePayloadHandler(type, pageHandlers);
  return resolvePayloadHandler(type, pageHandlers, fallbackFor(type, catalog, page));
}
