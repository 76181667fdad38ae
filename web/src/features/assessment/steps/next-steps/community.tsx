import { BulletList } from '#web/components/ui/index.js';
import { useSiteSettings } from '#web/lib/site-settings.js';
import { DoneMark } from '../../ui.js';
import { BackToResults, OutLink, SeeResults } from './links.js';

/** no_flow: the free community. */
export function NoFlowStep({
  joined,
  onJoin,
  onBack,
  onViewResults,
}: {
  joined: boolean;
  onJoin: () => void;
  onBack: () => void;
  onViewResults: () => void;
}) {
  const { communityUrl } = useSiteSettings();
  if (joined) {
    return (
      <div className="flex flex-col items-center gap-5 py-6 text-center">
        <DoneMark />
        <p className="font-serif text-2xl text-ink">Welcome aboard</p>
        <p className="max-w-md text-base leading-relaxed text-muted">
          The community opened in a new tab. Introduce yourself and mention your archetype: you will find leaders working on the same
          things.
        </p>
        <OutLink href={communityUrl} variant="secondary">
          Open the Community Again
        </OutLink>
        <SeeResults onView={onViewResults} />
      </div>
    );
  }
  return (
    <div className="flex flex-col gap-7">
      <p className="text-lg leading-relaxed text-ink">
        The best next step for you is momentum, not a big commitment. Our free community has practical resources, live Q&As and leaders
        working on exactly what your results describe.
      </p>
      <BulletList
        items={[
          'Monthly live Q&A sessions with the coach',
          'Guides and templates for each leadership archetype',
          'Peers to compare notes with, privately',
        ]}
      />
      <div className="flex flex-col gap-3 sm:flex-row sm:items-center">
        <OutLink href={communityUrl} onClick={onJoin}>
          Join the Free Community
        </OutLink>
        <BackToResults onBack={onBack} />
      </div>
    </div>
  );
}
