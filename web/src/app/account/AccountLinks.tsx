import { Link } from "../router";
import "./account.css";
import { ACCOUNT_PATH, USAGE_PATH } from "./paths";

export interface AccountLinksProps {
  email: string | null;
  isAdmin: boolean;
  pathname: string;
}

/** The header's links to the shell's pages: for an admin the usage figures, and the
 * account, named by its email (its visible text is its name; the title says what is there). */
export function AccountLinks({ email, isAdmin, pathname }: AccountLinksProps) {
  const current = (path: string) => (pathname === path ? "page" : undefined);
  return (
    <nav aria-label="Account" className="app-account-nav">
      {isAdmin && (
        <Link to={USAGE_PATH} aria-current={current(USAGE_PATH)} data-current={pathname === USAGE_PATH || undefined}>
          Usage
        </Link>
      )}
      <Link
        to={ACCOUNT_PATH}
        className="app-user"
        title="Account: password, API keys, sessions"
        aria-current={current(ACCOUNT_PATH)}
        data-current={pathname === ACCOUNT_PATH || undefined}
      >
        {email ?? "Account"}
      </Link>
    </nav>
  );
}
