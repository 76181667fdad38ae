import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CHROMIUM_FLAGS } from '#e2e/browser.js';

export interface DebuggableChromium {
  /** The DevTools port on 127.0.0.1, for Lighthouse's `port` flag. */
  port: number;
  /** What the browser says it is, e.g. 'Chrome/131.0.6778.85'. */
  version: string;
  stop: () => Promise<void>;
}

/**
 * Starts Debian's chromium (CHROMIUM_PATH overrides the location) headless with a DevTools port
 * the operating system picks on 127.0.0.1 and a throwaway profile; resolves once it listens.
 */
export async function launchDebuggableChromium(timeoutMs = 30_000): Promise<DebuggableChromium> {
  const executable = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
  const profile = mkdtempSync(path.join(os.tmpdir(), 'hf-bench-web-chromium-'));
  const child = spawn(
    executable,
    [...CHROMIUM_FLAGS, '--remote-debugging-address=127.0.0.1', '--remote-debugging-port=0', `--user-data-dir=${profile}`, 'about:blank'],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
      await exited;
      clearTimeout(timer);
    }
    // its helper processes can still be writing there a moment after it exits (ENOTEMPTY): retried
    rmSync(profile, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 });
  };

  let stderr = '';
  try {
    const port = await new Promise<number>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`chromium did not open its DevTools port within ${timeoutMs} ms`)), timeoutMs);
      child.once('error', (error) => {
        clearTimeout(timer);
        reject(error);
      });
      child.once('exit', (code, signal) => {
        clearTimeout(timer);
        reject(new Error(`chromium exited (${signal ?? code}) before opening its DevTools port:\n${stderr}`));
      });
      child.stderr.setEncoding('utf8');
      child.stderr.on('data', (chunk: string) => {
        stderr += chunk;
        const match = /DevTools listening on ws:\/\/[^:/]+:(\d+)\//.exec(stderr);
        if (match) {
          clearTimeout(timer);
          resolve(Number(match[1]));
        }
      });
    });
    // keep draining its messages so the pipe never fills
    child.stderr.removeAllListeners('data');
    child.stderr.resume();
    const response = await fetch(`http://127.0.0.1:${port}/json/version`);
    const version = ((await response.json()) as { Browser?: string }).Browser ?? 'unknown';
    return { port, version, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
