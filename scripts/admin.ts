/*
 * `npm run admin -- create EMAIL` adds an admin; `npm run admin -- reset-password EMAIL` sets a
 * new password (and signs that admin out everywhere). The password comes from ADMIN_PASSWORD or
 * is asked for at the terminal without echo.
 */
import { createInterface } from 'node:readline';
import { z } from 'zod';
import { loadConfigOrExit } from '#core/config/index.js';
import { AdminExistsError, createAdmin, resetPassword } from '#server/auth/admin-users.js';
import { createPool } from '#core/db/pool.js';
import { migrate } from '#core/db/migrate.js';
import { connectableDatabase } from './services/postgres.js';

const MIN_PASSWORD = 12;
const USAGE = 'Usage: npm run admin -- create EMAIL | reset-password EMAIL';

const args = z
  .tuple([z.enum(['create', 'reset-password'], { error: USAGE }), z.email(`EMAIL: expected an email address\n${USAGE}`)])
  .safeParse(process.argv.slice(2));
if (!args.success) {
  process.stderr.write(`${args.error.issues[0]?.message ?? USAGE}\n`);
  process.exit(2);
}
const [command, email] = args.data;
const config = loadConfigOrExit();

function askHidden(question: string): Promise<string> {
  if (!process.stdin.isTTY) {
    process.stderr.write('No terminal to ask for a password: set ADMIN_PASSWORD.\n');
    process.exit(2);
  }
  const rl = createInterface({ input: process.stdin, output: process.stdout, terminal: true });
  const output = rl as unknown as { _writeToOutput: (text: string) => void };
  let prompted = false;
  output._writeToOutput = (text) => {
    // show the prompt once, then nothing of what is typed
    if (!prompted) process.stdout.write(text);
    prompted = true;
  };
  return new Promise((resolve) =>
    rl.question(question, (answer) => {
      rl.close();
      process.stdout.write('\n');
      resolve(answer);
    }),
  );
}

async function readPassword(): Promise<string> {
  const password = config.ADMIN_PASSWORD ?? (await askHidden(`Password for ${email}: `));
  if (password.length < MIN_PASSWORD) {
    process.stderr.write(`The password must be at least ${MIN_PASSWORD} characters.\n`);
    process.exit(2);
  }
  if (!config.ADMIN_PASSWORD && (await askHidden('Repeat the password: ')) !== password) {
    process.stderr.write('The passwords do not match.\n');
    process.exit(2);
  }
  return password;
}

const password = await readPassword();
const database = await connectableDatabase(config.DATABASE_URL, config.DATA_DIR);
const pool = createPool(database.url, 2);
let exitCode = 0;
try {
  await migrate(database.url);
  if (command === 'create') {
    await createAdmin(pool, email, password);
    process.stdout.write(`Admin ${email} created.\n`);
  } else if (await resetPassword(pool, email, password)) {
    process.stdout.write(`Password of ${email} reset; their sessions were signed out.\n`);
  } else {
    process.stderr.write(`No account with the email ${email}.\n`);
    exitCode = 1;
  }
} catch (error) {
  if (!(error instanceof AdminExistsError)) throw error;
  process.stderr.write(`${error.message}\n`);
  exitCode = 1;
} finally {
  await pool.end();
  await database.stop();
}
process.exit(exitCode);
