import pg from 'pg';
import { cpuOfPid } from './cpu.js';

const WARM = 2_000;
const MEASURED = 10_000;

/** CPU microseconds one PostgreSQL round trip costs on this machine: the client's, the backend's. */
export interface RoundTripCost {
  client: number;
  backend: number;
}

/**
 * The price of one statement with nothing in it: a prepared `SELECT $1::int` sent and answered
 * over the product's own kind of connection, one after another, with the client's and its
 * backend's CPU read around them. Every statement of a flow pays at least this, whatever it does,
 * so statements per flow times this is the part of a flow's cost that only fewer statements lower.
 */
export async function roundTripCost(databaseUrl: string): Promise<RoundTripCost> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
    const pid = rows[0]!.pid;
    const select = (value: number) => client.query({ name: 'round-trip', text: 'SELECT $1::int AS value', values: [value] });
    for (let i = 0; i < WARM; i += 1) await select(i);
    const backendBefore = cpuOfPid(pid)!.own;
    const clientBefore = process.cpuUsage();
    for (let i = 0; i < MEASURED; i += 1) await select(i);
    const clientSpent = process.cpuUsage(clientBefore);
    const backendSpent = cpuOfPid(pid)!.own - backendBefore;
    return { client: (clientSpent.user + clientSpent.system) / MEASURED, backend: (backendSpent * 1e6) / MEASURED };
  } finally {
    await client.end();
  }
}

/** The round trip's cost, as one line. */
export function roundTripLine(cost: RoundTripCost): string {
  return (
    `one PostgreSQL round trip (a prepared SELECT of one value, ${MEASURED} in a row): ` +
    `${(cost.client + cost.backend).toFixed(0)} us of CPU (client ${cost.client.toFixed(0)}, backend ${cost.backend.toFixed(0)})`
  );
}
