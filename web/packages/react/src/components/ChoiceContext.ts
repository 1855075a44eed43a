import { createContext } from "react";

/**
 * How the ```choices blocks of one message behave:
 * - `open`: clickable;
 * - `answered`: a later user message exists (`selected` is its text);
 * - `busy`: an answer is being written; `streaming`: this message is still being written.
 */
export interface ChoiceState {
  mode: "open" | "answered" | "busy" | "streaming";
  selected: string | null;
  choose: (value: string) => void;
}

export const ChoiceContext = createContext<ChoiceState>({ mode: "busy", selected: null, choose: () => undefined });
