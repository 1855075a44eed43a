// What a failed request says to the user.
import { HttpError } from "../api";

/** The server's own words for a refused request (its `detail`), else `fallback`. */
export function errorMessage(error: unknown, fallback: string): string {
  if (error instanceof HttpError) return error.message;
  return fallback;
}
