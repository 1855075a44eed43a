import { describe, expect, it } from "vitest";
import {
  addTopics,
  applySchemaChanges,
  cleanDraft,
  draftFromIdea,
  draftFromTemplate,
  emptyDraft,
  sameDraft,
  tabOfField,
  withCategories,
  withQueries,
} from "./draft";

const draft = () => ({
  ...emptyDraft(),
  name: "Heart",
  purpose: "Follow heart failure",
  semantic_space: {
    topics: [{ name: "SGLT2 inhibitors", description: "drugs" }],
    entities: [{ name: "Heart failure", type: "disease" as const }],
    inclusion_notes: "trials",
    exclusion_notes: "",
  },
});

describe("stream drafts", () => {
  it("a template fills every layer, with defaults for what it leaves out", () => {
    const d = draftFromTemplate({ name: "T", purpose: "P", topics: [{ name: "a" }], queries: [{ source: "pubmed", query: "q" }] });
    expect(d.semantic_space.topics).toEqual([{ name: "a", description: "" }]);
    expect(d.semantic_space.entities).toEqual([]);
    expect(d.retrieval_config.queries).toEqual([{ source: "pubmed", query: "q", rationale: "" }]);
    expect(d.presentation_config.categories).toEqual([]);
  });

  it("a stream idea gives the name, purpose and topic names", () => {
    const d = draftFromIdea({ name: "Onco", purpose: "Follow oncology", topics: ["PARP inhibitors"] });
    expect(d.name).toBe("Onco");
    expect(d.semantic_space.topics).toEqual([{ name: "PARP inhibitors", description: "" }]);
  });

  it("suggested topics are added after the draft's own; one it has (any case) is left out", () => {
    const d = addTopics(draft(), [{ name: "sglt2 INHIBITORS" }, { name: "Device therapy", description: "ICDs" }]);
    expect(d.semantic_space.topics.map((t) => t.name)).toEqual(["SGLT2 inhibitors", "Device therapy"]);
  });

  it("a schema proposal replaces only the fields it names", () => {
    const d = applySchemaChanges(draft(), { purpose: "New purpose", topics: [{ name: "X" }] });
    expect(d.name).toBe("Heart");
    expect(d.purpose).toBe("New purpose");
    expect(d.semantic_space.topics).toEqual([{ name: "X", description: "" }]);
    expect(d.semantic_space.entities).toEqual(draft().semantic_space.entities);
    expect(d.semantic_space.inclusion_notes).toBe("trials");
    expect(applySchemaChanges(draft(), { stream_name: "Renamed" }).name).toBe("Renamed");
  });

  it("proposed queries and categories replace the current lists", () => {
    const d = withCategories(withQueries(draft(), [{ source: "pubmed", query: "a" }]), [{ name: "Trials" }]);
    expect(d.retrieval_config.queries).toEqual([{ source: "pubmed", query: "a", rationale: "" }]);
    expect(d.presentation_config.categories).toEqual([{ name: "Trials", description: "" }]);
  });

  it("what is sent is trimmed, without empty rows; equal drafts compare equal", () => {
    const messy = {
      ...draft(),
      name: "  Heart ",
      semantic_space: { ...draft().semantic_space, topics: [...draft().semantic_space.topics, { name: "  ", description: "x" }] },
    };
    expect(cleanDraft(messy).name).toBe("Heart");
    expect(cleanDraft(messy).semantic_space.topics).toHaveLength(1);
    expect(sameDraft(messy, draft())).toBe(true);
    expect(sameDraft({ ...draft(), purpose: "other" }, draft())).toBe(false);
  });

  it("a validation issue's field names the tab that holds it", () => {
    expect(tabOfField("topics")).toBe("semantic");
    expect(tabOfField("exclusion_notes")).toBe("semantic");
    expect(tabOfField("queries")).toBe("retrieval");
    expect(tabOfField("categories")).toBe("presentation");
    expect(tabOfField("colour")).toBeNull();
    expect(tabOfField(undefined)).toBeNull();
  });
});
