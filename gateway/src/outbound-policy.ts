import type { OutboundPolicy } from '@loyalty-gateway/core';
import type { GatewayConfig } from './config.js';

/**
 * Where vendor API calls may go in this environment (core's outbound-url.ts): loopback only
 * outside production (recorded vendor servers, local sandboxes), plus GATEWAY_OUTBOUND_ALLOW.
 */
export function outboundPolicyOf(config: Pick<GatewayConfig, 'GATEWAY_ENV' | 'GATEWAY_OUTBOUND_ALLOW'>): OutboundPolicy {
  return { allowLoopback: config.GATEWAY_ENV !== 'production', allowHosts: config.GATEWAY_OUTBOUND_ALLOW };
}
