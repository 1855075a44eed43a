// The server's payload types for the tray (see payloadTypes.ts): asked for once the
// conversation holds a payload, so a chat without cards never asks; null until they arrive.
import { useEffect, useState } from "react";
import type { ChatApi } from "./api";
import { loadPayloadTypes, type PayloadTypeCatalog } from "./payloadTypes";

export function usePayloadTypes(api: ChatApi, needed: boolean): PayloadTypeCatalog | null {
  const [catalog, setCatalog] = useState<PayloadTypeCatalog | null>(null);
  const wanted = needed || catalog !== null;
  useEffect(() => {
    if (!wanted) return;
    let live = true;
    void loadPayloadTypes(api).then((found) => {
      if (live) setCatalog(found);
    });
    return () => {
      live = false;
    };
  }, [api, wanted]);
  return catalog;
}
