// Citations: `[n]` in an answer's own text, matched against that answer's sources. A remark
// plugin marks each `[n]` of the markdown's text (never inside a link or code) as a `cite`
// element; the `Citation` component then links the ones that name a source of the answer and
// leaves any other as the plain text it was. Tool data and the page are never rendered
// through this, so a `[3]` in them stays text.
import type { Nodes, Parent, PhrasingContent, Root, Text } from "mdast";
import type { Source } from "./types";

/** `[1]`, `[12]`: a citation as the model is told to write one (`[1][3]` is two). */
const CITATION = /\[(\d{1,4})\]/g;

/** Node types whose text is not the answer's prose: citations inside them stay text. */
const LITERAL_PARENTS = new Set(["link", "linkReference", "definition"]);

function citationNode(number: string): PhrasingContent {
  // An mdast node of its own, made a `<cite data-n>` element for the renderer.
  return {
    type: "citation",
    data: { hName: "cite", hProperties: { dataN: number } },
    children: [{ type: "text", value: `[${number}]` }],
  } as unknown as PhrasingContent;
}

function splitText(node: Text): PhrasingContent[] | null {
  const parts: PhrasingContent[] = [];
  let last = 0;
  for (const match of node.value.matchAll(CITATION)) {
    if (match.index > last) parts.push({ type: "text", value: node.value.slice(last, match.index) });
    parts.push(citationNode(match[1] ?? ""));
    last = match.index + match[0].length;
  }
  if (parts.length === 0) return null;
  if (last < node.value.length) parts.push({ type: "text", value: node.value.slice(last) });
  return parts;
}

function walk(parent: Parent): void {
  const children: Nodes[] = [];
  let changed = false;
  for (const child of parent.children as Nodes[]) {
    if (child.type === "text") {
      const parts = splitText(child);
      if (parts) {
        children.push(...parts);
        changed = true;
        continue;
      }
    } else if ("children" in child && !LITERAL_PARENTS.has(child.type)) {
      walk(child);
    }
    children.push(child);
  }
  if (changed) parent.children = children as Parent["children"];
}

/** The remark plugin: every `[n]` of the text becomes a `cite` element holding it. */
export function remarkCitations(): (tree: unknown) => void {
  // `unknown`, not mdast's `Root`: the packed types must not need a package the app lacks.
  return (tree: unknown): void => {
    walk(tree as Root);
  };
}

/** The answer's sources by their number. */
export function sourcesByNumber(sources: Source[]): Map<number, Source> {
  const byNumber = new Map<number, Source>();
  for (const source of sources) if (source.number !== null) byNumber.set(source.number, source);
  return byNumber;
}

/** The element id of source `n` in the list under an answer (unique per answer). */
export function sourceAnchor(prefix: string, n: number): string {
  return `${prefix}-source-${String(n)}`;
}
