import { useEffect, useState } from "react";

const read = () => window.location.hash.replace(/^#\/?/, "").split("/").filter(Boolean).map(decodeURIComponent);

/**
 * Pages live in the URL's fragment (`#/shipments/12`): the server answers one document for the
 * whole dashboard, and a sign-in link's token in the fragment never reaches any server's log.
 */
export function useRoute(): string[] {
  const [route, setRoute] = useState(read);
  useEffect(() => {
    const changed = () => setRoute(read());
    window.addEventListener("hashchange", changed);
    return () => window.removeEventListener("hashchange", changed);
  }, []);
  return route;
}

export const go = (path: string) => {
  window.location.hash = path;
};
