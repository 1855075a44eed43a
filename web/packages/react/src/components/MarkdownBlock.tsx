import { memo, type ComponentProps } from "react";
import Markdown, { defaultUrlTransform, type Components, type ExtraProps } from "react-markdown";
import remarkGfm from "remark-gfm";
import type { ElementContent } from "hast";
import { completeOpenMarks } from "../blocks";
import { CHOICES_LANGUAGE, parseChoices } from "../choices";
import { remarkCitations } from "../citations";
import { ChoicePrompt, ChoicePromptPending } from "./ChoicePrompt";
import { Citation } from "./Citation";
import { CodeBlock } from "./CodeBlock";

const SAFE_HREF = /^(?:https?:\/\/|mailto:)/i;

/** Only http(s) and mailto links are links; anything else is shown as its text. */
export function isSafeHref(href: string | undefined): href is string {
  return href !== undefined && SAFE_HREF.test(href.trim());
}

function textOf(nodes: ElementContent[]): string {
  let text = "";
  for (const node of nodes) {
    if (node.type === "text") text += node.value;
    else if (node.type === "element") text += textOf(node.children);
  }
  return text;
}

function Link({ href, children }: ComponentProps<"a"> & ExtraProps) {
  if (!isSafeHref(href)) return <span className="pc-link-blocked">{children}</span>;
  return (
    <a href={href} target="_blank" rel="noopener noreferrer">
      {children}
    </a>
  );
}

/** Images are not loaded (they could track the reader); their alt text and a safe link stand in. */
function Image({ src, alt }: ComponentProps<"img"> & ExtraProps) {
  const label = alt ? `[image: ${alt}]` : "[image]";
  if (typeof src === "string" && isSafeHref(src)) {
    return (
      <a className="pc-image-link" href={src} target="_blank" rel="noopener noreferrer">
        {label}
      </a>
    );
  }
  return <span className="pc-image-link">{label}</span>;
}

function Table({ children }: ComponentProps<"table"> & ExtraProps) {
  return (
    <div className="pc-table-wrap">
      <table>{children}</table>
    </div>
  );
}

function makePre(open: boolean) {
  return function Pre({ node, children }: ComponentProps<"pre"> & ExtraProps) {
    const code = node?.children[0];
    if (code?.type !== "element" || code.tagName !== "code") return <pre>{children}</pre>;
    const classes = code.properties.className;
    const language =
      (Array.isArray(classes) ? classes : [])
        .map(String)
        .find((c) => c.startsWith("language-"))
        ?.slice("language-".length) ?? null;
    const text = textOf(code.children).replace(/\n$/, "");
    if (language === CHOICES_LANGUAGE) {
      const choices = parseChoices(text);
      if (choices) return <ChoicePrompt choices={choices} />;
      if (open) return <ChoicePromptPending />;
    }
    return <CodeBlock code={text} language={language} />;
  };
}

const base: Components = { a: Link, img: Image, table: Table, cite: Citation };
const finished: Components = { ...base, pre: makePre(false) };
const streaming: Components = { ...base, pre: makePre(true) };
// Citations last: GFM's autolinks and footnotes are links by then, whose text stays text.
const plugins = [remarkGfm, remarkCitations];

export interface MarkdownBlockProps {
  source: string;
  /** The last block of an answer still streaming: it may end mid-way. */
  open: boolean;
}

/** One top-level markdown block; memoized, so a finished block never renders again. */
export const MarkdownBlock = memo(function MarkdownBlock({ source, open }: MarkdownBlockProps) {
  return (
    <Markdown remarkPlugins={plugins} components={open ? streaming : finished} urlTransform={defaultUrlTransform}>
      {open ? completeOpenMarks(source) : source}
    </Markdown>
  );
});
