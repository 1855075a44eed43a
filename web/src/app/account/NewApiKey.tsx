import { useState } from "react";
import { Button } from "@pagechat/react";
import type { ApiKeyCreated } from "./accountApi";

export interface NewApiKeyProps {
  created: ApiKeyCreated;
  onDone: () => void;
}

/** The key just made, shown this once with a Copy button; Done forgets it for good. */
export function NewApiKey({ created, onDone }: NewApiKeyProps) {
  const [copied, setCopied] = useState<"idle" | "copied" | "failed">("idle");
  const copy = () => {
    navigator.clipboard.writeText(created.key).then(
      () => {
        setCopied("copied");
      },
      () => {
        setCopied("failed");
      },
    );
  };
  return (
    <div className="app-new-key" role="status" aria-labelledby="new-key-title">
      <p id="new-key-title">
        <strong>Your new key “{created.name}”.</strong> Copy it now: it is not shown again.
      </p>
      <code className="app-secret">{created.key}</code>
      <div className="app-row">
        <Button variant="primary" onClick={copy}>
          {copied === "copied" ? "Copied" : copied === "failed" ? "Copy failed: select it" : "Copy key"}
        </Button>
        <Button onClick={onDone}>Done</Button>
      </div>
    </div>
  );
}
