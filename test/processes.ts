import type { ChildProcess } from 'node:child_process';
import { onTestFinished } from 'vitest';
import { spawnTs } from '#scripts/services/child.js';
import { until } from './until.js';

export interface RunningProcess {
  child: ChildProcess;
  output: () => string;
  /** Resolves when the output contains the text. */
  waitFor: (text: string | RegExp, timeoutMs?: number) => Promise<void>;
  /** Resolves with the exit code and how long after `since` the process exited. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null; at: number }>;
}

/** Runs a TypeScript entry point as a real child process, collecting its output; killed if the test leaves it running. */
export function runTs(entry: string, env: NodeJS.ProcessEnv, args: string[] = []): RunningProcess {
  const child = spawnTs(entry, args, env, 'pipe');
  let output = '';
  child.stdout?.on('data', (chunk) => (output += chunk));
  child.stderr?.on('data', (chunk) => (output += chunk));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null; at: number }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal, at: Date.now() })),
  );
  onTestFinished(() => {
    if (child.exitCode === null && child.signalCode === null) {
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        // already gone
      }
    }
  });
  const waitFor = async (text: string | RegExp, timeoutMs = 60_000) => {
    const printed = () => (typeof text === 'string' ? output.includes(text) : text.test(output));
    await until(() => printed() || child.exitCode !== null || child.signalCode !== null, timeoutMs, `timed out waiting for ${text}`).catch(
      (error: Error) => {
        throw new Error(`${error.message}:\n${output}`);
      },
    );
    if (!printed()) throw new Error(`exited (${child.exitCode}) before printing ${text}:\n${output}`);
  };
  return { child, output: () => output, waitFor, exited };
}
