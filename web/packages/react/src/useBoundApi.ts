// The tray's API client, made once and bound to the host's latest token getter and 401 callback.
import { useEffect, useState } from "react";
import { createChatApi, type ChatApi, type TokenGetter } from "./api";

function _boundApi(baseUrl: string, getToken: TokenGetter, onUnauthorized?: () => void) {
  let auth = { getToken, onUnauthorized };
  const api = createChatApi({
    baseUrl,
    getToken: () => auth.getToken(),
    onUnauthorized: () => auth.onUnauthorized?.(),
  });
  return {
    api,
    bind(next: TokenGetter, nextOnUnauthorized?: () => void) {
      auth = { getToken: next, onUnauthorized: nextOnUnauthorized };
    },
  };
}

/** `given` (a ready-made client, in tests) or one made from baseUrl that always uses the latest getToken. */
export function useBoundApi(
  baseUrl: string,
  getToken: TokenGetter,
  onUnauthorized: (() => void) | undefined,
  given: ChatApi | undefined,
): ChatApi {
  const [bound] = useState(() => _boundApi(baseUrl, getToken, onUnauthorized));
  useEffect(() => {
    bound.bind(getToken, onUnauthorized);
  }, [bound, getToken, onUnauthorized]);
  return given ?? bound.api;
}
