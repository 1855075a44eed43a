import { useMemo } from "react";
import { splitToolMarkers } from "../markers";
import type { ToolHistoryEntry } from "../types";
import { Markdown } from "./Markdown";
import { ToolCallCard } from "./ToolCallCard";

export interface MessageContentProps {
  content: string;
  toolHistory: ToolHistoryEntry[];
  streaming?: boolean;
}

/** A message's text as markdown, with an inline tool card for each `[[tool:N]]` marker. */
export function MessageContent({ content, toolHistory, streaming = false }: MessageContentProps) {
  const segments = useMemo(() => splitToolMarkers(content), [content]);
  return (
    <div className="pc-message-content">
      {segments.map((segment, i) => {
        const last = i === segments.length - 1;
        if (segment.kind === "text") return <Markdown key={i} text={segment.text} streaming={streaming && last} />;
        const entry = toolHistory[segment.index];
        // A marker that names no tool call of the turn stays text.
        if (entry === undefined) return <Markdown key={i} text={segment.raw} />;
        return <ToolCallCard key={i} entry={entry} pending={streaming} />;
      })}
    </div>
  );
}
