// Who is signed in, for the frame's links (Usage only for admins); null until known, and
// when the server cannot say (the app's own 401 handling signs the user out).
import { useEffect, useState } from "react";
import type { UserPublic } from "@pagechat/react";
import { accountApi } from "./accountApi";

export function useMe(): UserPublic | null {
  const [me, setMe] = useState<UserPublic | null>(null);
  useEffect(() => {
    let live = true;
    accountApi.me().then(
      (user) => {
        if (live) setMe(user);
      },
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, []);
  return me;
}
