// The chat's state as a plain store: the reducer's state, its listeners, and the batching
// of stream events, so the UI updates at most once per animation frame however fast tokens
// arrive. Everything else in the controller changes the state only through it.
import { chatReducer, initialChatState, type ChatAction, type ChatState } from "../state";

/** Runs `flush` soon, batching everything queued until then. */
export type Scheduler = (flush: () => void) => void;

/** Once per animation frame; a hidden tab gets no frames, so it falls back to a timer there. */
export const frameScheduler: Scheduler = (flush) => {
  const hidden = typeof document !== "undefined" && document.visibilityState === "hidden";
  if (typeof requestAnimationFrame === "function" && !hidden) {
    requestAnimationFrame(() => {
      flush();
    });
  } else {
    setTimeout(flush, 16);
  }
};

/** The state, its subscribers, and stream events queued until the next flush. */
export class ChatStore {
  private state: ChatState = initialChatState;
  private readonly listeners = new Set<() => void>();
  private queue: ChatAction[] = [];
  private flushScheduled = false;
  private current = 0;

  constructor(private readonly schedule: Scheduler = frameScheduler) {}

  getState = (): ChatState => this.state;

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  };

  /**
   * Which showing of the chat this is. It changes when what is shown is replaced (another
   * conversation, a new one): work started before then must not show its result.
   */
  get generation(): number {
    return this.current;
  }

  /** Replaces what is shown from here on: a new generation, and queued events are dropped. */
  nextGeneration(): void {
    this.current += 1;
    this.queue = [];
  }

  /** Applies `action` now, after the events queued before it (so their order is kept). */
  dispatch(action: ChatAction): void {
    for (const queued of this.queue) this.apply(queued);
    this.queue = [];
    this.apply(action);
    this.notify();
  }

  /** Queues `action` (a stream event) for the next scheduled flush. */
  enqueue(action: ChatAction): void {
    this.queue.push(action);
    if (this.flushScheduled) return;
    this.flushScheduled = true;
    this.schedule(() => {
      this.flushScheduled = false;
      this.flush();
    });
  }

  /** Applies the queued events now, in one update (none queued: nothing happens). */
  flush(): void {
    if (this.queue.length === 0) return;
    const queued = this.queue;
    this.queue = [];
    for (const action of queued) this.apply(action);
    this.notify();
  }

  private apply(action: ChatAction): void {
    this.state = chatReducer(this.state, action);
  }

  private notify(): void {
    for (const listener of this.listeners) listener();
  }
}
