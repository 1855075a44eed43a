import { createContext } from "react";
import type { Source } from "../types";

/** The answer whose text is being rendered: its sources by number and its list's id prefix. */
export interface AnswerSources {
  byNumber: Map<number, Source>;
  /** Prefix of the ids of its Sources list's entries (`sourceAnchor`). */
  prefix: string;
}

/** Outside an answer (none provided), no `[n]` is a citation. */
export const SourcesContext = createContext<AnswerSources | null>(null);
