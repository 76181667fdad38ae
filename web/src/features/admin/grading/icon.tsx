import type { SVGProps } from 'react';

/** The sidebar's Grading rules icon: a balance, drawn as the other admin icons are. */
export const GradingIcon = (props: SVGProps<SVGSVGElement>) => (
  <svg
    viewBox="0 0 24 24"
    fill="none"
    stroke="currentColor"
    strokeWidth="1.75"
    strokeLinecap="round"
    strokeLinejoin="round"
    aria-hidden="true"
    focusable="false"
    className="size-5 shrink-0"
    {...props}
  >
    <path d="M12 4v16M8 20h8M5 7h14" />
    <path d="M5 7 2.5 13a2.5 2.5 0 0 0 5 0L5 7ZM19 7l-2.5 6a2.5 2.5 0 0 0 5 0L19 7Z" />
  </svg>
);
