import { BulletList, Button } from '#web/components/ui/index.js';
import type { Notice } from '#machines/protocol/common.js';
import { NoticeBox, StepEyebrow } from '../../ui.js';
import { formatDeposit } from './deposit.js';
import { BackToResults } from './links.js';

/** yes_flow: the strategy session and its refundable deposit. */
export function YesFlowStep({
  notice,
  depositCents,
  onPay,
  onBack,
}: {
  notice: Notice | null;
  depositCents: number;
  onPay: () => void;
  onBack: () => void;
}) {
  const deposit = formatDeposit(depositCents);
  return (
    <div className="flex flex-col gap-7">
      <NoticeBox notice={notice} />
      <div className="flex flex-col gap-3">
        <StepEyebrow>One to one · 45 minutes</StepEyebrow>
        <p className="text-lg leading-relaxed text-ink">
          A focused working session on your results: what is holding your leadership back, what to change first, and whether coaching is the
          right way to get there.
        </p>
      </div>
      <BulletList
        items={[
          'Walk through your archetype and six dimension scores together',
          'Leave with the two or three changes that matter most',
          'An honest view of whether a coaching engagement would help',
        ]}
      />
      <div className="flex flex-col gap-4 rounded-3xl border border-brass/60 bg-sand p-6">
        <div className="flex flex-wrap items-baseline justify-between gap-2">
          <p className="font-serif text-3xl text-ink">{deposit}</p>
          <p className="text-sm font-semibold text-brass-deep">100% refundable deposit</p>
        </div>
        <p className="text-sm leading-relaxed text-muted">
          The deposit holds your session and is refunded in full, whether or not you go on to work together.
        </p>
        <div className="flex flex-col gap-3 sm:flex-row sm:items-center">
          <Button size="lg" onClick={onPay}>
            Pay {deposit} Refundable Deposit
          </Button>
          <BackToResults onBack={onBack} />
        </div>
      </div>
    </div>
  );
}
