// The ids the tray gives messages before the server's are known.

/** Ids of the messages this session adds (`user-local-1`, `action-local-2`, ...). */
export class LocalIds {
  private counter = 0;

  next(prefix: string): string {
    this.counter += 1;
    return `${prefix}-local-${String(this.counter)}`;
  }
}

/**
 * Whether `id` is one the tray gave a message of this session's turns: its own (`-local-`)
 * or the reducer's for a live answer (`partial-`, `assistant-`, `streaming`). Stored
 * messages carry the server's hex ids.
 */
export function isLocalId(id: string): boolean {
  return id.includes("-local-") || id.startsWith("partial-") || id.startsWith("assistant-") || id === "streaming";
}
