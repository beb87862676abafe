/**
 * JSON schema of WebhookResult for the 200 response only: Fastify compiles it once with
 * fast-json-stringify. It serialises what the handler built (no request validation uses ajv).
 */
export const webhookResultJsonSchema = {
  type: 'object',
  properties: {
    status: { type: 'string' },
    membershipId: { type: 'string' },
    pointsEarned: { type: 'integer' },
    stampsUpdated: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          rewardId: { type: 'string' },
          rewardTitle: { type: 'string' },
          current: { type: 'integer' },
          required: { type: 'integer' },
          completed: { type: 'boolean' },
        },
        required: ['rewardId', 'rewardTitle', 'current', 'required', 'completed'],
      },
    },
    warning: { type: ['string', 'null'] },
    pointsReversed: { type: 'integer' },
    pointsReCredited: { type: 'integer' },
  },
  required: ['status', 'membershipId', 'pointsEarned', 'stampsUpdated', 'warning'],
} as const;
