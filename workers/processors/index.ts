import type { QueueName } from '#core/queues/names.js';
import { emailProcessor } from './email.js';
import { gradingProcessor } from './grading.js';
import { homeworkProcessor } from './homework.js';
import { mirrorProcessor } from './mirror.js';
import { paymentsProcessor } from './payments.js';
import type { QueueProcessor } from './processor.js';
import { slackProcessor } from './slack.js';
import { timersProcessor } from './timers.js';
import { webhooksProcessor } from './webhooks.js';

/** The processor of each queue this worker process serves. */
export const processors: Partial<Record<QueueName, QueueProcessor>> = {
  grading: gradingProcessor,
  homework: homeworkProcessor,
  email: emailProcessor,
  mirror: mirrorProcessor,
  timers: timersProcessor,
  payments: paymentsProcessor,
  webhooks: webhooksProcessor,
  slack: slackProcessor,
};
