import { useState } from "react";
import { Button } from "@pagechat/react";
import type { ApiKeyInfo } from "./accountApi";

export interface ApiKeyRowProps {
  apiKey: ApiKeyInfo;
  onRevoke: (id: string) => Promise<void>;
}

function day(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : date.toLocaleDateString(undefined, { year: "numeric", month: "short", day: "numeric" });
}

/** One key: its name, its first characters and when it was made; Revoke asks once more. */
export function ApiKeyRow({ apiKey, onRevoke }: ApiKeyRowProps) {
  const [asking, setAsking] = useState(false);
  const [busy, setBusy] = useState(false);
  const revoke = () => {
    setBusy(true);
    onRevoke(apiKey.id).catch(() => {
      setBusy(false);
    });
  };
  return (
    <li className="app-key">
      <span className="app-key-name">{apiKey.name}</span>
      <code>{apiKey.prefix}…</code>
      <span className="app-key-date">made {day(apiKey.created_at)}</span>
      <span className="app-row">
        {asking ? (
          <>
            <Button variant="danger" size="sm" disabled={busy} onClick={revoke}>
              Revoke “{apiKey.name}”
            </Button>
            <Button size="sm" disabled={busy} onClick={() => { setAsking(false); }}>
              Keep
            </Button>
          </>
        ) : (
          <Button size="sm" aria-label={`Revoke ${apiKey.name}`} onClick={() => { setAsking(true); }}>
            Revoke
          </Button>
        )}
      </span>
    </li>
  );
}
