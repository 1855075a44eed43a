// Every stylesheet of ours parses cleanly. A rule left open (as a merge once left three in
// chat.css) swallows every rule after it, and the browser says nothing: here it fails.
import postcss, { type Root } from "postcss";
import { describe, expect, it } from "vitest";

// Every .css file of the web app, whichever folder it lives in, as written (not processed).
const FILES = import.meta.glob<string>(
  ["/**/*.css", "!/node_modules/**", "!**/node_modules/**", "!/dist/**", "!/test-results/**"],
  { query: "?raw", import: "default", eager: true },
);

/** Problems postcss does not throw for: a rule inside a rule (we write no nesting, so one
 * is a rule left open and closed by a later brace), and a declaration outside any rule. */
function misplaced(root: Root): string[] {
  const found: string[] = [];
  root.walk((node) => {
    const line = String(node.source?.start?.line ?? "?");
    if (node.type === "rule" && node.parent?.type === "rule") found.push(`line ${line}: "${node.selector}" inside a rule`);
    if (node.type === "decl" && node.parent?.type === "root") found.push(`line ${line}: "${node.prop}" outside any rule`);
  });
  return found;
}

/** `css`'s parse errors and misplaced nodes, as text ([] when clean). */
function problems(css: string, from: string): string[] {
  try {
    return misplaced(postcss.parse(css, { from }));
  } catch (error: unknown) {
    return [error instanceof Error ? error.message : String(error)];
  }
}

const COLOUR = /#[0-9a-f]{3,8}\b|\b(?:rgba?|hsla?|oklch|lab|lch)\(/i;

/** Colours written outside a token: every colour is a custom property whose value is
 * `light-dark(light, dark)`, so none is without its dark value. */
function untokenedColours(css: string): string[] {
  const found: string[] = [];
  postcss.parse(css).walkDecls((decl) => {
    if (!COLOUR.test(decl.value)) return;
    const token = decl.prop.startsWith("--") && /^light-dark\(.+,.+\)$/.test(decl.value.trim());
    if (!token) found.push(`line ${String(decl.source?.start?.line ?? "?")}: ${decl.prop}: ${decl.value}`);
  });
  return found;
}

describe("stylesheets", () => {
  it("finds ours", () => {
    expect(Object.keys(FILES)).toContain("/packages/react/src/chat.css");
  });

  it.each(Object.entries(FILES))("%s parses cleanly", (name, css) => {
    expect(problems(css, name)).toEqual([]);
  });

  it.each(Object.entries(FILES))("%s writes every colour as a token with a light and a dark value", (_name, css) => {
    expect(untokenedColours(css)).toEqual([]);
  });

  it("finds a colour without a dark value", () => {
    expect(untokenedColours(".a { background: var(--x, #fff8e1); }")).toHaveLength(1);
    expect(untokenedColours(".a { --x: #fff; }")).toHaveLength(1);
    expect(untokenedColours(".a { --x: light-dark(#fff, #000); color: var(--x); }")).toEqual([]);
  });

  it("catches a rule left open, a stray brace and a rule swallowed by an open one", () => {
    expect(problems(".a { color: red;\n.b { color: blue; }", "x.css")).toHaveLength(1);
    expect(problems(".a { color: red; } }", "x.css")).toHaveLength(1);
    expect(problems(".a { color: red;\n.b { color: blue; }\n}", "x.css")).toEqual(['line 2: ".b" inside a rule']);
    expect(problems("@media (min-width: 1px) { .a { color: red; } }", "x.css")).toEqual([]);
  });
});
