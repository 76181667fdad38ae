import { useEffect, useState } from 'react';
import type { PublicConfig } from '#web/lib/flows/client.js';
import { sharedFlowClient } from '#web/lib/flows/use-server-flow.js';

/** The server's public configuration (payment mode, deposit, booking url); null until it answers, and if it never does. */
export function usePublicConfig(): PublicConfig | null {
  const client = sharedFlowClient();
  const [config, setConfig] = useState<PublicConfig | null>(null);
  useEffect(() => {
    let live = true;
    client.config().then(
      (answer) => live && setConfig(answer),
      () => {},
    );
    return () => {
      live = false;
    };
  }, [client]);
  return config;
}
