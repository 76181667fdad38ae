// The queue names are shared with the admin screens; the jobs table's CHECK constraint lists the same.
export { QUEUE_NAMES, type QueueName } from '#machines/protocol/operations.js';
