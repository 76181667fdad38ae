/**
 * How bot messages become assessments (docs/admin.md repeats the rule).
 *
 * A bot message belongs to an assessment when its text names a key: `Assessment: <key>`,
 * `Assessment #<key>`, `Assessment ID: <key>` or `Assessment key: <key>` (any case; the key is
 * 1-100 letters, digits, `.`, `_` or `-`, starting with a letter or digit). The candidate is the
 * first `Candidate: <name>` seen among the group's messages (up to the end of the line, a `|` or a
 * `;`). Slack's bold, italic and strike marks (`*`, `_`, `~`) are ignored.
 *
 * A group is complete when one of its messages says so (`Status: complete`, `Status: completed`,
 * `Status: done`, or `Assessment complete`/`completed`/`finished`; recorded 2 s later, so messages
 * sent just before it are counted), or else once it has been quiet for SLACK_ASSESSMENT_QUIET_MS
 * (2 minutes by default) after its latest message. A group is recorded once; one without any
 * candidate name is recorded as an error. Messages arriving after that are kept but change nothing.
 */

const KEY = /\bassessment(?:\s+(?:id|key))?\s*(?::|#)\s*#?([a-z0-9][a-z0-9._-]{0,99})/i;
const CANDIDATE = /\bcandidate(?:\s+name)?\s*:\s*([^\n|;]{1,200})/i;
const COMPLETE = /\b(?:status\s*:\s*(?:complete|completed|done)|assessment\s+(?:complete|completed|finished))\b/i;

/** What one bot message says about the assessment it belongs to. */
export interface AssessmentMention {
  assessmentKey: string | null;
  candidateName: string | null;
  completes: boolean;
}

/** Slack's inline formatting marks, which a bot may wrap labels and values in. */
function plain(text: string): string {
  return text.replace(/[*~]/g, '').replace(/(^|\s)_|_(\s|$)/g, '$1$2');
}

/** Reads a bot message's text for its assessment key, candidate name and completion marker. */
export function readAssessmentMention(text: string): AssessmentMention {
  const clean = plain(text);
  const key = KEY.exec(clean)?.[1] ?? null;
  const candidate =
    CANDIDATE.exec(clean)?.[1]
      ?.trim()
      .replace(/[.,:]+$/, '')
      .trim() || null;
  return {
    assessmentKey: key,
    candidateName: key ? candidate : null,
    completes: key !== null && COMPLETE.test(clean),
  };
}
