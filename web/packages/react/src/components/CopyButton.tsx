import { useEffect, useState } from "react";
import { copyText } from "./CodeBlock";

export interface CopyButtonProps {
  text: string;
  label: string;
}

/** Copies `text` to the clipboard and says so for a moment. */
export function CopyButton({ text, label }: CopyButtonProps) {
  const [state, setState] = useState<"idle" | "copied" | "failed">("idle");
  useEffect(() => {
    if (state === "idle") return;
    const timer = setTimeout(() => {
      setState("idle");
    }, 1500);
    return () => {
      clearTimeout(timer);
    };
  }, [state]);
  return (
    <button
      type="button"
      aria-label={label}
      title={label}
      data-copy={state}
      onClick={() => {
        copyText(text).then(
          () => {
            setState("copied");
          },
          () => {
            setState("failed");
          },
        );
      }}
    >
      {state === "copied" ? "Copied" : state === "failed" ? "Copy failed" : "Copy"}
    </button>
  );
}
