import ts from "typescript";
import { describe, expect, it } from "vitest";
import { findPython, payloadTypesFile, type JsonSchema } from "./payload-types.mjs";

// A recipe as pydantic writes it (mode="serialization"), with an inline object (`meta`) added.
const RECIPE: JsonSchema = {
  $defs: {
    Ingredient: {
      properties: { name: { type: "string" }, grams: { type: "number" } },
      required: ["name", "grams"],
      type: "object",
    },
    Source: {
      properties: { url: { type: "string" }, year: { anyOf: [{ type: "integer" }, { type: "null" }], default: null } },
      required: ["url"],
      type: "object",
    },
    Step: {
      properties: { text: { type: "string" }, substeps: { default: [], items: { $ref: "#/$defs/Step" }, type: "array" } },
      required: ["text"],
      type: "object",
    },
  },
  properties: {
    title: { type: "string" },
    ingredients: { items: { $ref: "#/$defs/Ingredient" }, type: "array" },
    tags: { default: [], items: { type: "string" }, type: "array" },
    kind: { enum: ["main", "dessert"], type: "string" },
    source: { anyOf: [{ $ref: "#/$defs/Source" }, { type: "null" }], default: null },
    steps: { default: [], items: { $ref: "#/$defs/Step" }, type: "array" },
    ratings: { additionalProperties: { type: "integer" }, default: {}, type: "object" },
    pair: {
      anyOf: [{ maxItems: 2, minItems: 2, prefixItems: [{ type: "string" }, { type: "integer" }], type: "array" }, { type: "null" }],
      default: null,
    },
    extra: { additionalProperties: true, default: {}, type: "object" },
    meta: { properties: { "by-line": { type: "string" } }, required: ["by-line"], type: "object" },
    anything: {},
  },
  required: ["title", "ingredients", "kind", "anything"],
  type: "object",
};

const APP = { module: "cookbook.payloads", payloads: { recipe: "Recipe" } };
const source = payloadTypesFile(APP, { recipe: RECIPE });

type Guard = (data: unknown) => boolean;

/** The generated file run as JavaScript: its exports. */
function load(text: string): Record<string, unknown> {
  const js = ts.transpileModule(text, { compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022 } }).outputText;
  const exports: Record<string, unknown> = {};
  // eslint-disable-next-line @typescript-eslint/no-implied-eval -- the generated module, compiled just above
  const run = new Function("exports", js) as (exports: Record<string, unknown>) => void;
  run(exports);
  return exports;
}

const generated = load(source);
const isRecipe = generated.isRecipe as Guard;
const guards = generated.cookbookPayloadGuards as Record<string, Guard>;

const valid = {
  title: "Soup",
  ingredients: [{ name: "leek", grams: 200 }],
  tags: ["winter"],
  kind: "main",
  source: { url: "https://example.org", year: null },
  steps: [{ text: "chop", substeps: [{ text: "wash" }] }],
  ratings: { ann: 4 },
  pair: ["a", 1],
  extra: { whatever: [1, "x"] },
  meta: { "by-line": "Ann" },
  anything: null,
};

describe("generated payload guards", () => {
  it("accept valid data, with or without the optional fields", () => {
    expect(isRecipe(valid)).toBe(true);
    expect(isRecipe({ title: "Soup", ingredients: [], kind: "dessert", meta: { "by-line": "" }, anything: 1 })).toBe(true);
    expect(guards.recipe).toBe(isRecipe);
  });

  it.each([
    ["not an object", null],
    ["an array", [valid]],
    ["ingredients not an array", { ...valid, ingredients: { name: "leek", grams: 200 } }],
    ["an ingredient missing a field", { ...valid, ingredients: [{ name: "leek" }] }],
    ["an ingredient's field of the wrong kind", { ...valid, ingredients: [{ name: "leek", grams: "200" }] }],
    ["a tag that is not a string", { ...valid, tags: ["winter", 3] }],
    ["a kind outside the enum", { ...valid, kind: "starter" }],
    ["a nested object's wrong field", { ...valid, source: { url: "https://example.org", year: "1999" } }],
    ["a nested object that is an array", { ...valid, source: [] }],
    ["a wrong field deep in a recursive model", { ...valid, steps: [{ text: "chop", substeps: [{ text: 1 }] }] }],
    ["a map value of the wrong kind", { ...valid, ratings: { ann: 4.5 } }],
    ["a tuple of the wrong length", { ...valid, pair: ["a"] }],
    ["an inline object missing its required field", { ...valid, meta: {} }],
    ["a required field of any kind missing", { title: "Soup", ingredients: [], kind: "main", meta: { "by-line": "" } }],
  ])("reject %s", (_why, data) => {
    expect(isRecipe(data)).toBe(false);
  });

  it("guard each referenced model too", () => {
    expect((generated.isIngredient as Guard)({ name: "leek", grams: 1 })).toBe(true);
    expect((generated.isSource as Guard)({ url: 1 })).toBe(false);
  });

  it("type-check under strict TypeScript", () => {
    const file = "payloads.gen.ts";
    const options: ts.CompilerOptions = {
      strict: true,
      noUncheckedIndexedAccess: true,
      noUnusedLocals: true,
      noUnusedParameters: true,
      noEmit: true,
      target: ts.ScriptTarget.ES2022,
      lib: ["lib.es2023.d.ts"],
      types: [],
    };
    const host = ts.createCompilerHost(options);
    const read = host.getSourceFile.bind(host);
    host.getSourceFile = (name, version) =>
      name === file ? ts.createSourceFile(file, source, version) : read(name, version);
    const diagnostics = ts.getPreEmitDiagnostics(ts.createProgram([file], options, host));
    expect(diagnostics.map((d) => ts.flattenDiagnosticMessageText(d.messageText, "\n"))).toEqual([]);
  }, 30_000);
});

describe("findPython", () => {
  const none = () => false;

  it("takes --python first, then $PAGECHAT_PYTHON", () => {
    expect(findPython({ flag: "/opt/py", env: { PAGECHAT_PYTHON: "/env/py" }, exists: none })).toBe("/opt/py");
    expect(findPython({ env: { PAGECHAT_PYTHON: "/env/py" }, exists: () => true })).toBe("/env/py");
  });

  it("then the nearest .venv from the working folder up, then python3", () => {
    const venv = "/home/me/app/.venv/bin/python";
    expect(findPython({ env: {}, cwd: "/home/me/app/web", exists: (p) => p === venv })).toBe(venv);
    expect(findPython({ env: {}, cwd: "/home/me/app/web", exists: none })).toBe("python3");
  });
});
