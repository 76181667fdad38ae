import { useEffect, useEffectEvent, useState, type ReactNode } from 'react';
import { cx } from '#web/components/ui/index.js';

export const inputClass =
  'min-h-11 w-full rounded-xl border border-line bg-white px-3 text-ink placeholder:text-muted/80 focus:border-ink focus:outline-2 focus:outline-offset-1 focus:outline-brass';

export type SortKey = 'email' | 'leadership_score' | 'qualification_score' | 'created_at';

/** A text filter kept locally while typing and written to the address bar a moment after the last key. */
export function useDebouncedParam(
  key: string,
  params: URLSearchParams,
  setParam: (key: string, value: string) => void,
): [string, (value: string) => void] {
  const committed = params.get(key) ?? '';
  const [value, setValue] = useState(committed);
  // the address changed (Back, a link, a reset): the field shows it
  const [shown, setShown] = useState(committed);
  if (shown !== committed) {
    setShown(committed);
    setValue(committed);
  }
  const commit = useEffectEvent((typed: string) => setParam(key, typed));
  useEffect(() => {
    if (value === committed) return;
    const timer = setTimeout(() => commit(value), 300);
    return () => clearTimeout(timer);
  }, [value, committed]);
  return [value, setValue];
}

export function FilterField({ label, children, id }: { label: string; id: string; children: ReactNode }) {
  return (
    <div className="flex min-w-0 flex-col gap-1.5">
      <label htmlFor={id} className="text-sm font-semibold text-ink">
        {label}
      </label>
      {children}
    </div>
  );
}

/** A column header that sorts the table by its column, and says how it is sorted. */
export function SortHeader({
  label,
  column,
  sort,
  dir,
  onSort,
  className,
}: {
  label: string;
  column: SortKey;
  sort: SortKey;
  dir: 'asc' | 'desc';
  onSort: (column: SortKey) => void;
  className?: string;
}) {
  const active = sort === column;
  return (
    <th
      scope="col"
      aria-sort={active ? (dir === 'asc' ? 'ascending' : 'descending') : 'none'}
      className={cx('px-3 py-2 font-semibold', className)}
    >
      <button
        type="button"
        onClick={() => onSort(column)}
        className="inline-flex items-center gap-1 rounded uppercase hover:text-ink focus-visible:outline-2 focus-visible:outline-brass"
      >
        {label}
        <span aria-hidden="true" className={cx('text-[0.7rem]', !active && 'opacity-30')}>
          {active && dir === 'asc' ? '▲' : '▼'}
        </span>
      </button>
    </th>
  );
}
