import { Button } from '#web/components/ui/index.js';
import type { Notice } from '#machines/protocol/common.js';
import { NoticeBox, StepEyebrow, TestLeadNote } from '../../ui.js';
import { formatDeposit } from './deposit.js';
import { BackToResults } from './links.js';

/** maybe_flow: paid homework or free resources. */
export function MaybeFlowStep({
  notice,
  testing,
  depositCents,
  onPay,
  onFree,
  onBack,
}: {
  notice: Notice | null;
  testing: boolean;
  depositCents: number;
  onPay: () => void;
  onFree: () => void;
  onBack: () => void;
}) {
  return (
    <div className="flex flex-col gap-7">
      <NoticeBox notice={notice} />
      <p className="text-lg leading-relaxed text-ink">Two ways to turn your results into progress. Choose the one that fits this season.</p>
      {testing && <TestLeadNote />}
      <div className="grid gap-4 sm:grid-cols-2">
        <div className="flex flex-col gap-3 rounded-3xl border border-brass/60 bg-sand p-6">
          <StepEyebrow>Personal homework</StepEyebrow>
          <p className="font-serif text-xl text-ink">A plan written for your results</p>
          <p className="flex-1 text-sm leading-relaxed text-muted">
            Pay the {formatDeposit(depositCents)} refundable deposit and we email you homework built on your archetype and scores, with your
            full report.
          </p>
          <Button onClick={onPay}>Pay Deposit and Get Homework</Button>
        </div>
        <div className="flex flex-col gap-3 rounded-3xl border border-line bg-white p-6">
          <StepEyebrow>Free resources</StepEyebrow>
          <p className="font-serif text-xl text-ink">Start on your own</p>
          <p className="flex-1 text-sm leading-relaxed text-muted">Our free guides for your archetype, sent to your inbox straight away.</p>
          <Button variant="secondary" onClick={onFree}>
            Send Me Free Resources
          </Button>
        </div>
      </div>
      <div>
        <BackToResults onBack={onBack} />
      </div>
    </div>
  );
}
