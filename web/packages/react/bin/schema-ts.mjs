// JSON Schema -> TypeScript declarations, shared by the type generators: pagechat-payload-types
// (shipped with @pagechat/react) and web/scripts' gen-types.mjs (the wire contract) and
// gen-horizon-types.mjs (Horizon's API).
//
//   const ts = schemaToTs({ refPrefix: "#/$defs/" });
//   ts.declaration("Topic", schema)      // `export interface Topic {...}` or `export type ...`
//   ts.typeOf(schema, "")                // an inline type expression
//
// Options:
//   refPrefix        the prefix of every `$ref` (`#/$defs/`, `#/components/schemas/`)
//   allRequired      (name) => boolean: every property of the named schema, and of the
//                    objects written inline in it, is always present (a server's answers
//                    hold every field, defaults included)

const IDENT = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

export function doc(text, indent) {
  if (!text) return "";
  const lines = String(text).trim().split("\n");
  if (lines.length === 1) return `${indent}/** ${lines[0].replaceAll("*/", "* /")} */\n`;
  return `${indent}/**\n${lines.map((l) => `${indent} * ${l.replaceAll("*/", "* /")}`.trimEnd()).join("\n")}\n${indent} */\n`;
}

function union(parts) {
  const unique = [...new Set(parts)];
  return unique.length === 0 ? "never" : unique.join(" | ");
}

export function schemaToTs({ refPrefix, allRequired = () => false }) {
  function refName(ref) {
    if (!ref.startsWith(refPrefix)) throw new Error(`unsupported $ref ${ref}`);
    return ref.slice(refPrefix.length);
  }

  function typeOf(s, indent, all = false) {
    if (s === true || s === undefined || (typeof s === "object" && Object.keys(s).length === 0)) return "unknown";
    if (s === false) return "never";
    if (s.$ref) return refName(s.$ref);
    if ("const" in s) return JSON.stringify(s.const);
    if (s.enum) return union(s.enum.map((v) => JSON.stringify(v)));
    const alts = s.oneOf ?? s.anyOf;
    if (alts) return union(alts.map((a) => typeOf(a, indent, all)));
    if (Array.isArray(s.type)) return union(s.type.map((t) => typeOf({ ...s, type: t }, indent, all)));
    switch (s.type) {
      case "string":
        return "string";
      case "integer":
      case "number":
        return "number";
      case "boolean":
        return "boolean";
      case "null":
        return "null";
      case "array": {
        if (Array.isArray(s.prefixItems)) return `[${s.prefixItems.map((p) => typeOf(p, indent, all)).join(", ")}]`;
        const item = typeOf(s.items, indent, all);
        return /[|&]/.test(item) ? `(${item})[]` : `${item}[]`;
      }
      case "object":
        return objectBody(s, indent, all);
      default:
        return "unknown";
    }
  }

  function objectBody(s, indent, all = false) {
    const props = s.properties ?? {};
    const required = new Set(s.required ?? []);
    const inner = `${indent}  `;
    const lines = [];
    for (const [name, prop] of Object.entries(props)) {
      const key = IDENT.test(name) ? name : JSON.stringify(name);
      const present = all || required.has(name);
      lines.push(`${doc(prop.description, inner)}${inner}${key}${present ? "" : "?"}: ${typeOf(prop, inner, all)};`);
    }
    const extra = s.additionalProperties;
    if (extra !== undefined && extra !== false) {
      const valueType = extra === true ? "unknown" : typeOf(extra, inner, all);
      lines.push(`${inner}[key: string]: ${Object.keys(props).length ? "unknown" : valueType};`);
    }
    if (lines.length === 0) return "Record<string, never>";
    return `{\n${lines.join("\n")}\n${indent}}`;
  }

  /** `export interface Name {...}` for an object with properties, else `export type Name = ...`. */
  function declaration(name, def) {
    const comment = doc(def.description, "");
    const all = allRequired(name);
    if (def.type === "object" && def.properties) {
      return `${comment}export interface ${name} ${objectBody(def, "", all)}\n`;
    }
    const body = typeOf(def, "", all);
    const alts = def.oneOf ?? def.anyOf;
    const pretty = alts && alts.length > 3 ? `\n  | ${body.split(" | ").join("\n  | ")}` : ` ${body}`;
    return `${comment}export type ${name} =${pretty};\n`;
  }

  return { typeOf, objectBody, declaration, refName };
}
