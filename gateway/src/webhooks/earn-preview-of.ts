import type { EarnPreview, EarnPreviewStatus, WebhookResult } from '@loyalty-gateway/core';
import { NOT_PREVIEWED } from './webhook-results.js';

const STATUS: Record<WebhookResult['status'], EarnPreviewStatus> = {
  processed: 'would_process',
  duplicate: 'would_be_duplicate',
  ignored: 'ignored',
};

/** A pipeline's answer in preview mode, as a preview says it: the same figures, the status in the conditional. */
export function earnPreviewOf(result: WebhookResult): EarnPreview {
  return {
    status: result === NOT_PREVIEWED ? 'not_previewed' : STATUS[result.status],
    membershipId: result.membershipId,
    pointsEarned: result.pointsEarned,
    stampsUpdated: result.stampsUpdated,
    warning: result.warning,
  };
}
