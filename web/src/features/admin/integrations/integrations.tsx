import { useState } from 'react';
import { integrationListSchema, type Integration } from '#machines/protocol/admin/integrations.js';
import { cx } from '#web/components/ui/index.js';
import { useAdminResource } from '../api.js';
import { IntegrationCard } from './card.js';
import { CARDS, CATEGORIES, type Category } from './cards.js';
import { SupportCard } from './support-card.js';
import { ErrorState, RefreshButton, ScreenHeader, Skeleton } from '../states.js';

/** /admin/integrations: the product's cards, stored on the server. */
export function IntegrationsScreen() {
  const { data, loading, failed, reload, update } = useAdminResource('/api/admin/integrations', integrationListSchema);
  const [category, setCategory] = useState<'All' | Category>('All');
  const byKey = new Map((data?.integrations ?? []).map((setting) => [setting.key, setting]));
  const shown = CARDS.filter((card) => category === 'All' || card.category === category);
  const replace = (saved: Integration) =>
    update((current) => ({ integrations: current.integrations.map((setting) => (setting.key === saved.key ? saved : setting)) }));

  return (
    <>
      <title>Integrations | Admin | Leadership Coaching</title>
      <ScreenHeader
        title="Integrations"
        description="Connect payments, scheduling, automation, marketing and chat. Settings are kept on the server."
        actions={<RefreshButton loading={loading} onClick={reload} />}
      />
      <div role="group" aria-label="Filter by category" className="mb-6 flex flex-wrap gap-2">
        {CATEGORIES.map((name) => (
          <button
            key={name}
            type="button"
            aria-pressed={category === name}
            onClick={() => setCategory(name)}
            className={cx(
              'min-h-10 rounded-full border px-4 text-sm font-semibold transition-colors focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brass',
              category === name ? 'border-ink bg-ink text-white' : 'border-line bg-white text-ink hover:border-ink/40',
            )}
          >
            {name}
          </button>
        ))}
      </div>
      {failed && !data ? (
        <ErrorState onRetry={reload} />
      ) : !data ? (
        <div className="grid gap-4 md:grid-cols-2 xl:grid-cols-3" aria-busy="true">
          {[0, 1, 2].map((n) => (
            <div key={n} className="flex flex-col gap-3 rounded-3xl border border-line bg-white p-6">
              <Skeleton className="h-6 w-40" />
              <Skeleton className="h-4 w-full" />
              <Skeleton className="h-4 w-2/3" />
            </div>
          ))}
        </div>
      ) : (
        <ul className="grid gap-4 md:grid-cols-2 xl:grid-cols-3" aria-label="Integrations">
          {shown.map((info) => (
            <IntegrationCard key={info.key} info={info} setting={byKey.get(info.key)!} onChange={replace} />
          ))}
        </ul>
      )}
      <SupportCard />
    </>
  );
}
