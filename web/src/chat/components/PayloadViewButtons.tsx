import type { PayloadHandler } from "../payloadRegistry";
import type { CustomPayload } from "../types";

export interface PayloadView {
  payload: CustomPayload;
  handler: PayloadHandler;
}

export interface PayloadViewButtonsProps {
  views: PayloadView[];
  onView: (payload: CustomPayload) => void;
}

/** Reopens a message's payloads in the side panel. */
export function PayloadViewButtons({ views, onView }: PayloadViewButtonsProps) {
  if (views.length === 0) return null;
  return (
    <div className="pc-payload-views">
      {views.map(({ payload, handler }, i) => {
        const title = handler.renderOptions?.headerTitle ?? payload.type;
        return (
          <button
            key={`${String(i)}-${payload.type}`}
            type="button"
            className="pc-payload-view"
            onClick={() => {
              onView(payload);
            }}
          >
            {handler.renderOptions?.headerIcon && <span aria-hidden="true">{handler.renderOptions.headerIcon} </span>}
            View {title}
          </button>
        );
      })}
    </div>
  );
}
