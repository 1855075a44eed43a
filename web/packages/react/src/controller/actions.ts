// A page's server actions run in the conversation (chat buttons and payload cards alike), and
// their results kept as action messages shaped as the server stores them, so a reload shows
// the same.
import type { ChatApi } from "../api";
import { emptyMessage } from "../state";
import type { ActionResult, ChatMessage, SuggestedAction } from "../types";
import { errorMessage } from "./errors";
import type { LocalIds } from "./ids";
import type { ChatStore } from "./store";

/** The payload type of a stored server action's result. */
export const ACTION_RESULT = "action_result";

export interface ServerActionsOptions {
  store: ChatStore;
  api: ChatApi;
  ids: LocalIds;
  /** The page context the action runs with. */
  getContext: () => Record<string, unknown>;
}

/** Runs server actions and shows what each did. */
export class ServerActions {
  private readonly store: ChatStore;
  private readonly api: ChatApi;
  private readonly ids: LocalIds;
  private readonly getContext: () => Record<string, unknown>;

  constructor({ store, api, ids, getContext }: ServerActionsOptions) {
    this.store = store;
    this.api = api;
    this.ids = ids;
    this.getContext = getContext;
  }

  /** Runs the server action of a chat button: see runAction. */
  runServerAction = (action: SuggestedAction): Promise<ActionResult> => this.runAction(action.action, action.data ?? {});

  /**
   * Runs a server action of the page in this conversation and shows its result as an action
   * message. A failure to reach the server reads as the action failing, with the reason.
   */
  runAction = async (action: string, data: Record<string, unknown> = {}): Promise<ActionResult> => {
    let result: ActionResult;
    try {
      result = await this.api.runAction({
        conversation_id: this.store.getState().conversationId,
        action,
        data,
        context: this.getContext(),
      });
    } catch (error) {
      result = { action, ok: false, message: errorMessage(error, "The action could not be run."), data: null };
    }
    this.store.dispatch({ type: "append", message: actionMessage(this.ids.next("action"), action, data, result) });
    return result;
  };
}

/**
 * An action's result as the server stores it (store/records.py action_summary): a failure reads
 * as one, with the reason the action gave, here and after a reload.
 */
export function actionMessage(id: string, action: string, input: Record<string, unknown>, result: ActionResult): ChatMessage {
  const reason = result.message !== "" ? `: ${result.message}` : "";
  const content = result.ok ? `Applied action ${action}${reason}` : `Action ${action} failed${reason || " (no reason given)"}`;
  return {
    ...emptyMessage(id, "action", content),
    status: result.ok ? "complete" : "error",
    custom_payload: { type: ACTION_RESULT, data: { action, input, result } },
  };
}
