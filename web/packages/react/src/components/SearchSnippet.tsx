import type { ReactNode } from "react";

export interface SearchSnippetProps {
  text: string;
  /** The words searched for, lower-cased: each is marked where a word starts with it. */
  terms: string[];
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** A search hit's text, as plain text, with the matched word starts marked. */
export function SearchSnippet({ text, terms }: SearchSnippetProps) {
  const usable = terms.filter((t) => t !== "");
  if (usable.length === 0) return <span className="pc-search-snippet">{text}</span>;
  const pattern = new RegExp(`(?<![\\p{L}\\p{N}])(${usable.map(escapeRegExp).join("|")})`, "giu");
  const parts: ReactNode[] = [];
  let last = 0;
  for (const match of text.matchAll(pattern)) {
    const start = match.index;
    parts.push(text.slice(last, start), <mark key={start}>{match[0]}</mark>);
    last = start + match[0].length;
  }
  parts.push(text.slice(last));
  return <span className="pc-search-snippet">{parts}</span>;
}
