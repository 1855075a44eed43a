// What a failed request says to the user.
import { HttpError } from "../api";

/**
 * The server's own words for a refused request (its `detail`), else the words `byStatus` has
 * for its status, else the generic ones; `fallback` when the server was not reached.
 */
export function errorMessage(error: unknown, fallback: string, byStatus: Record<number, string> = {}): string {
  if (!(error instanceof HttpError)) return fallback;
  const said = typeof error.detail === "string" && error.detail !== "";
  return said ? error.message : (byStatus[error.status] ?? error.message);
}
