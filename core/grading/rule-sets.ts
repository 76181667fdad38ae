import type pg from 'pg';
import { isDeepStrictEqual } from 'node:util';
import { DEFAULT_RULE_SET, GRADING_VERSION, GradingRules, type GradingRuleSet } from '#machines/grading/rules.js';
import { regradeScopeSchema, type GradingApplication, type GradingView, type RegradeScope } from '#machines/protocol/admin/grading.js';

// The one writer of grading_rule_sets and grading_applications, the rules' versions and history
// (core/db/table-owners.ts).

/**
 * The advisory lock that orders rule changes against grading: an apply or undo takes it
 * exclusively for its whole transaction, a grading job shares it while it reads the rules in force
 * and stores its result. A job therefore either commits before the apply starts (and is re-graded
 * by it) or reads the new rules; no lead keeps a result of rules no longer in force.
 */
const GRADING_RULES_LOCK = 7_316_220_164;

/** Takes the rules lock for the caller's transaction: shared for grading, exclusive for a change of rules. */
export async function lockGradingRules(db: pg.ClientBase, mode: 'shared' | 'exclusive'): Promise<void> {
  await db.query(mode === 'shared' ? 'SELECT pg_advisory_xact_lock_shared($1)' : 'SELECT pg_advisory_xact_lock($1)', [GRADING_RULES_LOCK]);
}

interface Application {
  id: number;
  version: string;
  rules: unknown;
  scope: unknown;
  applied_at: Date;
}

/** The applications, latest first. */
async function applications(db: pg.ClientBase | pg.Pool, limit: number): Promise<Application[]> {
  const { rows } = await db.query<Application & { id: string }>(
    `SELECT a.id, a.version, s.rules, a.scope, a.applied_at
     FROM grading_applications a JOIN grading_rule_sets s USING (version) ORDER BY a.id DESC LIMIT $1`,
    [limit],
  );
  return rows.map((row) => ({ ...row, id: Number(row.id) }));
}

/**
 * The rule set every new assessment is graded under (the latest applied, else the built-in one),
 * read in one round trip with the rules lock shared, for the rest of the caller's transaction. Two
 * statements sent together (a simple query, its constants inline), each with its own snapshot, so
 * the read sees an apply that committed while this waited for the lock, as a read after
 * lockGradingRules does.
 */
export async function rulesInForce(client: pg.ClientBase): Promise<GradingRuleSet> {
  const results = (await client.query(
    `SELECT pg_advisory_xact_lock_shared(${GRADING_RULES_LOCK});
     SELECT a.version, s.rules FROM grading_applications a JOIN grading_rule_sets s USING (version) ORDER BY a.id DESC LIMIT 1`,
  )) as unknown as [pg.QueryResult, pg.QueryResult<Pick<Application, 'version' | 'rules'>>];
  const latest = results[1].rows[0];
  return latest ? ruleSetOf(latest) : DEFAULT_RULE_SET;
}

/** A stored rule set as the current build reads it; a set it cannot read is a broken deploy, named. */
function ruleSetOf(application: Pick<Application, 'version' | 'rules'>): GradingRuleSet {
  const parsed = GradingRules.safeParse(application.rules);
  if (!parsed.success) throw new Error(`The stored grading rule set ${application.version} does not fit this build's rules schema`);
  return { version: application.version, rules: parsed.data };
}

/**
 * The version these rules have: the built-in version for the built-in numbers, an identical stored
 * set's version, or (when `create`) a new one, grading-2, grading-3 and so on. Without `create`,
 * a new set's version is what it would get. Call with the rules lock held so two applies cannot
 * take one number.
 */
export async function versionFor(db: pg.ClientBase, rules: GradingRules, adminId: string | null, create: boolean): Promise<string> {
  if (isDeepStrictEqual(rules, DEFAULT_RULE_SET.rules)) {
    if (create)
      await db.query('INSERT INTO grading_rule_sets (version, rules) VALUES ($1, $2) ON CONFLICT DO NOTHING', [GRADING_VERSION, rules]);
    return GRADING_VERSION;
  }
  // jsonb equality ignores key order, so the same numbers keep one version however they arrive
  const same = await db.query<{ version: string }>('SELECT version FROM grading_rule_sets WHERE rules = $1::jsonb', [
    JSON.stringify(rules),
  ]);
  if (same.rows[0]) return same.rows[0].version;
  const count = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM grading_rule_sets WHERE version <> $1', [GRADING_VERSION]);
  const version = `grading-${count.rows[0]!.n + 2}`;
  if (create) await db.query('INSERT INTO grading_rule_sets (version, rules, created_by) VALUES ($1, $2, $3)', [version, rules, adminId]);
  return version;
}

/** An apply or undo, as recorded: the rules it put in force, who, why, over which scope, and what it did. */
interface NewApplication {
  version: string;
  adminId: string;
  note: string | null;
  scope: RegradeScope;
  regraded: number;
  moved: number;
  undoOf: number | null;
}

/** Records an application in the apply's transaction (under the exclusive rules lock); its id, which its re-graded results name. */
export async function recordApplication(client: pg.ClientBase, application: NewApplication): Promise<number> {
  const inserted = await client.query<{ id: string }>(
    `INSERT INTO grading_applications (version, applied_by, note, scope, regraded, moved, undo_of)
     VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id`,
    [
      application.version,
      application.adminId,
      application.note,
      JSON.stringify(application.scope),
      application.regraded,
      application.moved,
      application.undoOf,
    ],
  );
  return Number(inserted.rows[0]!.id);
}

const APPLICATION_COLUMNS = `a.id::int AS id, a.version, a.applied_at AS "appliedAt", u.email AS "appliedBy", a.note, a.scope,
  a.regraded, a.moved, a.undo_of::int AS "undoOf"`;

/** One application as the admin sees it. */
export async function applicationView(db: pg.ClientBase | pg.Pool, id: number): Promise<GradingApplication> {
  const { rows } = await db.query<GradingApplication>(
    `SELECT ${APPLICATION_COLUMNS} FROM grading_applications a LEFT JOIN users u ON u.id = a.applied_by WHERE a.id = $1`,
    [id],
  );
  return rows[0]!;
}

/**
 * What an undo puts back: the rule set in force before the latest application (the built-in set
 * before the first), over the leads that application re-graded, under its scope; null when nothing
 * was ever applied. An undo is itself an application, so undoing twice returns to the rules undone.
 */
export async function undoTarget(
  db: pg.ClientBase | pg.Pool,
): Promise<{ ruleSet: GradingRuleSet; undoOf: number; scope: RegradeScope } | null> {
  const [latest, previous] = await applications(db, 2);
  if (!latest) return null;
  return { ruleSet: previous ? ruleSetOf(previous) : DEFAULT_RULE_SET, undoOf: latest.id, scope: regradeScopeSchema.parse(latest.scope) };
}

/** GET /api/admin/grading: the rules in force, every application (latest first, 100 at most) and what an undo would restore. */
export async function gradingView(db: pg.Pool): Promise<GradingView> {
  const [latest] = await applications(db, 1);
  const inForce = latest ? ruleSetOf(latest) : DEFAULT_RULE_SET;
  const history = await db.query<GradingApplication>(
    `SELECT ${APPLICATION_COLUMNS} FROM grading_applications a LEFT JOIN users u ON u.id = a.applied_by ORDER BY a.id DESC LIMIT 100`,
  );
  const undo = await undoTarget(db);
  return {
    inForce: { ...inForce, builtIn: inForce.version === GRADING_VERSION, appliedAt: latest?.applied_at ?? null },
    history: history.rows,
    undoTo: undo?.ruleSet.version ?? null,
  };
}
