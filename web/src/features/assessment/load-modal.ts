/** The assessment modal's code (with the Mirror and the diagnostic behind it), loaded on first use or on intent. */
export const loadAssessmentModal = () => import('./modal.js');
