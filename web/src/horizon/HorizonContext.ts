import { createContext, useContext } from "react";
import type { HorizonApi } from "./api";

export const HorizonApiContext = createContext<HorizonApi | null>(null);

/** The signed-in user's Horizon API client. */
export function useHorizonApi(): HorizonApi {
  const api = useContext(HorizonApiContext);
  if (api === null) throw new Error("useHorizonApi needs a HorizonApiContext provider");
  return api;
}
