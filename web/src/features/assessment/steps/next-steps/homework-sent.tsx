import { DoneMark, TestLeadNote, Waiting } from '../../ui.js';
import { SeeResults } from './links.js';

/** homework_processing: resources on their way, then sent. */
export function HomeworkStep({
  sent,
  email,
  testing,
  onViewResults,
}: {
  sent: boolean;
  email: string | null;
  testing: boolean;
  onViewResults: () => void;
}) {
  if (!sent) return <Waiting title="Sending your resources">{email ? <p>On their way to {email}.</p> : null}</Waiting>;
  if (testing) {
    return (
      <div className="flex flex-col items-center gap-5 py-6 text-center">
        <DoneMark />
        <p className="font-serif text-2xl text-ink">Free resources chosen</p>
        <TestLeadNote />
        <SeeResults onView={onViewResults} />
      </div>
    );
  }
  return (
    <div className="flex flex-col items-center gap-5 py-6 text-center">
      <DoneMark />
      <p className="font-serif text-2xl text-ink">Check your inbox</p>
      <p className="max-w-md text-base leading-relaxed text-muted">
        Your free resources are on their way{email ? ` to ${email}` : ''}. Start with the guide for your archetype: it takes ten minutes and
        pairs with the three actions in your results.
      </p>
      <SeeResults onView={onViewResults} />
    </div>
  );
}
