import { archetypeData } from './archetypes.js';
import { builtinBank } from './banks/builtin.js';
import { bankV1 } from './banks/v1.js';
import { bankV2 } from './banks/v2.js';
import { type BankCandidate, loadDiagnosticBanks } from './load.js';
import { surveyData } from './survey.js';
import { type Archetype, type ArchetypeName, Archetypes } from './archetype-schema.js';
import { flattenBank } from './diagnostic-bank.js';
import { QualificationSurvey } from './survey-schema.js';
import { timedSummary } from './timed-summary.js';

export * from './archetype-schema.js';
export * from './diagnostic-bank.js';
export * from './dimensions.js';
export * from './survey-schema.js';
export * from './timed-summary.js';
/** The bundled banks in preference order: v2, then v1, then the built-in four items. */
const BANK_CANDIDATES: readonly BankCandidate[] = [
  { name: 'v2', data: bankV2 },
  { name: 'v1', data: bankV1 },
  { name: 'built-in', data: builtinBank },
];

// console exists in the browser and in Node alike; a caller that wants its own logger calls
// loadDiagnosticBanks(BANK_CANDIDATES, logger) itself.
const loaded = loadDiagnosticBanks(BANK_CANDIDATES, console);

/** The bank new visitors take: v2 unless it failed validation at load. */
export const diagnosticBank = loaded.preferred;

/** Every valid bundled bank by version, for grading answers taken on an older bank. */
export const diagnosticBanks = loaded.byVersion;

/** The screens of diagnosticBank in order; its length is the progress total. */
export const diagnosticScreens = flattenBank(diagnosticBank);

/** What the 'Timed Questions Ahead' interstitial says about diagnosticBank, or null without timed screens. */
export const timedQuestions = timedSummary(diagnosticScreens);

/** The qualification survey, validated at load (a bundled survey that fails is a build error, so it throws). */
export const qualificationSurvey: QualificationSurvey = QualificationSurvey.parse(surveyData);

/** The eight archetypes with narratives and three actions each, validated at load. */
export const archetypes: readonly Archetype[] = Archetypes.parse(archetypeData);

/** Looks up an archetype's copy by name. */
export function archetypeByName(name: ArchetypeName): Archetype {
  const found = archetypes.find((a) => a.name === name);
  // Archetypes.parse guarantees all eight names, so this only fires if that schema is loosened.
  if (!found) throw new Error(`Unknown archetype ${name}`);
  return found;
}
