// What each state means, as a tone: the colour of a badge follows its meaning, never the
// component it sits in (an approved deletion is a success, not an alarm).
import type { ApprovalPublic, ChatMessage, PayloadDecision } from "./types";

/** A state's meaning: done as asked, refused or failed, waiting on someone, or neither. */
export type Tone = "success" | "danger" | "warning" | "neutral";

/** An approval's tone: approved is a success, denied and lapsed are refusals, pending waits. */
export const APPROVAL_TONE: Record<ApprovalPublic["status"], Tone> = {
  pending: "warning",
  approved: "success",
  denied: "danger",
  expired: "danger",
};

/** A card's decision: accepted is a success, rejected a refusal, dismissed nothing. */
export const DECISION_TONE: Record<PayloadDecision, Tone> = {
  accepted: "success",
  rejected: "danger",
  dismissed: "neutral",
};

/** An answer's status. */
export const MESSAGE_TONE: Record<ChatMessage["status"], Tone> = {
  running: "neutral",
  complete: "success",
  cancelled: "neutral",
  interrupted: "warning",
  error: "danger",
  needs_approval: "warning",
};

/** A tool call's tone: its approval's when it had one (an approved call that then failed is a
 * failure), else failed or done. */
export function toolTone(isError: boolean, approval: ApprovalPublic["status"] | null): Tone {
  if (isError) return "danger";
  return approval === null ? "success" : APPROVAL_TONE[approval];
}
