import { useEffect, useMemo, useRef } from 'react';
import type { FlowMode, LeadSession, Notice } from '#machines/protocol/common.js';
import type { PaymentPurpose } from '#machines/protocol/payment.js';
import { useToast } from '#web/components/ui/index.js';
import type { PublicConfig } from '#web/lib/flows/client.js';
import { FlowIdStore } from '#web/lib/flows/storage.js';
import { flowSlot, recordTestPayment, rememberLeadSession } from '#web/lib/browser-storage.js';
import type { useDisplayResult } from '../local-grading.js';
import { closeUnusedCheckoutTab } from '../steps/next-steps/checkout-tab.js';
import { LOCAL_RESULTS_NOTICE } from '../steps/results.js';
import type { AssessmentFlow } from './types.js';

/*
 * What the modal does beside showing the step: this tab's records of the flow, the notices it
 * raises once, and the reopening of a path that had ended.
 */

/** The lead session, per tab, once there is a lead. */
export function useLeadSessionMemory(session: LeadSession): void {
  useEffect(() => {
    if (session.leadId) rememberLeadSession(session);
  }, [session]);
}

/** A finished assessment is no longer offered to new tabs: the server opens them at completed_results instead. */
export function useUnshareFinished(step: string, held: boolean, mode: FlowMode): void {
  const ids = useMemo(() => new FlowIdStore(), []);
  useEffect(() => {
    if (step === 'results' && !held) ids.unshare(flowSlot(mode));
  }, [step, held, ids, mode]);
}

/** Results graded in the browser are announced, once. */
export function useLocalResultsNotice(step: string, display: ReturnType<typeof useDisplayResult>): void {
  const { toast } = useToast();
  const announced = useRef(false);
  useEffect(() => {
    if (step === 'results' && display.result?.fallback && !display.pending && !announced.current) {
      announced.current = true;
      toast({ ...LOCAL_RESULTS_NOTICE });
    }
  }, [step, display.result, display.pending, toast]);
}

/** Where a path ends: reopened there, the modal shows the results again with it (VIEW_RESULTS). */
const PATH_ENDS = new Set([
  'payment_success.confirmed',
  'payment_success.booking_opened',
  'payment_success.booked',
  'homework_processing.sent',
  'no_flow.joined',
]);

/** Reopened where a path ended (and no message waits there): the results again, with that path's state. */
export function useReopenAtPathEnd(
  reopened: boolean,
  { confirmed, state, notice, send }: { confirmed: boolean; state: string; notice: Notice | null; send: AssessmentFlow['send'] },
): void {
  const reopening = useRef(reopened);
  useEffect(() => {
    if (!reopening.current || !confirmed) return;
    reopening.current = false;
    if (PATH_ENDS.has(state) && !notice) send({ type: 'VIEW_RESULTS' });
  }, [confirmed, state, notice, send]);
}

/** A blank checkout tab opened by the deposit click goes once the flow has left payment without a checkout url. */
export function useCheckoutTabCleanup(step: string): void {
  useEffect(() => {
    if (step !== 'payment') closeUnusedCheckoutTab();
  }, [step]);
}

/** The test payment sets local flags (once the server has confirmed it). */
export function useTestPaymentFlags(
  paymentMode: PublicConfig['paymentMode'] | undefined,
  { paymentIntentId, purpose, depositCents }: { paymentIntentId: string | null; purpose: PaymentPurpose | null; depositCents: number },
): void {
  useEffect(() => {
    if (paymentMode === 'test' && paymentIntentId && purpose) recordTestPayment({ paymentIntentId, purpose, amountCents: depositCents });
  }, [paymentMode, paymentIntentId, purpose, depositCents]);
}
