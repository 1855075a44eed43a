import { useCallback, useState, type SubmitEvent } from "react";
import { Button } from "@pagechat/react";
import { useLoad } from "../useLoad";
import { accountApi, type ApiKeyCreated } from "./accountApi";
import { ApiKeyRow } from "./ApiKeyRow";
import { NewApiKey } from "./NewApiKey";

/** The account's API keys, for programs (`Authorization: Bearer pck_…`): list, make one
 * (its key shown once), revoke one (it stops working at once). */
export function ApiKeys() {
  const load = useCallback(() => accountApi.apiKeys(), []);
  const { state, reload } = useLoad(load);
  const [name, setName] = useState("");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [created, setCreated] = useState<ApiKeyCreated | null>(null);

  const create = (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    accountApi.createApiKey(name).then(
      (made) => {
        setCreated(made);
        setName("");
        setBusy(false);
        reload();
      },
      (e: unknown) => {
        setError(e instanceof Error ? e.message : "The key could not be made.");
        setBusy(false);
      },
    );
  };
  const revoke = async (id: string) => {
    setError(null);
    try {
      await accountApi.revokeApiKey(id);
    } catch (e) {
      setError(e instanceof Error ? e.message : "The key could not be revoked.");
      throw e;
    }
    if (created?.id === id) setCreated(null);
    reload();
  };

  return (
    <section className="app-card" aria-labelledby="keys-title">
      <h2 id="keys-title">API keys</h2>
      <p>Keys let programs use this account. Signing out does not end them; revoking does.</p>
      {created !== null && (
        <NewApiKey
          created={created}
          onDone={() => {
            setCreated(null);
          }}
        />
      )}
      {state.status === "loading" && <p className="app-loading">Loading…</p>}
      {state.status === "error" && (
        <p className="app-error" role="alert">
          The keys could not be loaded: {state.error.message}
        </p>
      )}
      {state.status === "ready" &&
        (state.data.length === 0 ? (
          <p className="app-note">No API keys yet.</p>
        ) : (
          <ul className="app-keys" aria-label="Your API keys">
            {state.data.map((key) => (
              <ApiKeyRow key={key.id} apiKey={key} onRevoke={revoke} />
            ))}
          </ul>
        ))}
      {error !== null && (
        <p className="app-error" role="alert">
          {error}
        </p>
      )}
      <form className="app-row app-key-form" onSubmit={create} aria-label="Create an API key">
        <label>
          Name
          <input required maxLength={100} value={name} placeholder="e.g. reporting script" onChange={(e) => { setName(e.target.value); }} />
        </label>
        <Button type="submit" disabled={busy}>
          {busy ? "Creating…" : "Create key"}
        </Button>
      </form>
    </section>
  );
}
