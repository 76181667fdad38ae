import { z } from 'zod';

/** Every event the team-chat monitor connection machine accepts (all from the browser's own socket, none from a request). */
export type MonitorConnectionEvent =
  | { type: 'CONNECT' }
  | { type: 'DISCONNECT' }
  | { type: 'SOCKET_OPENED' }
  | { type: 'SOCKET_CLOSED' }
  | { type: 'SOCKET_ERROR'; message: string };

/** What the monitor's browser sends over its websocket. */
export const monitorClientFrameSchema = z.discriminatedUnion('type', [z.object({ type: z.literal('get_status') })]);

/** A team-chat bot message; timestamp is seconds since the epoch. */
const botMessageSchema = z.object({
  channel: z.string().min(1).max(100),
  bot_id: z.string().max(100).nullable(),
  user: z.string().max(100).nullable(),
  text: z.string().max(40_000),
  timestamp: z.number().positive(),
});
/** A team-chat bot message. */
export type BotMessage = z.infer<typeof botMessageSchema>;

/** An assessment the monitor grouped out of bot messages. */
const processedAssessmentSchema = z.object({
  candidateName: z.string().min(1).max(200),
  messageCount: z.number().int().min(1),
  assessmentKey: z.string().min(1).max(200),
  /** When it was recorded (ISO 8601): the list's time column. Beyond the seed, which shows the time it arrived. */
  processedAt: z.iso.datetime({ offset: true }).optional(),
});
/** A processed assessment. */
export type ProcessedAssessment = z.infer<typeof processedAssessmentSchema>;

/** The monitor's counters, all counted in the database. */
const monitorStatsSchema = z.object({
  totalMessages: z.number().int().min(0),
  assessmentsProcessed: z.number().int().min(0),
  messagesGrouped: z.number().int().min(0),
});
/** The monitor's counters. */
export type MonitorStats = z.infer<typeof monitorStatsSchema>;

/**
 * Whether Slack events can arrive: 'listening' with a signing secret, 'not_configured' without one
 * (every event is then refused). The seed leaves the values open.
 */
const monitorStatusSchema = z.enum(['listening', 'not_configured']);

/** What the server pushes to the monitor. */
export const monitorServerFrameSchema = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('status'),
    status: monitorStatusSchema,
    stats: monitorStatsSchema,
    activeAssessments: z.number().int().min(0),
    message: z.string().max(500).optional(),
  }),
  z.object({ type: z.literal('slack_message'), data: botMessageSchema }),
  z.object({ type: z.literal('assessment_processed'), data: processedAssessmentSchema }),
  z.object({ type: z.literal('assessment_error'), error: z.string().max(500) }),
  z.object({ type: z.literal('error'), error: z.string().max(500) }),
]);
/** A frame the server pushes to the monitor. */
export type MonitorServerFrame = z.infer<typeof monitorServerFrameSchema>;

/**
 * GET /api/admin/monitor: what the monitor shows on opening, since the socket carries only what
 * happens after it connects: the latest 50 bot messages and 20 completed assessments, newest first.
 */
export const monitorSnapshotSchema = z.object({
  stats: monitorStatsSchema,
  activeAssessments: z.number().int().min(0),
  messages: botMessageSchema.array(),
  assessments: processedAssessmentSchema.array(),
});
/** The monitor's opening snapshot. */
export type MonitorSnapshot = z.infer<typeof monitorSnapshotSchema>;

/** The product's list lengths. */
export const MONITOR_MESSAGE_LIMIT = 50;
export const MONITOR_ASSESSMENT_LIMIT = 20;
