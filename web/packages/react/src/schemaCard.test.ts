import { describe, expect, it } from "vitest";
import { httpUrl, humanise, schemaCardModel, type CardValue } from "./schemaCard";

const EN = { locale: "en-US", timeZone: "UTC" };

// As pydantic writes it: nested models under $defs, Optional as anyOf with null, field titles.
const RECIPE_SCHEMA = {
  title: "Recipe",
  type: "object",
  $defs: {
    Ingredient: {
      title: "Ingredient",
      type: "object",
      properties: { name: { title: "Name", type: "string" }, grams: { title: "Grams", type: "number" } },
    },
    Nutrition: { title: "Nutrition", type: "object", properties: { kcal: { title: "Kcal", type: "integer" } } },
  },
  properties: {
    name: { title: "Name", type: "string" },
    servings: { title: "Servings", type: "integer" },
    source: { anyOf: [{ type: "string", format: "uri" }, { type: "null" }], title: "Source", default: null },
    published: { title: "Published", type: "string", format: "date" },
    updated_at: { type: "string", format: "date-time" },
    vegan: { title: "Vegan", type: "boolean" },
    steps: { title: "Steps", type: "array", items: { type: "string" } },
    ingredients: { title: "Ingredients", type: "array", items: { $ref: "#/$defs/Ingredient" } },
    nutrition: { $ref: "#/$defs/Nutrition" },
  },
};

const RECIPE = {
  name: "Pancakes",
  servings: 1200,
  source: "https://example.org/pancakes?x=1",
  published: "2024-03-05",
  updated_at: "2024-03-05T14:30:00Z",
  vegan: false,
  steps: ["Mix", "Fry"],
  ingredients: [
    { name: "Flour", grams: 250.5 },
    { name: "Milk", grams: 500 },
  ],
  nutrition: { kcal: 420 },
  note: "<b>not html</b>",
};

function fields(value: CardValue) {
  if (value.kind !== "section") throw new Error(`not a section: ${value.kind}`);
  return Object.fromEntries(value.fields.map((f) => [f.key, f]));
}

describe("schemaCardModel", () => {
  it("titles the card by the schema, else by the type humanised", () => {
    expect(schemaCardModel("recipe_card", RECIPE_SCHEMA, {}).title).toBe("Recipe");
    expect(schemaCardModel("recipe_card", null, {}).title).toBe("Recipe card");
    expect(schemaCardModel("recipe_card", { type: "object" }, {}).title).toBe("Recipe card");
  });

  it("reads each field through its schema: labels, numbers, dates, booleans, links", () => {
    const byKey = fields(schemaCardModel("recipe", RECIPE_SCHEMA, RECIPE, EN).body);
    expect(Object.keys(byKey)).toEqual([
      "name",
      "servings",
      "source",
      "published",
      "updated_at",
      "vegan",
      "steps",
      "ingredients",
      "nutrition",
      "note",
    ]);
    expect(byKey.name).toEqual({ key: "name", label: "Name", value: { kind: "text", text: "Pancakes" } });
    expect(byKey.servings?.value).toEqual({ kind: "text", text: "1,200" });
    expect(byKey.source?.value).toEqual({ kind: "link", href: "https://example.org/pancakes?x=1", text: "https://example.org/pancakes?x=1" });
    expect(byKey.published?.value).toEqual({ kind: "text", text: "Mar 5, 2024" });
    expect(byKey.updated_at?.label).toBe("Updated at");
    expect(byKey.updated_at?.value).toEqual({ kind: "text", text: "Mar 5, 2024, 2:30 PM" });
    expect(byKey.vegan?.value).toEqual({ kind: "text", text: "No" });
    expect(byKey.note?.value).toEqual({ kind: "text", text: "<b>not html</b>" });
  });

  it("shows a list of scalars as a list and a list of objects as a table", () => {
    const byKey = fields(schemaCardModel("recipe", RECIPE_SCHEMA, RECIPE, EN).body);
    expect(byKey.steps?.value).toEqual({
      kind: "list",
      items: [
        { kind: "text", text: "Mix" },
        { kind: "text", text: "Fry" },
      ],
    });
    expect(byKey.ingredients?.value).toEqual({
      kind: "table",
      columns: [
        { key: "name", label: "Name" },
        { key: "grams", label: "Grams" },
      ],
      rows: [
        [
          { kind: "text", text: "Flour" },
          { kind: "text", text: "250.5" },
        ],
        [
          { kind: "text", text: "Milk" },
          { kind: "text", text: "500" },
        ],
      ],
    });
  });

  it("shows a nested object as a section, its schema found through $ref", () => {
    const byKey = fields(schemaCardModel("recipe", RECIPE_SCHEMA, RECIPE, EN).body);
    expect(byKey.nutrition?.label).toBe("Nutrition");
    expect(byKey.nutrition?.value).toEqual({
      kind: "section",
      fields: [{ key: "kcal", label: "Kcal", value: { kind: "text", text: "420" } }],
    });
  });

  it("reads data with no schema as labelled keys and values", () => {
    const model = schemaCardModel("shopping_list", undefined, { storeName: "Corner", items: [{ what: "eggs", qty: 12 }], open: true }, EN);
    const byKey = fields(model.body);
    expect(byKey.storeName?.label).toBe("Store name");
    expect(byKey.items?.value).toEqual({
      kind: "table",
      columns: [
        { key: "what", label: "What" },
        { key: "qty", label: "Qty" },
      ],
      rows: [[{ kind: "text", text: "eggs" }, { kind: "text", text: "12" }]],
    });
    expect(byKey.open?.value).toEqual({ kind: "text", text: "Yes" });
  });

  it("links only http(s) URLs", () => {
    const model = schemaCardModel("x", { type: "object", properties: { a: { type: "string", format: "uri" } } }, { a: "javascript:alert(1)", b: "mailto:me@example.org", c: "http://example.org" });
    const byKey = fields(model.body);
    expect(byKey.a?.value).toEqual({ kind: "text", text: "javascript:alert(1)" });
    expect(byKey.b?.value).toEqual({ kind: "text", text: "mailto:me@example.org" });
    expect(byKey.c?.value.kind).toBe("link");
    expect(httpUrl(" HTTPS://Example.org/a ")).toBe("https://example.org/a");
    expect(httpUrl("https://")).toBeNull();
  });

  it("keeps a value that does not fit its format as text, and marks empty ones", () => {
    const schema = { type: "object", properties: { d: { type: "string", format: "date" }, n: { type: ["string", "null"] }, l: { type: "array" } } };
    const byKey = fields(schemaCardModel("x", schema, { d: "soon", n: null, l: [] }, EN).body);
    expect(byKey.d?.value).toEqual({ kind: "text", text: "soon" });
    expect(byKey.n?.value).toEqual({ kind: "text", text: "—", empty: true });
    expect(byKey.l?.value).toEqual({ kind: "text", text: "None", empty: true });
  });

  it("survives a schema that refers to itself and data nested deeply", () => {
    const schema = { $ref: "#/$defs/Node", $defs: { Node: { type: "object", properties: { child: { $ref: "#/$defs/Node" } } } } };
    let data: Record<string, unknown> = { leaf: 1 };
    for (let i = 0; i < 20; i++) data = { child: data };
    const model = schemaCardModel("tree", schema, data);
    expect(model.body.kind).toBe("section");
    expect(JSON.stringify(model)).toContain("leaf");
  });

  it("reads a payload that is not an object", () => {
    expect(schemaCardModel("n", { type: "integer" }, 5, EN).body).toEqual({ kind: "text", text: "5" });
    expect(schemaCardModel("l", null, ["a"], EN).body).toEqual({ kind: "list", items: [{ kind: "text", text: "a" }] });
  });
});

describe("humanise", () => {
  it("turns identifiers into words", () => {
    expect(humanise("shopping_list")).toBe("Shopping list");
    expect(humanise("createdAt")).toBe("Created at");
    expect(humanise("source-URL")).toBe("Source URL");
    expect(humanise("")).toBe("");
  });
});
