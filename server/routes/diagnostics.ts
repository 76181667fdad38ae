import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type pg from 'pg';
import { z } from 'zod';
import { diagnosticBank, diagnosticScreens } from '../../machines/content/index.js';
import { timeLimitSec, timeoutAnswer } from '../../machines/diagnostic/diagnostic.machine.js';
import { isLate, trustedResponseTime } from '../../machines/diagnostic/response-time.js';
import { gradeAssessment } from '../../machines/grading/index.js';
import type { RecordedAnswer } from '../../machines/protocol/common.js';
import { HttpError } from '../http-error.js';
import type { RouteDeps } from './deps.js';

/** An answer as the standalone page sends it (spec section 3): id, type, value, confidence, ms. */
const standaloneAnswerSchema = z.object({
  id: z.string().min(1).max(60),
  type: z.enum(['likert', 'vignette', 'ranking']),
  value: z.union([z.number().int(), z.string().min(1).max(60), z.array(z.string().min(1).max(60)).max(20)]),
  confidence: z.number().int().min(1).max(5).optional(),
  ms: z.number().int().min(0).max(3_600_000),
});
type StandaloneAnswer = z.infer<typeof standaloneAnswerSchema>;

const params = z.object({ id: z.uuid() });
const resultSchema = z.object({
  id: z.uuid(),
  scores: z.record(z.string(), z.number()),
  archetype: z.string(),
  narrative: z.string(),
  completed_at: z.string(),
});

const invalid = (message: string) => new HttpError(400, message);
const noDiagnostic = () => new HttpError(404, 'No diagnostic with that id.');

/** Checks an answer against its bank screen and returns it as grading records it. */
function toRecorded(answer: StandaloneAnswer): RecordedAnswer {
  const screen = diagnosticScreens.find((s) => s.id === answer.id);
  if (!screen) throw invalid(`answer.id: no item ${answer.id} in bank ${diagnosticBank.version}`);
  if (screen.type !== answer.type) throw invalid(`answer.type: ${answer.id} is a ${screen.type} item`);
  const base = { responseTime: answer.ms, timedOut: false };
  switch (screen.type) {
    case 'likert':
      if (typeof answer.value !== 'number' || answer.value < 1 || answer.value > 5) throw invalid('answer.value: expected 1 to 5');
      return { type: 'likert', value: answer.value, ...base };
    case 'vignette':
      if (typeof answer.value !== 'string' || !screen.choiceIds.includes(answer.value)) throw invalid(`answer.value: not an option of ${answer.id}`);
      return { type: 'vignette', value: answer.value, ...(answer.confidence ? { confidence: answer.confidence } : {}), ...base };
    case 'ranking': {
      const order = answer.value;
      const complete = Array.isArray(order) && order.length === screen.choiceIds.length && screen.choiceIds.every((id) => order.includes(id));
      if (!complete) throw invalid('answer.value: rank every item exactly once');
      return { type: 'ranking', value: order as string[], ...base };
    }
  }
}

async function storedResult(pool: pg.Pool, diagnosticId: string) {
  const found = await pool.query<z.infer<typeof resultSchema>>(
    `SELECT diagnostic_id AS id, scores, archetype, narrative, to_char(completed_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS completed_at
     FROM diagnostic_results WHERE diagnostic_id = $1`,
    [diagnosticId],
  );
  return found.rows[0] ?? null;
}

/**
 * The standalone diagnostic's helper calls (spec section 7) as REST: diagnostic-start,
 * diagnostic-answer, diagnostic-complete and results-get. The server stamps when each item was
 * shown (the previous answer, or the start), so timed items and response times are its own
 * measure here too.
 */
export async function diagnosticRoutes(app: FastifyInstance, deps: RouteDeps): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['diagnostic'];

  api.post(
    '/api/diagnostics',
    {
      schema: {
        summary: 'diagnostic-start: a new diagnostic on the current bank',
        tags,
        body: z.object({ leadId: z.uuid().optional() }).default({}),
        response: { 201: z.object({ diagnosticId: z.uuid(), bankVersion: z.string(), total: z.number().int() }) },
      },
    },
    async (request, reply) => {
      const leadId = request.body.leadId ?? null;
      const known = leadId ? await deps.pool.query('SELECT 1 FROM leads WHERE lead_id = $1', [leadId]) : null;
      const started = await deps.pool.query<{ id: string }>('INSERT INTO diagnostics (lead_id, bank_version) VALUES ($1, $2) RETURNING id', [
        known?.rowCount ? leadId : null,
        diagnosticBank.version,
      ]);
      return reply.status(201).send({ diagnosticId: started.rows[0]!.id, bankVersion: diagnosticBank.version, total: diagnosticScreens.length });
    },
  );

  api.post(
    '/api/diagnostics/:id/answers',
    {
      schema: {
        summary: 'diagnostic-answer: record (or replace) one answer',
        tags,
        params,
        body: z.object({ answer: standaloneAnswerSchema }),
        response: { 200: z.object({ itemId: z.string(), timedOut: z.boolean(), responseTime: z.number().int() }) },
      },
    },
    async (request, reply) => {
      const { id } = request.params;
      const stamp = await deps.pool.query<{ status: string; elapsed_ms: string }>(
        `SELECT d.status, floor(extract(epoch FROM clock_timestamp() - COALESCE(max(a.answered_at), d.started_at)) * 1000)::bigint AS elapsed_ms
         FROM diagnostics d LEFT JOIN diagnostic_answers a ON a.diagnostic_id = d.id
         WHERE d.id = $1 GROUP BY d.id`,
        [id],
      );
      const diagnostic = stamp.rows[0];
      if (!diagnostic) throw noDiagnostic();
      if (diagnostic.status === 'completed') throw new HttpError(409, 'This diagnostic is already completed.');
      const elapsed = Number(diagnostic.elapsed_ms);
      const screen = diagnosticScreens.find((s) => s.id === request.body.answer.id);
      let recorded = toRecorded(request.body.answer);
      if (screen && isLate(elapsed, timeLimitSec(screen))) recorded = timeoutAnswer(screen, []);
      else recorded = { ...recorded, responseTime: trustedResponseTime(recorded.responseTime, elapsed) };
      await deps.pool.query(
        `INSERT INTO diagnostic_answers (diagnostic_id, item_id, type, value, confidence, response_ms, timed_out, shown_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, clock_timestamp() - make_interval(secs => $8 / 1000.0))
         ON CONFLICT (diagnostic_id, item_id) DO UPDATE SET value = EXCLUDED.value, confidence = EXCLUDED.confidence,
           response_ms = EXCLUDED.response_ms, timed_out = EXCLUDED.timed_out, answered_at = now()`,
        [id, request.body.answer.id, recorded.type, JSON.stringify(recorded.value), 'confidence' in recorded ? (recorded.confidence ?? null) : null, recorded.responseTime, recorded.timedOut ?? false, elapsed],
      );
      return { itemId: request.body.answer.id, timedOut: recorded.timedOut ?? false, responseTime: recorded.responseTime };
    },
  );

  api.post(
    '/api/diagnostics/:id/complete',
    { schema: { summary: 'diagnostic-complete: grade the answers and store the result', tags, params, response: { 200: z.object({ diagnosticId: z.uuid(), diagnostic: resultSchema }) } } },
    async (request, reply) => {
      const { id } = request.params;
      const existing = await storedResult(deps.pool, id);
      if (existing) return { diagnosticId: id, diagnostic: existing };
      const rows = await deps.pool.query<{ item_id: string; type: RecordedAnswer['type']; value: never; confidence: number | null; response_ms: number; timed_out: boolean; lead_id: string | null }>(
        `SELECT a.item_id, a.type, a.value, a.confidence, a.response_ms, a.timed_out, d.lead_id
         FROM diagnostics d LEFT JOIN diagnostic_answers a ON a.diagnostic_id = d.id WHERE d.id = $1`,
        [id],
      );
      if (!rows.rowCount) throw noDiagnostic();
      const answers = Object.fromEntries(
        rows.rows
          .filter((row) => row.item_id)
          .map((row) => [row.item_id, { type: row.type, value: row.value, responseTime: row.response_ms, timedOut: row.timed_out, ...(row.confidence ? { confidence: row.confidence } : {}) }]),
      ) as Record<string, RecordedAnswer>;
      if (!Object.keys(answers).length) throw new HttpError(409, 'Answer at least one item before completing the diagnostic.');
      const result = gradeAssessment({ answers, survey: {}, mirrorChat: [] });
      await deps.pool.query(
        `WITH done AS (UPDATE diagnostics SET status = 'completed', completed_at = now() WHERE id = $1 AND status = 'in_progress')
         INSERT INTO diagnostic_results (diagnostic_id, lead_id, scores, archetype, narrative, bank_version, grading_version)
         VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (diagnostic_id) DO NOTHING`,
        [id, rows.rows[0]!.lead_id, result.scores, result.archetype, result.narrative, result.bankVersion, result.gradingVersion],
      );
      return { diagnosticId: id, diagnostic: (await storedResult(deps.pool, id))! };
    },
  );

  api.get(
    '/api/diagnostics/:id/results',
    { schema: { summary: 'results-get: the stored result of a completed diagnostic', tags, params, response: { 200: z.object({ diagnostic: resultSchema }) } } },
    async (request) => {
      const result = await storedResult(deps.pool, request.params.id);
      if (!result) throw noDiagnostic();
      return { diagnostic: result };
    },
  );
}
