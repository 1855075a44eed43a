import { CircleAlert } from "lucide-react";
import type { CustomPayload, PayloadErrorData } from "../types";

/** The type of the card the server puts in place of a payload it could not show. */
export const PAYLOAD_ERROR = "payload_error";

function isPayloadErrorData(data: unknown): data is PayloadErrorData {
  if (typeof data !== "object" || data === null) return false;
  const o = data as Record<string, unknown>;
  return typeof o.payload_type === "string" && typeof o.reason === "string" && (o.details === undefined || typeof o.details === "string");
}

/** The error cards among a message's payloads, in order. */
export function payloadErrors(payloads: readonly CustomPayload[]): PayloadErrorData[] {
  return payloads.flatMap((p) => (p.type === PAYLOAD_ERROR && isPayloadErrorData(p.data) ? [p.data] : []));
}

/**
 * "Couldn't show this proposal": stands in the answer for a payload the server could not use
 * even after repair; what was wrong (and the data as written) is folded away as plain text.
 */
export function PayloadErrorCard({ error }: { error: PayloadErrorData }) {
  return (
    <div className="pc-payload-error" role="note" data-payload-error={error.payload_type}>
      <div className="pc-payload-error-title">
        <CircleAlert size={14} aria-hidden="true" />
        <span>Couldn&apos;t show this proposal</span>
      </div>
      <p>{error.reason}</p>
      {error.details !== "" && (
        <details>
          <summary>Details</summary>
          <pre>{error.details}</pre>
        </details>
      )}
    </div>
  );
}
