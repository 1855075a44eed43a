import { useContext } from "react";
import type { Choices } from "../choices";
import { ChoiceContext } from "./ChoiceContext";

export function ChoicePrompt({ choices }: { choices: Choices }) {
  const { mode, selected, choose } = useContext(ChoiceContext);
  const disabled = mode !== "open";
  return (
    <div className="pc-choices" role="group" aria-label={choices.question} data-state={mode}>
      <p className="pc-choices-question">{choices.question}</p>
      <div className="pc-choices-options">
        {choices.options.map((option) => (
          <button
            key={option.value}
            type="button"
            className="pc-choice"
            disabled={disabled}
            data-selected={mode === "answered" && selected === option.value ? "" : undefined}
            onClick={() => {
              choose(option.value);
            }}
          >
            {option.label}
          </button>
        ))}
      </div>
    </div>
  );
}

/** A ```choices block still being written: never shown as raw JSON. */
export function ChoicePromptPending() {
  return (
    <div className="pc-choices" data-state="pending" aria-busy="true">
      <p className="pc-choices-question">Preparing choices…</p>
    </div>
  );
}
