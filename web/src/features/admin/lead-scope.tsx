import { Field, Label, Switch } from '@headlessui/react';
import { useSearchParams } from 'react-router-dom';
import { cx } from '../../components/ui/index.js';

/** The admin's IANA time zone: days on every admin screen are the admin's own (the server counts them so). */
export const TIME_ZONE = Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';

/**
 * Whether test leads (and test payments) are counted: the same switch on every admin count, chart,
 * list and export, off by default, kept in the address so a link keeps the scope it was made with.
 */
export function useIncludeTest(): [boolean, (include: boolean) => void] {
  const [params, setParams] = useSearchParams();
  const include = params.get('includeTest') === 'true';
  const set = (on: boolean) =>
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        if (on) next.set('includeTest', 'true');
        else next.delete('includeTest');
        next.delete('page');
        return next;
      },
      { replace: true },
    );
  return [include, set];
}

/** The switch itself, labelled the same everywhere. */
export function IncludeTestSwitch({ checked, onChange }: { checked: boolean; onChange: (include: boolean) => void }) {
  return (
    <Field className="inline-flex w-fit items-center gap-3 rounded-full border border-line bg-white px-3.5 py-1.5 shadow-soft">
      <Label className="cursor-pointer text-sm font-medium whitespace-nowrap text-ink">Include test leads</Label>
      <Switch
        checked={checked}
        onChange={onChange}
        data-include-test={checked}
        className={cx(
          'relative inline-flex h-6 w-11 shrink-0 items-center rounded-full transition-colors focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brass',
          checked ? 'bg-ink' : 'bg-ink/25',
        )}
      >
        <span
          className={cx(
            'inline-block size-4 rounded-full bg-white shadow transition-transform',
            checked ? 'translate-x-6' : 'translate-x-1',
          )}
        />
      </Switch>
    </Field>
  );
}
