// The account page: the password, the account's sessions, its API keys.
import { ApiKeys } from "./ApiKeys";
import { PasswordForm } from "./PasswordForm";
import { SignOutEverywhere } from "./SignOutEverywhere";

export interface AccountPageProps {
  email: string | null;
  onSignedOut: () => void;
}

export function AccountPage({ email, onSignedOut }: AccountPageProps) {
  return (
    <section className="app-stack" aria-labelledby="account-title">
      <h1 id="account-title">Account</h1>
      {email !== null && <p className="app-note">Signed in as {email}.</p>}
      <PasswordForm />
      <ApiKeys />
      <SignOutEverywhere onSignedOut={onSignedOut} />
    </section>
  );
}
