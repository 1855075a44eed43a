// JSON Schema -> TypeScript type guards, one per named schema:
//
//   const g = schemaGuards({ refPrefix: "#/$defs/" });
//   g.guard("Recipe", schema)   // `export function isRecipe(data: unknown): data is Recipe {...}`
//   g.helpers()                 // the small functions the guards written so far call
//
// A guard checks the shape a card reads: objects (not arrays, not null) with their required
// fields, each field's kind, arrays and their items, nested and referenced objects (by
// calling their own guard, so recursive models work), enums and literals, nullable fields.
// Bounds, patterns and formats are left to the server, which validated the same schema.

const IDENT = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

// Named so that no guard (`is` + a model's name) can clash with them.
const HELPERS = {
  plainObject: `function plainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
`,
  arrayOf: `function arrayOf(value: unknown, item: (item: unknown) => boolean): boolean {
  return Array.isArray(value) && value.every((x: unknown) => item(x));
}
`,
  tupleOf: `function tupleOf(value: unknown, items: readonly ((item: unknown) => boolean)[]): boolean {
  return Array.isArray(value) && value.length === items.length && items.every((item, i) => item(value[i]));
}
`,
  recordOf: `function recordOf(value: unknown, item: (item: unknown) => boolean): boolean {
  return plainObject(value) && Object.values(value).every((x) => item(x));
}
`,
  oneOf: `function oneOf(value: unknown, values: readonly unknown[]): boolean {
  return values.includes(value);
}
`,
};

const PRIMITIVE = {
  string: (v) => `typeof ${v} === "string"`,
  number: (v) => `typeof ${v} === "number"`,
  integer: (v) => `Number.isInteger(${v})`,
  boolean: (v) => `typeof ${v} === "boolean"`,
  null: (v) => `${v} === null`,
};

const BLANK = / === (undefined|null)$/;

// The expressions anyOf wrote: `(a || b)`, which another `||` may take apart.
const alternatives = new Map();

function anyOf(tests) {
  if (tests.some((t) => t === null)) return null; // one alternative accepts anything
  const flat = [...new Set(tests.flatMap((t) => alternatives.get(t) ?? [t]))];
  // `x === undefined` and `x === null` first: the cheap, common answers of optional fields.
  const unique = [...flat.filter((t) => BLANK.test(t)), ...flat.filter((t) => !BLANK.test(t))];
  if (unique.length === 1) return unique[0];
  const text = `(${unique.join(" || ")})`;
  alternatives.set(text, unique);
  return text;
}

function allOf(tests) {
  const known = tests.filter((t) => t !== null);
  if (known.length === 0) return null;
  return known.length === 1 ? known[0] : `(${known.join(" && ")})`;
}

export function schemaGuards({ refPrefix }) {
  const used = new Set();
  const helper = (name) => {
    used.add(name);
    return name;
  };

  function refName(ref) {
    if (!ref.startsWith(refPrefix)) throw new Error(`unsupported $ref ${ref}`);
    return ref.slice(refPrefix.length);
  }

  /** A callable check of one item: a guard's name, or an arrow function. */
  function itemCheck(s, depth) {
    if (s && typeof s === "object" && s.$ref && Object.keys(s).length === 1) return `is${refName(s.$ref)}`;
    const name = depth === 0 ? "item" : `item${String(depth)}`;
    const t = test(s, name, depth + 1);
    return t === null ? null : `(${name}) => ${t}`;
  }

  /** The conditions an object schema puts on `v`, each its own expression. */
  function objectChecks(s, v, depth) {
    const checks = [`${helper("plainObject")}(${v})`];
    const required = new Set(s.required ?? []);
    for (const [field, prop] of Object.entries(s.properties ?? {})) {
      const read = IDENT.test(field) ? `${v}.${field}` : `${v}[${JSON.stringify(field)}]`;
      const t = test(prop, read, depth);
      // A value that passes any check other than `unknown`'s is never undefined, so it is present.
      if (required.has(field)) checks.push(t ?? `${JSON.stringify(field)} in ${v}`);
      else if (t !== null) checks.push(anyOf([`${read} === undefined`, t]));
    }
    const extra = s.additionalProperties;
    if (!s.properties && extra && typeof extra === "object") {
      const item = itemCheck(extra, depth);
      if (item !== null) checks[0] = `${helper("recordOf")}(${v}, ${item})`;
    }
    return checks;
  }

  /** A boolean expression that `v` matches `s`, safe inside `&&` and `||`; null: anything does. */
  function test(s, v, depth) {
    if (s === undefined || s === true) return null;
    if (s === false) return "false";
    const parts = [];
    if (s.$ref) parts.push(`is${refName(s.$ref)}(${v})`);
    if ("const" in s) parts.push(`${v} === ${JSON.stringify(s.const)}`);
    else if (Array.isArray(s.enum)) {
      parts.push(s.enum.length === 1 ? `${v} === ${JSON.stringify(s.enum[0])}` : `${helper("oneOf")}(${v}, [${s.enum.map((e) => JSON.stringify(e)).join(", ")}])`);
    } else if (s.type !== undefined) parts.push(typeTest(s, v, depth));
    const alts = s.anyOf ?? s.oneOf;
    if (alts) parts.push(anyOf(alts.map((a) => test(a, v, depth))));
    if (s.allOf) parts.push(...s.allOf.map((a) => test(a, v, depth)));
    return allOf(parts);
  }

  function typeTest(s, v, depth) {
    if (Array.isArray(s.type)) return anyOf(s.type.map((type) => typeTest({ ...s, type }, v, depth)));
    if (PRIMITIVE[s.type]) return PRIMITIVE[s.type](v);
    if (s.type === "array") {
      if (Array.isArray(s.prefixItems) && !s.items) {
        const items = s.prefixItems.map((p) => itemCheck(p, depth) ?? "() => true");
        return `${helper("tupleOf")}(${v}, [${items.join(", ")}])`;
      }
      const item = itemCheck(s.items, depth);
      return item === null ? `Array.isArray(${v})` : `${helper("arrayOf")}(${v}, ${item})`;
    }
    if (s.type === "object") return allOf(objectChecks(s, v, depth));
    return null;
  }

  /** `export function is<Name>(data: unknown): data is <Name>`: the check of `def`. */
  function guard(name, def) {
    const checks = def.type === "object" ? objectChecks(def, "data", 0) : [test(def, "data", 0)].filter((t) => t !== null);
    const param = checks.length ? "data" : "_data";
    const body = checks.length === 0 ? "true" : checks.length === 1 ? checks[0] : `(\n    ${checks.join(" &&\n    ")}\n  )`;
    return `export function is${name}(${param}: unknown): ${param} is ${name} {\n  return ${body};\n}\n`;
  }

  function helpers() {
    return Object.entries(HELPERS)
      .filter(([name]) => used.has(name) || (name === "plainObject" && used.has("recordOf")))
      .map(([, text]) => text)
      .join("\n");
  }

  return { guard, helpers, test };
}
