import type { TEnvelope } from '@kisht/domain/common/envelope';

/** Wraps data in the success envelope of design §3. */
export const ok = <T>(data: T, message = 'Success'): TEnvelope<T> => ({ response: 'success', message, data });
