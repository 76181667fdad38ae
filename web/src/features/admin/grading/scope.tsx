import { regradeScopeSchema, type RegradeScope } from '#machines/protocol/admin/grading.js';
import { Field } from '#web/components/ui/index.js';
import { TIER_LABELS, tierLabel, type Tier } from '../leads/leads-api.js';

/** The scope as typed: blanks mean any. */
export interface ScopeFieldValues {
  tier: Tier | '';
  source: string;
  from: string;
  to: string;
  includeTestLeads: boolean;
}

export const ANY_SCOPE: ScopeFieldValues = { tier: '', source: '', from: '', to: '', includeTestLeads: false };

/** The fields as the scope the dry run and the apply take, checked with its schema; errors keyed as the server names them ('scope.from'). */
export function scopeOf(fields: ScopeFieldValues): { ok: true; scope: RegradeScope } | { ok: false; errors: Record<string, string> } {
  const parsed = regradeScopeSchema.safeParse({
    ...(fields.tier && { tier: fields.tier }),
    ...(fields.source.trim() && { source: fields.source.trim() }),
    ...(fields.from && { from: fields.from }),
    ...(fields.to && { to: fields.to }),
    includeTestLeads: fields.includeTestLeads,
  });
  if (parsed.success) return { ok: true, scope: parsed.data };
  const errors: Record<string, string> = {};
  for (const issue of parsed.error.issues) errors[`scope.${issue.path.join('.')}`] ??= issue.message;
  return { ok: false, errors };
}

export const scopeInputId = (key: string) => `grading-scope-${key.replace('scope.', '')}`;

/** "1 lead", "1,204 leads": the grading screen's counts of leads. */
export const leadCount = (n: number) => `${n.toLocaleString('en-US')} ${n === 1 ? 'lead' : 'leads'}`;

/** The scope's days are UTC days (YYYY-MM-DD): drawn in UTC, so no time zone shows the day before. */
const utcDay = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', year: 'numeric', timeZone: 'UTC' });

/** A scope in words, as the dry run, the Apply button, the dialogs and the history name it. */
export function scopeWords(scope: RegradeScope): string {
  const day = (value: string) => utcDay.format(new Date(`${value}T00:00:00Z`));
  const signedUp =
    scope.from && scope.to
      ? `signed up ${day(scope.from)} to ${day(scope.to)}`
      : scope.from
        ? `signed up from ${day(scope.from)}`
        : scope.to
          ? `signed up until ${day(scope.to)}`
          : 'signed up any time';
  return [
    scope.tier ? `now ${tierLabel(scope.tier)}` : 'any tier',
    scope.source ? `source ${scope.source}` : 'any source',
    signedUp,
    scope.includeTestLeads ? 'test leads included' : 'test leads left out',
  ].join(', ');
}

/** Which past leads to try the rules on, and so to apply them to: current tier, source, sign-up dates, test leads. */
export function ScopeFields({
  scope,
  errors,
  onChange,
}: {
  scope: ScopeFieldValues;
  errors: Record<string, string>;
  onChange: (change: Partial<ScopeFieldValues>) => void;
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
        error={errors['scope.source']}
        onChange={(event) => onChange({ source: event.target.value.toLowerCase() })}
      />
      <Field
        id={scopeInputId('from')}
        label="Signed up from"
        type="date"
        optional
        value={scope.from}
        error={errors['scope.from']}
        onChange={(event) => onChange({ from: event.target.value })}
      />
      <Field
        id={scopeInputId('to')}
        label="Signed up until"
        type="date"
        optional
        value={scope.to}
        error={errors['scope.to']}
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
