import type pg from 'pg';

/** How many statements the breakdown names; the rest are summed. */
const SHOWN = 12;

/** One statement's share of a run, as pg_stat_statements counts it. */
interface StatementTime {
  query: string;
  calls: number;
  planMs: number;
  execMs: number;
}

/**
 * PostgreSQL's own time per statement over (b)'s measured rounds, from pg_stat_statements: planning
 * apart from execution, with no log to write or parse (decision 0062 was found this way). Only
 * where the server loads the module (`shared_preload_libraries = 'pg_stat_statements'`); elsewhere
 * its one line says so, and the breakdown is left out. Each round resets the bench database's counts
 * before it and adds them up after, so (c)'s rounds between are not in it.
 */
export async function statementTimes(pool: pg.Pool) {
  const loaded = await pool
    .query<{ setting: string }>("SELECT setting FROM pg_settings WHERE name = 'shared_preload_libraries'")
    .then(({ rows }) => /\bpg_stat_statements\b/.test(rows[0]?.setting ?? ''));
  if (loaded) await pool.query('CREATE EXTENSION IF NOT EXISTS pg_stat_statements');
  const total = new Map<string, StatementTime>();
  const reset = () => pool.query('SELECT pg_stat_statements_reset(0, (SELECT oid FROM pg_database WHERE datname = current_database()), 0)');
  return {
    async beforeRound(): Promise<void> {
      if (loaded) await reset();
    },
    async afterRound(): Promise<void> {
      if (!loaded) return;
      const { rows } = await pool.query<{ id: string; query: string; calls: string; plan: number; exec: number }>(
        `SELECT queryid::text AS id, query, calls, total_plan_time AS plan, total_exec_time AS exec
         FROM pg_stat_statements WHERE dbid = (SELECT oid FROM pg_database WHERE datname = current_database())`,
      );
      for (const row of rows) {
        const kept = total.get(row.id) ?? { query: row.query, calls: 0, planMs: 0, execMs: 0 };
        total.set(row.id, {
          ...kept,
          calls: kept.calls + Number(row.calls),
          planMs: kept.planMs + row.plan,
          execMs: kept.execMs + row.exec,
        });
      }
    },
    /** The breakdown per graded flow, longest first; what the bench itself asked between rounds is in "the rest". */
    lines(flows: number): string[] {
      if (!loaded) return ['(b) PostgreSQL time by statement: load pg_stat_statements (shared_preload_libraries) to see it'];
      const ranked = [...total.values()].sort((a, b) => b.planMs + b.execMs - (a.planMs + a.execMs));
      const perFlow = (ms: number) => ((ms * 1000) / flows).toFixed(0);
      const sum = (list: StatementTime[]) => list.reduce((all, one) => all + one.planMs + one.execMs, 0);
      return [
        `(b) PostgreSQL time per graded flow by statement (pg_stat_statements): ${perFlow(sum(ranked))} us in all`,
        '  us/flow  plan us  calls/flow  statement',
        ...ranked
          .slice(0, SHOWN)
          .map(
            (one) =>
              `  ${perFlow(one.planMs + one.execMs).padStart(7)}  ${perFlow(one.planMs).padStart(7)}  ${(one.calls / flows).toFixed(2).padStart(10)}  ` +
              one.query.replace(/\s+/g, ' ').slice(0, 90),
          ),
        `  ${perFlow(sum(ranked.slice(SHOWN))).padStart(7)}  the other ${Math.max(0, ranked.length - SHOWN)} statements`,
      ];
    },
  };
}
