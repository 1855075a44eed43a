import { useState } from "react";
import { Button } from "@pagechat/react";
import { accountApi } from "./accountApi";

export interface SignOutEverywhereProps {
  /** Called once every session, this one included, has ended: back to the sign-in form. */
  onSignedOut: () => void;
}

/** Ends every session of the account (other browsers, other devices, this one); asks first. */
export function SignOutEverywhere({ onSignedOut }: SignOutEverywhereProps) {
  const [asking, setAsking] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const confirm = () => {
    setBusy(true);
    setError(null);
    accountApi.signOutEverywhere().then(onSignedOut, (e: unknown) => {
      setError(e instanceof Error ? e.message : "Signing out failed.");
      setBusy(false);
    });
  };
  return (
    <section className="app-card" aria-labelledby="everywhere-title">
      <h2 id="everywhere-title">Sessions</h2>
      <p>Sign out on every browser and device where this account is signed in, this one included. API keys keep working.</p>
      {error !== null && (
        <p className="app-error" role="alert">
          {error}
        </p>
      )}
      <div className="app-row">
        {asking ? (
          <>
            <Button variant="danger" disabled={busy} onClick={confirm}>
              {busy ? "Signing out…" : "Yes, sign out everywhere"}
            </Button>
            <Button disabled={busy} onClick={() => { setAsking(false); }}>
              Cancel
            </Button>
          </>
        ) : (
          <Button variant="danger" onClick={() => { setAsking(true); }}>
            Sign out everywhere
          </Button>
        )}
      </div>
    </section>
  );
}
