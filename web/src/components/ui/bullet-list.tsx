/** A short list of lines, each behind a brass dot (results' insights, the next steps' promises). */
export function BulletList({ items }: { items: readonly string[] }) {
  return (
    <ul className="flex flex-col gap-2.5">
      {items.map((line) => (
        <li key={line} className="flex gap-3 text-[0.95rem] leading-relaxed text-ink">
          <span className="mt-2 size-1.5 shrink-0 rounded-full bg-brass" aria-hidden="true" />
          {line}
        </li>
      ))}
    </ul>
  );
}
