import { useEffect, useState } from 'react';
import { Temporal } from 'temporal-polyfill';

const TICK_MS = 30_000;

/** The current instant, refreshed every 30 s so slots inside the 20-minute notice disappear. */
export function useNow(): Temporal.Instant {
  const [now, setNow] = useState(() => Temporal.Now.instant());
  useEffect(() => {
    const id = setInterval(() => setNow(Temporal.Now.instant()), TICK_MS);
    return () => clearInterval(id);
  }, []);
  return now;
}
