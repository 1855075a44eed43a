import { useMemo, useState, type SubmitEvent } from "react";
import { createChatApi } from "@pagechat/react";

export function LoginForm({ onLogin }: { onLogin: () => void }) {
  const api = useMemo(() => createChatApi({ getToken: () => null }), []);
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    api.login(email, password).then(
      () => {
        // The server set the session cookie; the token in the answer is for API clients.
        onLogin();
      },
      (e: unknown) => {
        setError(e instanceof Error ? e.message : "Sign-in failed.");
        setBusy(false);
      },
    );
  };

  return (
    <main className="app-login">
      <form className="app-card" onSubmit={submit} aria-label="Sign in">
        <h1>Sign in</h1>
        <label>
          Email
          <input type="email" autoComplete="username" required value={email} onChange={(e) => { setEmail(e.target.value); }} />
        </label>
        <label>
          Password
          <input type="password" autoComplete="current-password" required value={password} onChange={(e) => { setPassword(e.target.value); }} />
        </label>
        {error !== null && (
          <p className="app-error" role="alert">
            {error}
          </p>
        )}
        <button type="submit" disabled={busy}>
          {busy ? "Signing in…" : "Sign in"}
        </button>
      </form>
    </main>
  );
}
