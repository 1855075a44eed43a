import type { PayloadHandler } from "../payloadRegistry";
import { DECISION_TONE } from "../status";
import type { CustomPayload, PayloadDecision } from "../types";

export interface PayloadView {
  payload: CustomPayload;
  handler: PayloadHandler;
  /** What the user did with it: set on the message's primary payload only. */
  decision: PayloadDecision | null;
}

export interface PayloadViewButtonsProps {
  views: PayloadView[];
  onView: (payload: CustomPayload) => void;
}

const DECISION_LABEL: Partial<Record<PayloadDecision, string>> = {
  accepted: "Accepted",
  rejected: "Rejected",
};

/** Reopens a message's payloads in the side panel, each marked with what was decided in it. */
export function PayloadViewButtons({ views, onView }: PayloadViewButtonsProps) {
  if (views.length === 0) return null;
  return (
    <div className="pc-payload-views">
      {views.map(({ payload, handler, decision }, i) => {
        const title = handler.renderOptions?.headerTitle ?? payload.type;
        const label = decision === null ? undefined : DECISION_LABEL[decision];
        return (
          <span key={`${String(i)}-${payload.type}`} className="pc-payload-view-item" data-decision={decision ?? undefined}>
            <button
              type="button"
              className="pc-payload-view"
              onClick={() => {
                onView(payload);
              }}
            >
              {handler.renderOptions?.headerIcon && <span aria-hidden="true">{handler.renderOptions.headerIcon} </span>}
              View {title}
            </button>
            {label && decision !== null && (
              <span className="pc-payload-decision" data-tone={DECISION_TONE[decision]}>
                {label}
              </span>
            )}
          </span>
        );
      })}
    </div>
  );
}
