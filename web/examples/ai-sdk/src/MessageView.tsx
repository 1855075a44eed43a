// One UI message: text, tool parts (input, progress, output, approval), pagechat's data parts.
import { getToolName, isToolUIPart } from "ai";
import type { CustomPayload } from "./generated/pagechat";
import type { ChatMessage } from "./history";

type Part = ChatMessage["parts"][number];

export function MessageView({
  message,
  onDecide,
  onSend,
}: {
  message: ChatMessage;
  onDecide: (approvalId: string, approved: boolean) => void;
  onSend: (text: string) => void;
}) {
  const progress = new Map(
    message.parts.flatMap((p) => (p.type === "data-pagechat-progress" ? [[p.data.tool_call_id, p.data.message] as const] : [])),
  );
  return (
    <article className={`message ${message.role}`} aria-label={message.role === "user" ? "Question" : "Answer"}>
      {message.parts.map((part, i) => (
        <PartView key={i} part={part} progress={progress} onDecide={onDecide} onSend={onSend} />
      ))}
    </article>
  );
}

function PartView({
  part,
  progress,
  onDecide,
  onSend,
}: {
  part: Part;
  progress: Map<string, string>;
  onDecide: (approvalId: string, approved: boolean) => void;
  onSend: (text: string) => void;
}) {
  if (part.type === "text") return <p>{part.text}</p>;
  if (part.type === "file") {
    // A data: URL while sending, the stored attachment's URL after a reload.
    return <a className="file" href={part.url} download={part.filename}>{part.filename ?? part.mediaType}</a>;
  }
  if (isToolUIPart(part)) {
    const name = getToolName(part);
    return (
      <div className="tool" aria-label={`Tool ${name}`}>
        <strong>{name}</strong> <span data-testid="tool-state">{part.state}</span>
        <pre aria-label="Input">{JSON.stringify(part.input)}</pre>
        {progress.has(part.toolCallId) && part.state === "input-available" && <p>{progress.get(part.toolCallId)}</p>}
        {part.state === "output-available" && <pre aria-label="Output">{String(part.output)}</pre>}
        {part.state === "output-error" && <p role="status">Failed: {part.errorText}</p>}
        {part.state === "output-denied" && <p>Denied</p>}
        {part.state === "approval-requested" && (
          <p>
            {part.approval.requestReason}{" "}
            <button type="button" onClick={() => { onDecide(part.approval.id, true); }}>Approve</button>
            <button type="button" onClick={() => { onDecide(part.approval.id, false); }}>Deny</button>
          </p>
        )}
      </div>
    );
  }
  switch (part.type) {
    case "data-pagechat-payload":
      return <PayloadCard payload={part.data} />;
    case "data-pagechat-suggested-values":
      return (
        <p>
          {part.data.values.map((v) => (
            <button key={v.value} type="button" onClick={() => { onSend(v.value); }}>{v.label}</button>
          ))}
        </p>
      );
    case "data-pagechat-choices":
      return (
        <fieldset>
          <legend>{part.data.question}</legend>
          {part.data.options.map((o) => (
            <button key={o.value} type="button" onClick={() => { onSend(o.value); }}>{o.label}</button>
          ))}
        </fieldset>
      );
    default:
      return null;
  }
}

interface Entry {
  title: string;
  amount: number;
}

function isEntry(data: unknown): data is Entry {
  return typeof data === "object" && data !== null && typeof (data as Entry).title === "string" && typeof (data as Entry).amount === "number";
}

/** A typed payload: pagechat validated it against the page's schema; the card reads it. */
function PayloadCard({ payload }: { payload: CustomPayload }) {
  if (payload.type === "entry" && isEntry(payload.data)) {
    return (
      <div className="payload" aria-label="Entry">
        <strong>{payload.data.title}</strong>: {payload.data.amount.toFixed(2)}
      </div>
    );
  }
  return <pre className="payload">{JSON.stringify(payload)}</pre>;
}
