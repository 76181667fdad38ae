import { useEffect, useState } from 'react';
import { bookingReferenceResponseSchema } from '#machines/protocol/api.js';
import { api } from '#web/lib/api.js';

/**
 * The flow's booking reference (decision 0046), asked of the server once the deposit is paid: the
 * booking link carries it so the provider's event names this flow. Null until it arrives, and if
 * it cannot (offline): the link still books, and the coach assigns a booking without a reference.
 */
export function useBookingReference(flowId: string, wanted: boolean): string | null {
  const [reference, setReference] = useState<{ flowId: string; value: string } | null>(null);
  const known = reference?.flowId === flowId;
  useEffect(() => {
    if (!wanted || known) return;
    const controller = new AbortController();
    api(`/api/flows/${encodeURIComponent(flowId)}/booking-reference`, { schema: bookingReferenceResponseSchema, signal: controller.signal })
      .then((answer) => setReference({ flowId, value: answer.reference }))
      .catch(() => {});
    return () => controller.abort();
  }, [flowId, wanted, known]);
  return known ? reference.value : null;
}
