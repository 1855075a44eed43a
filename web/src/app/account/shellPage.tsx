// The shell's own pages, which every app's frame (Layout) shows at their address in place
// of the app's page: an app's router needs no entry for them.
import type { ReactNode } from "react";
import { AccountPage } from "./AccountPage";
import { ACCOUNT_PATH, USAGE_PATH } from "./paths";
import { UsagePage } from "./UsagePage";

export interface ShellPageOptions {
  email: string | null;
  /** After signing out everywhere: back to the sign-in form. */
  onSignedOut: () => void;
}

/** The shell's page at `pathname`, or null for the app's own. */
export function shellPage(pathname: string, { email, onSignedOut }: ShellPageOptions): ReactNode | null {
  const path = pathname.replace(/\/+$/, "") || "/";
  if (path === ACCOUNT_PATH) return <AccountPage email={email} onSignedOut={onSignedOut} />;
  if (path === USAGE_PATH) return <UsagePage />;
  return null;
}
