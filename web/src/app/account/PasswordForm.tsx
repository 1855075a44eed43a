import { useState, type SubmitEvent } from "react";
import { Button } from "@pagechat/react";
import { accountApi } from "./accountApi";

type Outcome = { kind: "error"; text: string } | { kind: "done"; text: string } | null;

function sessionsEnded(n: number): string {
  if (n === 0) return "Password changed.";
  return `Password changed. ${String(n)} other ${n === 1 ? "session was" : "sessions were"} signed out.`;
}

/** Change the password: the current one, then the new one. The server checks both (a wrong
 * current password, a weak new one, too many tries) and its reason is shown as it says it. */
export function PasswordForm() {
  const [current, setCurrent] = useState("");
  const [next, setNext] = useState("");
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<Outcome>(null);
  const submit = (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    setBusy(true);
    setOutcome(null);
    accountApi.changePassword(current, next).then(
      (answer) => {
        setCurrent("");
        setNext("");
        setOutcome({ kind: "done", text: sessionsEnded(answer.other_sessions_ended) });
        setBusy(false);
      },
      (error: unknown) => {
        setOutcome({ kind: "error", text: error instanceof Error ? error.message : "The password could not be changed." });
        setBusy(false);
      },
    );
  };
  return (
    <form className="app-card" aria-labelledby="password-title" onSubmit={submit}>
      <h2 id="password-title">Password</h2>
      <label>
        Current password
        <input type="password" autoComplete="current-password" required value={current} onChange={(e) => { setCurrent(e.target.value); }} />
      </label>
      <label>
        New password
        <input type="password" autoComplete="new-password" required value={next} onChange={(e) => { setNext(e.target.value); }} />
      </label>
      {outcome?.kind === "error" && (
        <p className="app-error" role="alert">
          {outcome.text}
        </p>
      )}
      {outcome?.kind === "done" && (
        <p className="app-success" role="status">
          {outcome.text}
        </p>
      )}
      <div className="app-row">
        <Button type="submit" variant="primary" disabled={busy}>
          {busy ? "Changing…" : "Change password"}
        </Button>
      </div>
    </form>
  );
}
