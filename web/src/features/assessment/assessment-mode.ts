/** Which screen the assessment modal opens as (the Mirror CTA opens it as 'Decision Mirror'). */
export type AssessmentMode = 'assessment' | 'mirror';
