import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type pg from 'pg';
import { z } from 'zod';
import { diagnosticBank, diagnosticScreens } from '#machines/content/index.js';
import type { Screen } from '#machines/content/diagnostic-bank.js';
import type { FlowSnapshotResponse } from '#machines/protocol/api.js';
import type { DiagnosticClientEvent } from '#machines/protocol/diagnostic.js';
import { diagnosticAnswersOf, diagnosticItemOnShow } from '#machines/protocol/snapshots.js';
import { FlowConflictError } from '#core/flows/flow-store.js';
import { waitForFlow } from '#core/flows/wait-for-flow.js';
import { startStandaloneDiagnostic } from '#core/grading/results-store.js';
import { HttpError } from '#core/http-error.js';
import { notFound, ownedLeadFlow } from '../visitors/owned.js';
import { rateLimits } from '../plugins/security.js';
import type { RouteDeps } from './deps.js';

/** An answer as the standalone page sends it: id, type, value, confidence, ms. */
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

/** How long diagnostic-complete waits for the flow's grading job (the calls' 30 s). */
const COMPLETE_WAIT_MS = 30_000;

const invalid = (message: string) => new HttpError(400, message);
const noDiagnostic = () => new HttpError(404, 'No diagnostic with that id.');
const isGrading = (flow: FlowSnapshotResponse) => flow.state === 'grading';
const isFinished = (flow: FlowSnapshotResponse) => flow.state === 'grading' || flow.state === 'graded';

/**
 * The machine events that give `answer` on its bank screen (checked against the bank first, so a
 * bad answer is a 400 naming the field): a likert value; a vignette's option, then its confidence
 * when it asks for one; a ranking placed, then confirmed.
 */
function answerEvents(answer: StandaloneAnswer): { screen: Screen; events: DiagnosticClientEvent[] } {
  const screen = diagnosticScreens.find((s) => s.id === answer.id);
  if (!screen) throw invalid(`answer.id: no item ${answer.id} in bank ${diagnosticBank.version}`);
  if (screen.type !== answer.type) throw invalid(`answer.type: ${answer.id} is a ${screen.type} item`);
  const responseTime = answer.ms;
  switch (screen.type) {
    case 'likert':
      if (typeof answer.value !== 'number' || answer.value < 1 || answer.value > 5) throw invalid('answer.value: expected 1 to 5');
      return { screen, events: [{ type: 'ANSWER_LIKERT', value: answer.value, responseTime }] };
    case 'vignette': {
      if (typeof answer.value !== 'string' || !screen.choiceIds.includes(answer.value))
        throw invalid(`answer.value: not an option of ${answer.id}`);
      if (!screen.hasFollowup) return { screen, events: [{ type: 'SELECT_OPTION', optionId: answer.value, responseTime }] };
      if (answer.confidence === undefined) throw invalid(`answer.confidence: ${answer.id} asks how confident you are, 1 to 5`);
      return {
        screen,
        events: [
          { type: 'SELECT_OPTION', optionId: answer.value, responseTime },
          { type: 'SELECT_CONFIDENCE', value: answer.confidence },
        ],
      };
    }
    case 'ranking': {
      const order = answer.value;
      const complete =
        Array.isArray(order) && order.length === screen.choiceIds.length && screen.choiceIds.every((id) => order.includes(id));
      if (!complete) throw invalid('answer.value: rank every item exactly once');
      return {
        screen,
        events: [
          { type: 'REORDER_RANKING', order },
          { type: 'CONFIRM_RANKING', responseTime },
        ],
      };
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

/** A standalone diagnostic this visitor started, with its flow (none for one stored before diagnostics ran as flows), or a 404. */
async function ownDiagnostic(pool: pg.Pool, id: string, visitorId: string | null): Promise<{ flowId: string | null }> {
  const found = visitorId
    ? await pool.query<{ flow_id: string | null }>('SELECT flow_id FROM diagnostics WHERE id = $1 AND visitor_id = $2', [id, visitorId])
    : null;
  const row = found?.rows[0];
  if (!row) throw noDiagnostic();
  return { flowId: row.flow_id };
}

/**
 * The standalone diagnostic's helper calls as adapters over a diagnostic flow the
 * server runs, like the modal's: diagnostic-start starts it, diagnostic-answer turns an answer into
 * the machine's events (so the machine times it, on the server's clock), and the flow's own grading
 * job grades the last answer; diagnostic-complete and results-get only read what that job stored.
 */
export function diagnosticRoutes(app: FastifyInstance, deps: RouteDeps, done: () => void): void {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['diagnostic'];

  api.post(
    '/api/diagnostics',
    {
      config: { rateLimit: rateLimits.diagnostics },
      schema: {
        summary: 'diagnostic-start: a new standalone diagnostic flow on the current bank',
        tags,
        body: z.object({ leadId: z.uuid().optional() }).default({}),
        response: { 201: z.object({ diagnosticId: z.uuid(), flowId: z.uuid(), bankVersion: z.string(), total: z.number().int() }) },
      },
    },
    async (request, reply) => {
      const leadId = request.body.leadId ?? null;
      // a lead this visitor's own assessment is bound to, or none at all
      if (leadId && !(await ownedLeadFlow(deps.pool, request.visitorId, leadId))) throw notFound('lead');
      const visitorId = await deps.visitors.ensure(request, reply);
      // the flow and its diagnostics row exist together or not at all
      const started = await deps.engine.transaction(async (tx) => {
        const flow = await tx.start('diagnostic', { screens: diagnosticScreens, standalone: true }, { visitorId, leadId });
        const diagnosticId = await startStandaloneDiagnostic(tx.client, {
          leadId,
          flowId: flow.flowId,
          bankVersion: diagnosticBank.version,
          visitorId,
        });
        return { diagnosticId, flowId: flow.flowId };
      });
      return reply.status(201).send({ ...started, bankVersion: diagnosticBank.version, total: diagnosticScreens.length });
    },
  );

  api.post(
    '/api/diagnostics/:id/answers',
    {
      config: { rateLimit: rateLimits.diagnosticAnswers },
      schema: {
        summary: 'diagnostic-answer: answer the item on show (as the machine records it: timed and measured by the server)',
        tags,
        params,
        body: z.object({ answer: standaloneAnswerSchema }),
        response: { 200: z.object({ itemId: z.string(), timedOut: z.boolean(), responseTime: z.number().int() }) },
      },
    },
    async (request) => {
      const { flowId } = await ownDiagnostic(deps.pool, request.params.id, request.visitorId);
      const { screen, events } = answerEvents(request.body.answer);
      // a diagnostic stored before diagnostics ran as flows is not answered any further
      if (!flowId) throw new HttpError(409, 'This diagnostic can no longer be answered; start a new one.');
      const access = { visitorId: request.visitorId };
      const flow = await deps.engine
        .transaction(async (tx) => {
          // locked, so no other answer moves the flow on between this check and the events
          const locked = await tx.client.query<{ state: string; snapshot: unknown }>(
            'SELECT state, snapshot FROM flows WHERE id = $1 FOR UPDATE',
            [flowId],
          );
          let state = locked.rows[0]!.state;
          const onShow = diagnosticItemOnShow(locked.rows[0]!.snapshot);
          if (!onShow || state === 'grading' || state === 'graded') throw new HttpError(409, 'This diagnostic is already completed.');
          if (onShow !== screen.id) throw new HttpError(409, `answer.id: ${screen.id} is not the item on show; answer ${onShow} first.`);
          const pending: DiagnosticClientEvent[] = state === 'interstitial' ? [{ type: 'START_TIMED' }, ...events] : events;
          let current: FlowSnapshotResponse | null = null;
          for (const event of pending) {
            // an option already chosen waits only for its confidence; a late one was recorded as the timeout answer, which asks none
            if (event.type === 'SELECT_OPTION' && state === 'vignette.confidence') continue;
            if (event.type === 'SELECT_CONFIDENCE' && state !== 'vignette.confidence') break;
            current = await tx.apply(flowId, event, 'client', access);
            state = current.state;
          }
          // these calls have no 'Timed Questions Ahead' screen: the first timed item is on show (and its clock runs) from this answer on
          if (state === 'interstitial') current = await tx.apply(flowId, { type: 'START_TIMED' }, 'client', access);
          return current!;
        })
        .catch((error: unknown) => {
          if (error instanceof FlowConflictError) throw new HttpError(409, error.message);
          throw error;
        });
      const recorded = diagnosticAnswersOf(flow.snapshot)[screen.id];
      if (!recorded) throw new HttpError(409, `${screen.id} was not recorded.`);
      return { itemId: screen.id, timedOut: recorded.timedOut ?? false, responseTime: recorded.responseTime };
    },
  );

  api.post(
    '/api/diagnostics/:id/complete',
    {
      config: { rateLimit: rateLimits.diagnosticAnswers },
      schema: {
        summary: "diagnostic-complete: the result the diagnostic flow's grading stored (waits up to 30 s for it)",
        tags,
        params,
        response: { 200: z.object({ diagnosticId: z.uuid(), diagnostic: resultSchema }) },
      },
    },
    async (request) => {
      const { id } = request.params;
      const { flowId } = await ownDiagnostic(deps.pool, id, request.visitorId);
      const stored = await storedResult(deps.pool, id);
      if (stored) return { diagnosticId: id, diagnostic: stored };
      const flow = flowId ? await deps.engine.get(flowId, 'system') : null;
      if (!flow || !isFinished(flow)) {
        const answered = flow ? Object.keys(diagnosticAnswersOf(flow.snapshot)).length : 0;
        throw new HttpError(
          409,
          `Answer every item before completing the diagnostic (${answered} of ${diagnosticScreens.length} answered).`,
        );
      }
      if (isGrading(flow)) await waitForFlow(deps, flow.flowId, (f) => !isGrading(f), COMPLETE_WAIT_MS);
      const result = await storedResult(deps.pool, id);
      if (!result) throw new HttpError(503, 'The diagnostic is still being graded. Please try again in a moment.');
      return { diagnosticId: id, diagnostic: result };
    },
  );

  api.get(
    '/api/diagnostics/:id/results',
    {
      schema: {
        summary: 'results-get: the stored result of a completed diagnostic',
        tags,
        params,
        response: { 200: z.object({ diagnostic: resultSchema }) },
      },
    },
    async (request) => {
      await ownDiagnostic(deps.pool, request.params.id, request.visitorId);
      const result = await storedResult(deps.pool, request.params.id);
      if (!result) throw noDiagnostic();
      return { diagnostic: result };
    },
  );
  done();
}
