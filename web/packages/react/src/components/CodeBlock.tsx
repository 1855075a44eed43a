import { useEffect, useState } from "react";

export async function copyText(text: string): Promise<void> {
  // navigator.clipboard is missing outside secure contexts, whatever the DOM types say.
  const clipboard = (navigator as { clipboard?: Clipboard }).clipboard;
  if (clipboard !== undefined) {
    try {
      await clipboard.writeText(text);
      return;
    } catch {
      // Denied (no permission, not a secure context): fall back to a selection copy.
    }
  }
  const area = document.createElement("textarea");
  area.value = text;
  area.setAttribute("readonly", "");
  area.style.position = "fixed";
  area.style.opacity = "0";
  document.body.append(area);
  area.select();
  // eslint-disable-next-line @typescript-eslint/no-deprecated -- the only copy that works without clipboard permission
  const ok = document.execCommand("copy");
  area.remove();
  if (!ok) throw new Error("copy failed");
}

export interface CodeBlockProps {
  code: string;
  language: string | null;
}

export function CodeBlock({ code, language }: CodeBlockProps) {
  const [copied, setCopied] = useState<"idle" | "copied" | "failed">("idle");
  useEffect(() => {
    if (copied === "idle") return;
    const timer = setTimeout(() => {
      setCopied("idle");
    }, 1500);
    return () => {
      clearTimeout(timer);
    };
  }, [copied]);
  const onCopy = () => {
    copyText(code).then(
      () => {
        setCopied("copied");
      },
      () => {
        setCopied("failed");
      },
    );
  };
  return (
    <div className="pc-code" data-language={language ?? undefined}>
      <div className="pc-code-header">
        <span className="pc-code-language">{language ?? "code"}</span>
        <button type="button" className="pc-code-copy" onClick={onCopy} data-state={copied} aria-label="Copy code">
          {copied === "copied" ? "Copied" : copied === "failed" ? "Copy failed" : "Copy"}
        </button>
      </div>
      <pre>
        <code>{code}</code>
      </pre>
    </div>
  );
}
