// What the schema card shows for a payload no card of the app's own renders: its data read
// through its JSON Schema (GET /api/payload-types) as labelled fields, lists, tables, nested
// sections and links. Pure: no React, no DOM; the text is plain (never HTML).

export type CardValue =
  | { kind: "text"; text: string; empty?: boolean }
  | { kind: "link"; href: string; text: string }
  | { kind: "list"; items: CardValue[] }
  | { kind: "table"; columns: CardColumn[]; rows: CardValue[][] }
  | { kind: "section"; fields: CardField[] };

export interface CardColumn {
  key: string;
  label: string;
}

export interface CardField {
  key: string;
  label: string;
  value: CardValue;
}

export interface CardModel {
  title: string;
  body: CardValue;
}

export interface CardOptions {
  /** For Intl's number and date formats; default: the browser's. */
  locale?: string | string[];
  /** Time zone of date-times; default: the browser's. */
  timeZone?: string;
}

type Schema = Record<string, unknown>;

const MAX_DEPTH = 8;
const MAX_REFS = 32;
const EMPTY: CardValue = { kind: "text", text: "—", empty: true };

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** "shopping_list" → "Shopping list", "createdAt" → "Created at" (an all-caps word stays). */
export function humanise(name: string): string {
  const words = name
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .split(/[\s_\-.]+/)
    .filter(Boolean)
    .map((word) => (word.length > 1 && word === word.toUpperCase() ? word : word.toLowerCase()));
  const text = words.join(" ");
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** The URL when `text` is an absolute http(s) URL; anything else is no link. */
export function httpUrl(text: string): string | null {
  if (!/^https?:\/\//i.test(text.trim())) return null;
  try {
    const url = new URL(text.trim());
    return url.protocol === "http:" || url.protocol === "https:" ? url.href : null;
  } catch {
    return null;
  }
}

function pointer(root: Schema, ref: string): unknown {
  if (!ref.startsWith("#")) return undefined;
  let node: unknown = root;
  for (const raw of ref.slice(1).split("/").filter(Boolean)) {
    const part = decodeURIComponent(raw).replaceAll("~1", "/").replaceAll("~0", "~");
    node = isRecord(node) ? node[part] : undefined;
  }
  return node;
}

function jsonType(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  if (typeof value === "number") return Number.isInteger(value) ? "integer" : "number";
  return typeof value;
}

/** Whether `schema` (resolved) could describe `value`, by its type keywords alone. */
function fits(schema: Schema, value: unknown): boolean {
  const declared = schema.type;
  const types = typeof declared === "string" ? [declared] : Array.isArray(declared) ? declared : null;
  const actual = jsonType(value);
  if (types !== null) return types.includes(actual) || (actual === "integer" && types.includes("number"));
  if (isRecord(schema.properties)) return actual === "object";
  if (schema.items !== undefined) return actual === "array";
  return true;
}

/**
 * `schema` with `$ref` followed (into the root's `$defs`), `allOf` merged and the branch of an
 * `anyOf`/`oneOf` that fits `value` chosen; the keywords beside them (a field's title) win.
 */
export function resolveSchema(schema: unknown, root: Schema, value: unknown, hops = 0): Schema {
  if (!isRecord(schema) || hops > MAX_REFS) return {};
  const { $ref, allOf, anyOf, oneOf, ...own } = schema;
  let base: Schema = {};
  if (typeof $ref === "string") base = resolveSchema(pointer(root, $ref), root, value, hops + 1);
  if (Array.isArray(allOf)) {
    for (const part of allOf) {
      const resolved = resolveSchema(part, root, value, hops + 1);
      base = {
        ...base,
        ...resolved,
        properties: { ...(isRecord(base.properties) ? base.properties : {}), ...(isRecord(resolved.properties) ? resolved.properties : {}) },
      };
    }
  }
  const branches = Array.isArray(anyOf) ? anyOf : Array.isArray(oneOf) ? oneOf : null;
  if (branches !== null) {
    const resolved = branches.map((branch) => resolveSchema(branch, root, value, hops + 1));
    base = { ...base, ...(resolved.find((branch) => fits(branch, value)) ?? {}) };
  }
  return { ...base, ...own };
}

interface Reader {
  root: Schema;
  options: CardOptions;
}

function formatNumber(value: number, options: CardOptions): string {
  return new Intl.NumberFormat(options.locale).format(value);
}

function formatDate(text: string, format: string, options: CardOptions): string | null {
  if (format === "date") {
    const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
    if (match === null) return null;
    const date = new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])));
    return Number.isNaN(date.getTime()) ? null : new Intl.DateTimeFormat(options.locale, { dateStyle: "medium", timeZone: "UTC" }).format(date);
  }
  const time = Date.parse(text);
  if (Number.isNaN(time)) return null;
  return new Intl.DateTimeFormat(options.locale, { dateStyle: "medium", timeStyle: "short", timeZone: options.timeZone }).format(time);
}

function stringValue(text: string, schema: Schema, options: CardOptions): CardValue {
  const format = typeof schema.format === "string" ? schema.format : "";
  if (format === "date" || format === "date-time") {
    const formatted = formatDate(text, format, options);
    if (formatted !== null) return { kind: "text", text: formatted };
  }
  const href = httpUrl(text);
  if (href !== null) return { kind: "link", href, text };
  return { kind: "text", text };
}

function label(key: string, raw: unknown): string {
  return isRecord(raw) && typeof raw.title === "string" && raw.title ? raw.title : humanise(key);
}

function properties(schema: Schema): Schema {
  return isRecord(schema.properties) ? schema.properties : {};
}

/** The object's keys: the schema's properties in their order, then any others in the data's. */
function keysOf(schema: Schema, present: (key: string) => boolean, extra: Iterable<string>): string[] {
  const declared = Object.keys(properties(schema)).filter(present);
  const seen = new Set(declared);
  const keys = [...declared];
  for (const key of extra) {
    if (!seen.has(key)) {
      seen.add(key);
      keys.push(key);
    }
  }
  return keys;
}

function objectValue(data: Record<string, unknown>, schema: Schema, reader: Reader, depth: number): CardValue {
  const props = properties(schema);
  const keys = keysOf(schema, (key) => data[key] !== undefined, Object.keys(data).filter((key) => data[key] !== undefined));
  return {
    kind: "section",
    fields: keys.map((key) => ({ key, label: label(key, props[key]), value: read(props[key], data[key], reader, depth + 1) })),
  };
}

function arrayValue(items: unknown[], schema: Schema, reader: Reader, depth: number): CardValue {
  if (items.length === 0) return { kind: "text", text: "None", empty: true };
  if (items.every(isRecord)) {
    const rows = items;
    const itemSchema = resolveSchema(schema.items, reader.root, rows[0]);
    const props = properties(itemSchema);
    const keys = keysOf(
      itemSchema,
      (key) => rows.some((row) => row[key] !== undefined),
      rows.flatMap((row) => Object.keys(row).filter((key) => row[key] !== undefined)),
    );
    return {
      kind: "table",
      columns: keys.map((key) => ({ key, label: label(key, props[key]) })),
      rows: rows.map((row) => keys.map((key) => (row[key] === undefined ? EMPTY : read(props[key], row[key], reader, depth + 2)))),
    };
  }
  return { kind: "list", items: items.map((item) => read(schema.items, item, reader, depth + 1)) };
}

function read(rawSchema: unknown, data: unknown, reader: Reader, depth: number): CardValue {
  if (data === null || data === undefined) return EMPTY;
  if (depth > MAX_DEPTH) return { kind: "text", text: JSON.stringify(data).slice(0, 200) };
  const schema = resolveSchema(rawSchema, reader.root, data);
  if (typeof data === "boolean") return { kind: "text", text: data ? "Yes" : "No" };
  if (typeof data === "number") return { kind: "text", text: formatNumber(data, reader.options) };
  if (typeof data === "string") return stringValue(data, schema, reader.options);
  if (Array.isArray(data)) return arrayValue(data, schema, reader, depth);
  if (isRecord(data)) return objectValue(data, schema, reader, depth);
  return { kind: "text", text: typeof data === "bigint" ? data.toString() : "" };
}

/**
 * The card of a payload of `type` with `data`, read through `schema` (null or not a schema:
 * the data alone, as labelled keys and values). The title is the schema's, else the type's.
 */
export function schemaCardModel(type: string, schema: unknown, data: unknown, options: CardOptions = {}): CardModel {
  const root = isRecord(schema) ? schema : {};
  const title = typeof root.title === "string" && root.title.trim() ? root.title : humanise(type);
  return { title, body: read(root, data, { root, options }, 0) };
}
