import { useMemo, useState } from "react";
import { BlockSplitter } from "../blocks";
import { MarkdownBlock } from "./MarkdownBlock";

export interface MarkdownProps {
  text: string;
  /** The text is still growing: only its last block may change. */
  streaming?: boolean;
}

/** GFM markdown, rendered block by block so a long streaming answer costs linear time. */
export function Markdown({ text, streaming = false }: MarkdownProps) {
  const [splitter] = useState(() => new BlockSplitter());
  const { blocks } = useMemo(() => splitter.split(text), [splitter, text]);
  return (
    <div className="pc-markdown">
      {blocks.map((source, i) => (
        <MarkdownBlock key={i} source={source} open={streaming && i === blocks.length - 1} />
      ))}
    </div>
  );
}
