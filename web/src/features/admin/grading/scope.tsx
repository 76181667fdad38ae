import { regradeFilterSchema, type RegradeFilter } from '#machines/protocol/admin/grading.js';
import { Field } from '#web/components/ui/index.js';
import { TIER_LABELS, type Tier } from '../leads-api.js';

/** The dry run's scope as typed: blanks mean any. */
export interface Scope {
  tier: Tier | '';
  source: string;
  from: string;
  to: string;
  includeTestLeads: boolean;
}

export const ANY_SCOPE: Scope = { tier: '', source: '', from: '', to: '', includeTestLeads: false };

/** The scope as the dry run's filter, checked with its schema; errors keyed as the server names them ('filter.from'). */
export function filterOf(scope: Scope): { ok: true; filter: RegradeFilter } | { ok: false; errors: Record<string, string> } {
  const parsed = regradeFilterSchema.safeParse({
    ...(scope.tier && { tier: scope.tier }),
    ...(scope.source.trim() && { source: scope.source.trim() }),
    ...(scope.from && { from: scope.from }),
    ...(scope.to && { to: scope.to }),
    includeTestLeads: scope.includeTestLeads,
  });
  if (parsed.success) return { ok: true, filter: parsed.data };
  const errors: Record<string, string> = {};
  for (const issue of parsed.error.issues) errors[`filter.${issue.path.join('.')}`] ??= issue.message;
  return { ok: false, errors };
}

export const scopeInputId = (key: string) => `grading-scope-${key.replace('filter.', '')}`;

/** Which past leads to try the rules on: current tier, source, sign-up dates, test leads. */
export function ScopeFields({
  scope,
  errors,
  onChange,
}: {
  scope: Scope;
  errors: Record<string, string>;
  onChange: (change: Partial<Scope>) => void;
}) {
  return (
    <fieldset className="grid min-w-0 gap-4 sm:grid-cols-2 lg:grid-cols-4">
      <legend className="sr-only">Which past leads to try them on</legend>
      <div className="flex min-w-0 flex-col gap-2">
        <label htmlFor={scopeInputId('tier')} className="text-sm font-semibold text-ink">
          Current tier
        </label>
        <select
          id={scopeInputId('tier')}
          value={scope.tier}
          onChange={(event) => onChange({ tier: event.target.value as Tier | '' })}
          className="block w-full rounded-xl border border-line bg-white px-4 py-3 text-base text-ink hover:border-ink/40 focus:border-ink focus-visible:outline-2 focus-visible:outline-offset-1"
        >
          <option value="">Any tier</option>
          {(Object.keys(TIER_LABELS) as Tier[]).map((tier) => (
            <option key={tier} value={tier}>
              {TIER_LABELS[tier]}
            </option>
          ))}
        </select>
      </div>
      <Field
        id={scopeInputId('source')}
        label="Source"
        optional
        placeholder="e.g. website"
        value={scope.source}
        error={errors['filter.source']}
        onChange={(event) => onChange({ source: event.target.value.toLowerCase() })}
      />
      <Field
        id={scopeInputId('from')}
        label="Signed up from"
        type="date"
        optional
        value={scope.from}
        error={errors['filter.from']}
        onChange={(event) => onChange({ from: event.target.value })}
      />
      <Field
        id={scopeInputId('to')}
        label="Signed up until"
        type="date"
        optional
        value={scope.to}
        error={errors['filter.to']}
        onChange={(event) => onChange({ to: event.target.value })}
      />
      <label className="flex items-center gap-3 text-ink sm:col-span-2 lg:col-span-4">
        <input
          type="checkbox"
          checked={scope.includeTestLeads}
          onChange={(event) => onChange({ includeTestLeads: event.target.checked })}
          className="size-5 accent-ink"
        />
        Include test leads (tagged test)
      </label>
    </fieldset>
  );
}
