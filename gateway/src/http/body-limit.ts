/** 1 MiB: the largest request body accepted (413 payload_too_large above it). */
export const BODY_LIMIT = 1_048_576;
