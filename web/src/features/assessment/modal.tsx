import type { AssessmentMode } from './launcher';

/** Placeholder until the modal lands (issue 5). */
export default function AssessmentModal(_props: { mode: AssessmentMode; onClose: () => void }) {
  return null;
}
