import type pg from 'pg';

/**
 * The one writer of webhook_receipts (core/db/table-owners.ts). Records a provider's event id
 * once, with the caller's client, so the receipt commits with what the event does: a retried or
 * replayed delivery finds it and changes nothing, and a failure leaves none (the provider retries).
 * True the first time.
 */
export async function recordWebhookReceipt(db: pg.ClientBase, provider: string, eventId: string, type: string): Promise<boolean> {
  const receipt = await db.query('INSERT INTO webhook_receipts (provider, event_id, type) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING', [
    provider,
    eventId,
    type,
  ]);
  return Boolean(receipt.rowCount);
}
