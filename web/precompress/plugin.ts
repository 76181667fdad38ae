import { readdir, readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import type { Logger, Plugin } from 'vite';

/** The files the server sends as text: the ones worth compressing (images and fonts are compressed already). */
const TEXT_FILE = /\.(?:js|mjs|css|html|svg|json|txt|xml|webmanifest)$/;
/** Below this a compressed answer saves less than its headers and the work cost (the server's threshold too). */
const MIN_COMPRESSED_BYTES = 1024;

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

/** Every file under `dir`, recursively. */
async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return entries.filter((entry) => entry.isFile()).map((entry) => path.join(entry.parentPath, entry.name));
}

/**
 * After the build, writes `<file>.br` and `<file>.gz` beside every text file of at least 1 KB in the
 * output folder, at the best quality of each (brotli 11, gzip 9): made once here, they cost the
 * server nothing per request (@fastify/static's `preCompressed` picks one by Accept-Encoding).
 */
export function precompress(): Plugin {
  let outDir = '';
  let logger: Logger | undefined;
  return {
    name: 'hf-precompress',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
      logger = config.logger;
    },
    closeBundle: {
      // after the public folder is copied and every other plugin has written its files
      order: 'post',
      sequential: true,
      async handler() {
        let raw = 0;
        let compressed = 0;
        const texts = [];
        for (const file of await filesUnder(outDir)) {
          if (TEXT_FILE.test(file) && (await stat(file)).size >= MIN_COMPRESSED_BYTES) texts.push(file);
        }
        await Promise.all(
          texts.map(async (file) => {
            const body = await readFile(file);
            const [br, gz] = await Promise.all([
              brotli(body, {
                params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: body.length },
              }),
              gzip(body, { level: 9 }),
            ]);
            await Promise.all([writeFile(`${file}.br`, br), writeFile(`${file}.gz`, gz)]);
            raw += body.length;
            compressed += br.length;
          }),
        );
        logger?.info(
          `precompressed ${texts.length} text files: ${(raw / 1024).toFixed(0)} KB, ${(compressed / 1024).toFixed(0)} KB as brotli`,
        );
      },
    },
  };
}
