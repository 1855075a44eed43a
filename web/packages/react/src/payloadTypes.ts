// The payload types the server declares (GET /api/payload-types): each one's JSON Schema, for
// the schema card, and the server action that accepts it on each page. Fetched once per client
// and kept; a failed fetch is forgotten, so the next tray asks again.

export interface PayloadTypeInfo {
  /** JSON Schema of the payload's data; null: any JSON. */
  schema: Record<string, unknown> | null;
  title: string | null;
  /** The pages that declare it. */
  pages: string[];
  /** Per page, the server action Accept runs there with the payload's data. */
  accept_actions: Record<string, string>;
}

export type PayloadTypeCatalog = Readonly<Record<string, PayloadTypeInfo>>;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function parseInfo(value: unknown): PayloadTypeInfo | null {
  if (!isRecord(value)) return null;
  const actions = isRecord(value.accept_actions) ? value.accept_actions : {};
  return {
    schema: isRecord(value.schema) ? value.schema : null,
    title: typeof value.title === "string" ? value.title : null,
    pages: Array.isArray(value.pages) ? value.pages.filter((p): p is string => typeof p === "string") : [],
    accept_actions: Object.fromEntries(Object.entries(actions).filter((e): e is [string, string] => typeof e[1] === "string")),
  };
}

/** The route's body as a catalog; anything malformed is left out. */
export function parsePayloadTypes(body: unknown): PayloadTypeCatalog {
  const types = isRecord(body) && isRecord(body.payload_types) ? body.payload_types : {};
  const catalog: Record<string, PayloadTypeInfo> = {};
  for (const [type, value] of Object.entries(types)) {
    const info = parseInfo(value);
    if (info !== null) catalog[type] = info;
  }
  return catalog;
}

/** What the loader needs of a client (`ChatApi` has it): this module stays below api.ts. */
export interface PayloadTypesSource {
  payloadTypes(): Promise<PayloadTypeCatalog>;
}

const loaded = new WeakMap<PayloadTypesSource, Promise<PayloadTypeCatalog>>();

/** The server's payload types, asked once per client (an empty catalog when it cannot answer). */
export function loadPayloadTypes(api: PayloadTypesSource): Promise<PayloadTypeCatalog> {
  const known = loaded.get(api);
  if (known !== undefined) return known;
  const asked = api.payloadTypes().catch(() => {
    loaded.delete(api);
    return {};
  });
  loaded.set(api, asked);
  return asked;
}
