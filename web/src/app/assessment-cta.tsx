import type { MouseEvent } from 'react';
import { Button, ButtonLink, type ButtonLinkProps, type ButtonProps } from '../components/ui/index.js';
import type { AssessmentMode } from '../features/assessment/assessment-mode.js';
import { useAssessment } from '../features/assessment/launcher.js';
import { loadAssessmentModal } from '../features/assessment/load-modal.js';

/** Fetches the assessment's code as soon as a visitor points at or focuses a way into it. */
const prefetch = () => void loadAssessmentModal();

/** A button that opens the assessment modal (or the Decision Mirror with mode 'mirror'). */
export function AssessmentButton({ mode = 'assessment', onClick, ...props }: ButtonProps & { mode?: AssessmentMode }) {
  const { open } = useAssessment();
  return (
    <Button
      onPointerEnter={prefetch}
      onFocus={prefetch}
      {...props}
      aria-haspopup="dialog"
      data-assessment-mode={mode}
      onClick={(event) => {
        onClick?.(event);
        open(mode);
      }}
    />
  );
}

/**
 * A link to the home page's diagnostic section (/#lead-magnets, as the spec routes these buttons)
 * that also opens the assessment, so the visitor lands on the section with the modal in front.
 * Modified clicks (new tab, new window) only follow the link.
 */
export function AssessmentLink({
  mode = 'assessment',
  to = '/#lead-magnets',
  onClick,
  ...props
}: Omit<ButtonLinkProps, 'to'> & { to?: ButtonLinkProps['to']; mode?: AssessmentMode }) {
  const { open } = useAssessment();
  return (
    <ButtonLink
      onPointerEnter={prefetch}
      onFocus={prefetch}
      {...props}
      to={to}
      aria-haspopup="dialog"
      onClick={(event: MouseEvent<HTMLAnchorElement>) => {
        onClick?.(event);
        if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
        open(mode);
      }}
    />
  );
}
