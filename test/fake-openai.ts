import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One chat-completions request the fake received. */
interface FakeOpenAIRequest {
  path: string;
  authorization: string | undefined;
  body: { model?: string; messages?: Array<{ role: string; content: string }>; [key: string]: unknown };
}

/** How the fake answers chat completions: a reply, a 500, an empty message, or never. */
type FakeOpenAIMode = 'answer' | 'fail' | 'empty' | 'hang';

export interface FakeOpenAI {
  /** Base URL to put in MIRROR_LLM_BASE_URL (ends in /v1). */
  url: string;
  requests: FakeOpenAIRequest[];
  mode: FakeOpenAIMode;
  /** The assistant's text for a request, in 'answer' mode. */
  answer: (request: FakeOpenAIRequest) => string;
  close(): Promise<void>;
}

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    request.on('error', reject);
  });
}

function json(response: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  response.writeHead(status, { 'content-type': 'application/json', ...headers });
  response.end(JSON.stringify(body));
}

/** A chat.completion object as the OpenAI API returns it. */
function completion(model: string, content: string) {
  const completionTokens = content.split(/\s+/).length;
  return {
    id: `chatcmpl-${randomBytes(12).toString('hex')}`,
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model,
    system_fingerprint: null,
    choices: [{ index: 0, message: { role: 'assistant', content, refusal: null }, logprobs: null, finish_reason: 'stop' }],
    usage: { prompt_tokens: 42, completion_tokens: completionTokens, total_tokens: 42 + completionTokens },
  };
}

/**
 * A loopback server speaking the OpenAI chat-completions wire format (POST /v1/chat/completions),
 * recording every request. Switch `mode` to make it fail with a 500, answer an empty message, or
 * hang until the client gives up.
 */
export async function startFakeOpenAI(): Promise<FakeOpenAI> {
  const fake: Omit<FakeOpenAI, 'url' | 'close'> = {
    requests: [],
    mode: 'answer',
    answer: () => 'What feels most at stake for you here?',
  };
  const handle = async (request: IncomingMessage, response: ServerResponse) => {
    const path = new URL(request.url ?? '/', 'http://fake').pathname;
    if (request.method !== 'POST' || path !== '/v1/chat/completions') {
      return json(response, 404, {
        error: {
          message: `Unknown request URL: ${request.method} ${path}`,
          type: 'invalid_request_error',
          param: null,
          code: 'unknown_url',
        },
      });
    }
    const recorded: FakeOpenAIRequest = { path, authorization: request.headers.authorization, body: JSON.parse(await readBody(request)) };
    fake.requests.push(recorded);
    switch (fake.mode) {
      case 'hang':
        return; // closed by close()
      case 'fail':
        // retry-after-ms keeps the SDK's one retry quick
        return json(
          response,
          500,
          { error: { message: 'The server had an error while processing your request.', type: 'server_error', param: null, code: null } },
          { 'retry-after-ms': '10' },
        );
      case 'empty':
        return json(response, 200, completion(String(recorded.body.model), ''));
      case 'answer':
        return json(response, 200, completion(String(recorded.body.model), fake.answer(recorded)));
    }
  };
  const server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      // a fault of the fake itself (an unreadable body, a throwing `answer`): a 500 naming it
      const message = `fake OpenAI failed: ${error instanceof Error ? error.message : 'unknown error'}`;
      json(response, 500, { error: { message, type: 'server_error', param: null, code: null } });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return Object.assign(fake, {
    url: `http://127.0.0.1:${port}/v1`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  });
}
