import { Field as HeadlessField, Label, Switch } from '@headlessui/react';
import { Field, cx } from '#web/components/ui/index.js';
import { GROUPS, NUMBER_FIELDS, SWITCHES, type Draft } from './rules-draft.js';

/** The input of a rule ('thresholds.bookCall'), or of a group's first rule for an error about the group ('partWeights'). */
export function inputIdOf(key: string): string {
  const field = key.includes('.') ? key : NUMBER_FIELDS.find((f) => f.group === key)?.key;
  return field && NUMBER_FIELDS.some((f) => f.key === field) ? `grading-${field.replace('.', '-')}` : 'grading-rules-file';
}

/** The proposed rules: the numbers by group, then the tier conditions' switches; each error beside its input. */
export function RulesForm({
  draft,
  errors,
  onNumber,
  onSwitch,
}: {
  draft: Draft;
  errors: Record<string, string>;
  onNumber: (key: string, value: string) => void;
  onSwitch: (key: keyof Draft['switches'], on: boolean) => void;
}) {
  return (
    <div className="grid gap-5 lg:grid-cols-2">
      {GROUPS.map((group) => {
        const groupError = errors[group.key];
        const groupErrorId = `grading-${group.key}-error`;
        return (
          <fieldset key={group.key} className="min-w-0 rounded-2xl border border-line bg-paper p-5">
            <legend className="float-left w-full font-serif text-lg tracking-tight text-ink">{group.title}</legend>
            <p className="clear-left pt-1 text-sm text-muted">{group.description}</p>
            <div className={cx('mt-4 grid gap-4', group.key === 'partWeights' && 'sm:grid-cols-3')}>
              {NUMBER_FIELDS.filter((field) => field.group === group.key).map((field) => (
                <Field
                  key={field.key}
                  id={inputIdOf(field.key)}
                  name={field.key}
                  label={group.key === 'partWeights' ? `${field.label} (%)` : field.label}
                  type="number"
                  inputMode="decimal"
                  min={0}
                  max={100}
                  step={group.key === 'partWeights' ? 'any' : 1}
                  value={draft.numbers[field.key]}
                  error={errors[field.key]}
                  aria-describedby={groupError ? groupErrorId : undefined}
                  onChange={(event) => onNumber(field.key, event.target.value)}
                />
              ))}
            </div>
            {groupError && (
              <p id={groupErrorId} className="mt-3 text-sm font-medium text-danger">
                {groupError}
              </p>
            )}
          </fieldset>
        );
      })}
      <fieldset className="min-w-0 rounded-2xl border border-line bg-paper p-5 lg:col-span-2">
        <legend className="float-left w-full font-serif text-lg tracking-tight text-ink">Tier conditions</legend>
        <p className="clear-left pt-1 text-sm text-muted">What Book call needs besides the total, and what a disqualifying answer does.</p>
        <ul className="mt-4 flex flex-col gap-3">
          {SWITCHES.map(({ key, on }) => (
            <li key={key}>
              <HeadlessField className="flex items-start gap-3">
                <Switch
                  checked={draft.switches[key]}
                  onChange={(checked: boolean) => onSwitch(key, checked)}
                  className={cx(
                    'relative mt-0.5 inline-flex h-6 w-11 shrink-0 items-center rounded-full transition-colors focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brass',
                    draft.switches[key] ? 'bg-success' : 'bg-ink/25',
                  )}
                >
                  <span
                    aria-hidden="true"
                    className={cx(
                      'inline-block size-4 rounded-full bg-white shadow transition-transform',
                      draft.switches[key] ? 'translate-x-6' : 'translate-x-1',
                    )}
                  />
                </Switch>
                <Label className="text-ink">{on}</Label>
              </HeadlessField>
            </li>
          ))}
        </ul>
      </fieldset>
    </div>
  );
}
